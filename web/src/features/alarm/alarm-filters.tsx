import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RangePicker } from '@/components/date-pickers';
import { LabelledSelect, Option } from '@/components/select';
import { type StationOption, stationTree } from '@/lib/stations';
import styles from './alarm.module.css';
import {
  ALARM_DEVICE_TYPES,
  ALARM_LEVELS,
  ALARM_STATUSES,
  ALARM_TYPES,
  type AlarmFilters,
  DEAL_STATUSES,
} from './api/alarms';

export type FilterValues = Omit<AlarmFilters, 'page' | 'pageSize'>;

/** "All" in a select whose value is otherwise a number or a name. */
const ALL = 'all';

interface AlarmFilterBarProps {
  value: FilterValues;
  stations: readonly StationOption[];
  onChange: (change: Partial<FilterValues>) => void;
  onReset: () => void;
}

/** Stations with their sub-stations right after them, named "station / sub-station". */
export function stationChoices(stations: readonly StationOption[]): { id: number; label: string }[] {
  const out: { id: number; label: string }[] = [];
  const walk = (nodes: ReturnType<typeof stationTree>, prefix: string) => {
    for (const node of nodes) {
      const label = prefix ? `${prefix} / ${node.name}` : node.name;
      out.push({ id: node.id, label });
      walk(node.children, label);
    }
  };
  walk(stationTree(stations), '');
  return out;
}

/** The alarm list's filters (SPEC.md section 4): station, statuses, level, type, device type, time. */
export function AlarmFilterBar({ value, stations, onChange, onReset }: AlarmFilterBarProps) {
  const { t } = useTranslation();
  const choices = useMemo(() => stationChoices(stations), [stations]);

  const field = (label: string, control: React.ReactNode) => (
    <div className={styles.field}>
      <span className={styles.fieldLabel} aria-hidden>
        {label}
      </span>
      {control}
    </div>
  );

  return (
    <div className={styles.filters} role="search" aria-label={t('alarm.filters')}>
      {field(
        t('alarm.filter.station'),
        <LabelledSelect
          label={t('alarm.filter.station')}
          className={styles.stationSelect}
          showSearch
          filterOption={(input, option) =>
            String((option as { props?: { children?: unknown } }).props?.children ?? '')
              .toLowerCase()
              .includes(input.toLowerCase())
          }
          value={value.stationId ?? ALL}
          onChange={(next: number | typeof ALL) => onChange({ stationId: next === ALL ? undefined : next })}
        >
          <Option value={ALL}>{t('alarm.filter.allStations')}</Option>
          {choices.map((choice) => (
            <Option key={choice.id} value={choice.id}>
              {choice.label}
            </Option>
          ))}
        </LabelledSelect>,
      )}
      {field(
        t('alarm.filter.dealStatus'),
        <LabelledSelect
          label={t('alarm.filter.dealStatus')}
          className={styles.select}
          value={value.dealStatus}
          onChange={(next: -1 | 0 | 1) => onChange({ dealStatus: next })}
        >
          <Option value={-1}>{t('alarm.filter.all')}</Option>
          {DEAL_STATUSES.map((status) => (
            <Option key={status} value={status}>
              {t(`alarm.dealStatus.${status}`)}
            </Option>
          ))}
        </LabelledSelect>,
      )}
      {field(
        t('alarm.filter.alarmStatus'),
        <LabelledSelect
          label={t('alarm.filter.alarmStatus')}
          className={styles.select}
          value={value.alarmStatus}
          onChange={(next: 0 | 1 | 2) => onChange({ alarmStatus: next })}
        >
          <Option value={0}>{t('alarm.filter.all')}</Option>
          {ALARM_STATUSES.map((status) => (
            <Option key={status} value={status}>
              {t(`alarm.alarmStatus.${status}`)}
            </Option>
          ))}
        </LabelledSelect>,
      )}
      {field(
        t('alarm.filter.level'),
        <LabelledSelect
          label={t('alarm.filter.level')}
          className={styles.select}
          value={value.level ?? ALL}
          onChange={(next: number | typeof ALL) => onChange({ level: next === ALL ? undefined : next })}
        >
          <Option value={ALL}>{t('alarm.filter.all')}</Option>
          {ALARM_LEVELS.map((level) => (
            <Option key={level} value={level}>
              {t(`alarm.level.${level}`)}
            </Option>
          ))}
        </LabelledSelect>,
      )}
      {field(
        t('alarm.filter.type'),
        <LabelledSelect
          label={t('alarm.filter.type')}
          className={styles.select}
          value={value.type ?? ALL}
          onChange={(next: number | typeof ALL) => onChange({ type: next === ALL ? undefined : next })}
        >
          <Option value={ALL}>{t('alarm.filter.all')}</Option>
          {ALARM_TYPES.map((type) => (
            <Option key={type} value={type}>
              {t(`alarm.type.${type}`)}
            </Option>
          ))}
        </LabelledSelect>,
      )}
      {field(
        t('alarm.filter.deviceType'),
        <LabelledSelect
          label={t('alarm.filter.deviceType')}
          className={styles.select}
          value={value.deviceType ?? ALL}
          onChange={(next: string) => onChange({ deviceType: next === ALL ? undefined : next })}
        >
          <Option value={ALL}>{t('alarm.filter.all')}</Option>
          {ALARM_DEVICE_TYPES.map((type) => (
            <Option key={type} value={type}>
              {t(`alarm.deviceType.${type}`)}
            </Option>
          ))}
        </LabelledSelect>,
      )}
      {field(
        t('alarm.filter.time'),
        <div role="group" aria-label={t('alarm.filter.time')}>
          <RangePicker
            className={styles.range}
            allowClear
            placeholder={[t('alarm.filter.from'), t('alarm.filter.to')]}
            value={value.from && value.to ? [value.from, value.to] : undefined}
            onChange={(dates?: string[]) =>
              onChange({ from: dates?.[0] || undefined, to: dates?.[1] || undefined })
            }
          />
        </div>,
      )}
      <div className={styles.filterActions}>
        <Button onClick={onReset}>{t('alarm.filter.reset')}</Button>
      </div>
    </div>
  );
}
