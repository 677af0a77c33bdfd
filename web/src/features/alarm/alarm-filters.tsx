import { useTranslation } from 'react-i18next';
import { FilterBar, RangeFilter, SelectFilter } from '@/components/list/filter-bar';
import { StationFilter } from '@/components/list/station-filter';
import type { StationOption } from '@/lib/stations';
import {
  ALARM_DEVICE_TYPES,
  ALARM_LEVELS,
  ALARM_STATUSES,
  ALARM_TYPES,
  type AlarmFilters,
  DEAL_STATUSES,
} from './api/alarms';

export type FilterValues = Omit<AlarmFilters, 'page' | 'pageSize'>;

interface AlarmFilterBarProps {
  value: FilterValues;
  stations: readonly StationOption[];
  onChange: (change: Partial<FilterValues>) => void;
  onReset: () => void;
}

/** The alarm list's filters (SPEC.md section 4): station, statuses, level, type, device type, time. */
export function AlarmFilterBar({ value, stations, onChange, onReset }: AlarmFilterBarProps) {
  const { t } = useTranslation();
  const all = t('alarm.filter.all');
  const options = <V extends number | string>(values: readonly V[], key: string) =>
    values.map((v) => ({ value: v, label: t(`${key}.${v}`) }));
  return (
    <FilterBar label={t('alarm.filters')} onReset={onReset}>
      <StationFilter
        label={t('alarm.filter.station')}
        allText={t('alarm.filter.allStations')}
        stations={stations}
        value={value.stationId}
        onChange={(stationId) => onChange({ stationId })}
      />
      <SelectFilter
        label={t('alarm.filter.dealStatus')}
        allText={all}
        value={value.dealStatus === -1 ? undefined : value.dealStatus}
        options={options(DEAL_STATUSES, 'alarm.dealStatus')}
        onChange={(next) => onChange({ dealStatus: next ?? -1 })}
      />
      <SelectFilter
        label={t('alarm.filter.alarmStatus')}
        allText={all}
        value={value.alarmStatus === 0 ? undefined : value.alarmStatus}
        options={options(ALARM_STATUSES, 'alarm.alarmStatus')}
        onChange={(next) => onChange({ alarmStatus: next ?? 0 })}
      />
      <SelectFilter
        label={t('alarm.filter.level')}
        allText={all}
        value={value.level}
        options={options(ALARM_LEVELS, 'alarm.level')}
        onChange={(level) => onChange({ level })}
      />
      <SelectFilter
        label={t('alarm.filter.type')}
        allText={all}
        value={value.type}
        options={options(ALARM_TYPES, 'alarm.type')}
        onChange={(type) => onChange({ type })}
      />
      <SelectFilter
        label={t('alarm.filter.deviceType')}
        allText={all}
        value={value.deviceType}
        options={options(ALARM_DEVICE_TYPES, 'alarm.deviceType')}
        onChange={(deviceType) => onChange({ deviceType })}
      />
      <RangeFilter
        label={t('alarm.filter.time')}
        from={value.from}
        to={value.to}
        placeholders={[t('alarm.filter.from'), t('alarm.filter.to')]}
        onChange={(from, to) => onChange({ from, to })}
      />
    </FilterBar>
  );
}
