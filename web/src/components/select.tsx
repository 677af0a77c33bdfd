import Select from '@arco-design/web-react/es/Select';
import type { SelectHandle, SelectProps } from '@arco-design/web-react/es/Select/interface';
import '@arco-design/web-react/es/Select/style/css.js';
import { type ReactNode, useEffect, useRef } from 'react';

export interface LabelledSelectProps extends SelectProps {
  /** The accessible name of the combobox (Arco's Select does not pass aria-label through). */
  label: string;
  children?: ReactNode;
}

/** Arco's Select with an accessible name, so screen readers and tests find it by role and name. */
export function LabelledSelect({ label, ...props }: LabelledSelectProps) {
  const ref = useRef<SelectHandle>(null);
  useEffect(() => {
    const element = ref.current?.dom;
    if (element && element.getAttribute('aria-label') !== label) {
      element.setAttribute('aria-label', label);
    }
  });
  return <Select ref={ref} {...props} />;
}

export const Option = Select.Option;
export const OptGroup = Select.OptGroup;
