import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterBar, FilterField, RangeFilter, SelectFilter } from '@/components/list/filter-bar';
import { StationFilter } from '@/components/list/station-filter';
import type { FilterChange } from '@/components/list/use-list-filters';
import { useStationOptions } from '@/lib/stations';
import { WO_MINE, WO_PRIORITIES, WO_STATUSES, type WorkOrderFilters } from './api/work-orders';

/** The work-order filters: mine started / copied to me / mine to process, status, priority, timeout, station, text, time. */
export function WorkOrderFilterBar({
  value,
  onChange,
  onReset,
}: {
  value: WorkOrderFilters;
  onChange: (change: FilterChange) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const stations = useStationOptions();
  const [text, setText] = useState(value.q ?? '');
  useEffect(() => setText(value.q ?? ''), [value.q]);
  return (
    <FilterBar label={t('ops.wo.filters')} onReset={onReset}>
      <SelectFilter
        label={t('ops.wo.filter.mine')}
        allText={t('ops.wo.filter.everyone')}
        value={value.mine}
        options={WO_MINE.map((m) => ({ value: m, label: t(`ops.wo.mine.${m}`) }))}
        onChange={(mine) => onChange({ mine })}
      />
      <SelectFilter
        label={t('ops.wo.field.status')}
        value={value.status}
        options={WO_STATUSES.map((s) => ({ value: s, label: t(`status.workOrderStatus.${s}`) }))}
        onChange={(status) => onChange({ status })}
      />
      <SelectFilter
        label={t('ops.wo.field.priority')}
        value={value.priority}
        options={WO_PRIORITIES.map((p) => ({ value: p, label: t(`status.workOrderPriority.${p}`) }))}
        onChange={(priority) => onChange({ priority })}
      />
      <SelectFilter
        label={t('ops.wo.field.timeout')}
        value={value.timeoutStatus}
        options={[
          { value: 0, label: t('status.workOrderTimeout.1') },
          { value: 1, label: t('status.workOrderTimeout.0') },
        ]}
        onChange={(timeoutStatus) => onChange({ timeoutStatus })}
      />
      <StationFilter
        label={t('ops.wo.field.station')}
        allText={t('ops.wo.filter.allStations')}
        stations={stations.data ?? []}
        value={value.stationId}
        onChange={(stationId) => onChange({ stationId })}
      />
      <FilterField label={t('ops.wo.filter.search')}>
        <Input.Search
          aria-label={t('ops.wo.filter.search')}
          placeholder={t('ops.wo.filter.searchHint')}
          style={{ width: 200 }}
          maxLength={100}
          allowClear
          value={text}
          onChange={setText}
          onSearch={(q) => onChange({ q: q.trim() })}
          onClear={() => onChange({ q: undefined })}
        />
      </FilterField>
      <RangeFilter
        label={t('ops.wo.filter.submitted')}
        from={value.from}
        to={value.to}
        placeholders={[t('ops.wo.filter.from'), t('ops.wo.filter.to')]}
        onChange={(from, to) => onChange({ from, to })}
      />
    </FilterBar>
  );
}
