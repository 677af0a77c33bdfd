import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import type { StationFilters } from './api/stations';
import { COMMUNICATION_STATUSES, STATION_TYPES, SYSTEM_TYPES, type Tag } from './api/types';
import styles from './station.module.css';

export type FilterValues = Omit<StationFilters, 'page' | 'pageSize'>;

interface StationFilterBarProps {
  value: FilterValues;
  tags: readonly Tag[];
  onChange: (change: Partial<FilterValues>) => void;
}

/** Search and filters of the station list: name, communication, alarms, types and tags. */
export function StationFilterBar({ value, tags, onChange }: StationFilterBarProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(value.name ?? '');
  useEffect(() => setName(value.name ?? ''), [value.name]);

  return (
    <div className={styles.filters} role="search" aria-label={t('station.filters')}>
      <Input.Search
        allowClear
        className={styles.search}
        value={name}
        onChange={setName}
        onSearch={(text) => onChange({ name: text.trim() || undefined })}
        onClear={() => onChange({ name: undefined })}
        placeholder={t('station.search.placeholder')}
        aria-label={t('station.search')}
      />
      <LabelledSelect
        label={t('station.field.communicationStatus')}
        placeholder={t('station.field.communicationStatus')}
        className={styles.filter}
        allowClear
        value={value.communicationStatus}
        onChange={(next?: number) => onChange({ communicationStatus: next })}
      >
        {COMMUNICATION_STATUSES.map((status) => (
          <Option key={status} value={status}>
            {t(`status.communicationStatus.${status}`)}
          </Option>
        ))}
      </LabelledSelect>
      <LabelledSelect
        label={t('station.field.alarmStatus')}
        placeholder={t('station.field.alarmStatus')}
        className={styles.filter}
        allowClear
        value={value.alarmStatus}
        onChange={(next?: number) => onChange({ alarmStatus: next })}
      >
        {[0, 1].map((status) => (
          <Option key={status} value={status}>
            {t(`status.alarmExist.${status}`)}
          </Option>
        ))}
      </LabelledSelect>
      <LabelledSelect
        label={t('station.field.stationType')}
        placeholder={t('station.field.stationType')}
        className={styles.filter}
        allowClear
        value={value.stationType}
        onChange={(next?: string) => onChange({ stationType: next })}
      >
        {STATION_TYPES.map((type) => (
          <Option key={type} value={type}>
            {t(`station.stationType.${type}`)}
          </Option>
        ))}
      </LabelledSelect>
      <LabelledSelect
        label={t('station.field.systemType')}
        placeholder={t('station.field.systemType')}
        className={styles.filter}
        allowClear
        value={value.systemType}
        onChange={(next?: string) => onChange({ systemType: next })}
      >
        {SYSTEM_TYPES.map((type) => (
          <Option key={type} value={type}>
            {t(`station.systemType.${type}`)}
          </Option>
        ))}
      </LabelledSelect>
      <LabelledSelect
        label={t('station.field.tags')}
        placeholder={t('station.field.tags')}
        className={styles.tagFilter}
        mode="multiple"
        allowClear
        maxTagCount={2}
        value={value.tagIds ?? []}
        onChange={(next: number[]) => onChange({ tagIds: next })}
      >
        {tags.map((tag) => (
          <Option key={tag.id} value={tag.id}>
            {tag.name}
          </Option>
        ))}
      </LabelledSelect>
    </div>
  );
}
