import { statusColor, StatusTag } from '@/components/status-tag';
import styles from './alarm.module.css';

/**
 * SPEC.md section 4 numbers the alarmLevel tag colours 1-3 (cyan, orange, red), as its sample
 * data numbers levels; Helio's levels are 0 signal change, 1 alarm, 2 fault.
 */
export function levelTagValue(level: number): number {
  return level + 1;
}

/** The palette colour of an alarm level's tag. */
export function alarmLevelColor(level: number): string {
  return statusColor('alarmLevel', levelTagValue(level));
}

/** The palette colour of an alarm status's tag: 1 occurring orange, 2 recovered cyan. */
export function alarmStatusColor(status: number): string {
  return statusColor('alarmStatus', status);
}

export function AlarmLevelTag({ level }: { level: number }) {
  return <StatusTag category="alarmLevel" value={levelTagValue(level)} appearance="filled" />;
}

export function AlarmStatusTag({ status }: { status: number }) {
  return <StatusTag category="alarmStatus" value={status} dot />;
}

/** Deal status as coloured text: unprocessed stands out, processed recedes. */
export function DealStatusText({ status, label }: { status: number; label: string }) {
  return (
    <span className={styles.deal} data-processed={status === 1 || undefined}>
      {label}
    </span>
  );
}
