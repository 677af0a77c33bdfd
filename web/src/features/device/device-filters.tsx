import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import type { StationOption } from '@/lib/stations';
import { DEVICE_STATES, DEVICE_TYPES, type DeviceFilters } from './api/devices';
import styles from './device.module.css';

export type DeviceFilterValues = Omit<DeviceFilters, 'page' | 'pageSize'>;

interface DeviceFilterBarProps {
  value: DeviceFilterValues;
  stations: readonly StationOption[];
  onChange: (change: Partial<DeviceFilterValues>) => void;
}

/** Filters of the device list: station, type, state, and a name or serial number. */
export function DeviceFilterBar({ value, stations, onChange }: DeviceFilterBarProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(value.name ?? '');
  useEffect(() => setName(value.name ?? ''), [value.name]);
  return (
    <div className={styles.filters} role="search" aria-label={t('device.filters')}>
      <Input.Search
        allowClear
        style={{ width: 240 }}
        value={name}
        onChange={setName}
        onSearch={(text) => onChange({ name: text.trim() || undefined })}
        onClear={() => onChange({ name: undefined })}
        placeholder={t('device.search.placeholder')}
        aria-label={t('device.search')}
      />
      <LabelledSelect
        label={t('device.field.station')}
        placeholder={t('device.field.station')}
        className={styles.stationFilter}
        allowClear
        showSearch
        value={value.stationId}
        onChange={(next?: number) => onChange({ stationId: next })}
        filterOption={(input, option) =>
          String((option as { props?: { children?: unknown } }).props?.children ?? '')
            .toLowerCase()
            .includes(input.toLowerCase())
        }
      >
        {stations.map((station) => (
          <Option key={station.id} value={station.id}>
            {station.name}
          </Option>
        ))}
      </LabelledSelect>
      <LabelledSelect
        label={t('device.field.type')}
        placeholder={t('device.field.type')}
        className={styles.filter}
        allowClear
        value={value.type}
        onChange={(next?: string) => onChange({ type: next })}
      >
        {DEVICE_TYPES.map((type) => (
          <Option key={type} value={type}>
            {t(`device.type.${type}`)}
          </Option>
        ))}
      </LabelledSelect>
      <LabelledSelect
        label={t('device.field.state')}
        placeholder={t('device.field.state')}
        className={styles.filter}
        allowClear
        value={value.state}
        onChange={(next?: string) => onChange({ state: next })}
      >
        {DEVICE_STATES.map((state) => (
          <Option key={state} value={state}>
            {t(`status.deviceState.${state}`)}
          </Option>
        ))}
      </LabelledSelect>
    </div>
  );
}
