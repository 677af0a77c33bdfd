import DatePicker from '@arco-design/web-react/es/DatePicker';
import '@arco-design/web-react/es/DatePicker/style/css.js';
import type { ComponentProps } from 'react';
import { WEEK_START } from '@/lib/format';

// Every date picker of the console starts its weeks on Monday (SPEC.md section 9).

export function DayPicker(props: ComponentProps<typeof DatePicker>) {
  return <DatePicker dayStartOfWeek={WEEK_START} {...props} />;
}

export function MonthPicker(props: ComponentProps<typeof DatePicker.MonthPicker>) {
  return <DatePicker.MonthPicker {...props} />;
}

export function YearPicker(props: ComponentProps<typeof DatePicker.YearPicker>) {
  return <DatePicker.YearPicker {...props} />;
}

export function RangePicker(props: ComponentProps<typeof DatePicker.RangePicker>) {
  return <DatePicker.RangePicker dayStartOfWeek={WEEK_START} {...props} />;
}
