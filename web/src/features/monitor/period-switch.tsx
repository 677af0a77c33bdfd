import Radio from '@arco-design/web-react/es/Radio';
import '@arco-design/web-react/es/Radio/style/css.js';
import { useTranslation } from 'react-i18next';

interface PeriodSwitchProps<T extends string> {
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  /** Names the group, e.g. "Generation period". */
  label: string;
  /** Key prefix of the option labels: `${prefix}.${option}`. */
  labelPrefix?: string;
}

/** Period tabs (day, month, year, total …) as a radio group: one choice, reachable by keyboard. */
export function PeriodSwitch<T extends string>({ value, options, onChange, label, labelPrefix = 'period' }: PeriodSwitchProps<T>) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={label}>
      <Radio.Group type="button" size="small" value={value} onChange={(next: T) => onChange(next)}>
        {options.map((option) => (
          <Radio key={option} value={option}>
            {t(`${labelPrefix}.${option}`)}
          </Radio>
        ))}
      </Radio.Group>
    </div>
  );
}
