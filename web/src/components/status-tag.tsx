import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './status-tag.module.css';

/**
 * Status colours (SPEC.md section 4), by category and value, as Arco palette names; the console
 * draws them with the palette's tokens, so they follow the light and dark themes. deviceState is
 * Helio's own category for the device list.
 */
export const STATUS_COLORS = {
  communicationStatus: { 1: 'cyan', 2: 'green', 3: 'orange', 4: 'red' },
  alarmExist: { 0: 'green', 1: 'red' },
  alarmStatus: { 1: 'orange', 2: 'cyan' },
  alarmLevel: { 1: 'cyan', 2: 'orange', 3: 'red' },
  workOrderStatus: { 1: 'magenta', 2: 'orange', 3: 'orangered', 4: 'green', 5: 'red' },
  workOrderPriority: { 1: 'green', 2: 'cyan', 3: 'orange', 4: 'red' },
  workOrderTimeout: { 1: 'green', 0: 'red' },
  deviceState: { running: 'green', standby: 'cyan', fault: 'red', offline: 'gray' },
} as const satisfies Record<string, Record<string | number, string>>;

export type StatusCategory = keyof typeof STATUS_COLORS;

/** The palette name of a status, or gray for a value the category does not know. */
export function statusColor(category: StatusCategory, value: string | number): string {
  const colors = STATUS_COLORS[category] as Record<string | number, string>;
  return colors[value] ?? 'gray';
}

export interface StatusTagProps {
  category: StatusCategory;
  value: string | number;
  /** A dot before the text. */
  dot?: boolean;
  /** text: coloured text; filled: a filled square tag. */
  appearance?: 'text' | 'filled';
  className?: string;
}

/** A status as its translated name in the status colour (key status.<category>.<value>). */
export function StatusTag({ category, value, dot = false, appearance = 'text', className }: StatusTagProps) {
  const { t } = useTranslation();
  const color = statusColor(category, value);
  const style = {
    '--status-color': `rgb(var(--${color}-6))`,
    '--status-fill': `rgb(var(--${color}-1))`,
    '--status-border': `rgb(var(--${color}-3))`,
  } as CSSProperties;
  const classes = [styles.tag, appearance === 'filled' ? styles.filled : '', className ?? ''].filter(Boolean);
  return (
    <span className={classes.join(' ')} style={style} data-color={color} data-appearance={appearance}>
      {dot && <span className={styles.dot} aria-hidden />}
      {t(`status.${category}.${value}`)}
    </span>
  );
}
