import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Select/style/css.js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebounced } from '@/lib/use-debounced';
import { deviceOptionsQuery } from './api/scada';

/** A searchable device choice (name or serial number), fed by the device list. */
export function DevicePicker({
  value,
  label,
  onChange,
}: {
  value?: number;
  /** The chosen device's label, when the search results do not hold it. */
  label?: string;
  onChange: (id?: number) => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim());
  const options = useQuery({ ...deviceOptionsQuery(search), placeholderData: keepPreviousData });
  return (
    <Select
      aria-label={t('debug.pickDevice')}
      placeholder={t('debug.pickDevice')}
      showSearch
      allowClear
      filterOption={false}
      onSearch={setTyped}
      loading={options.isFetching}
      value={value}
      onChange={(id?: number) => onChange(id)}
      style={{ width: 420 }}
      notFoundContent={options.isError ? t('state.error') : t('state.empty')}
      options={[
        ...(value !== undefined && label && !(options.data ?? []).some((d) => d.id === value) ? [{ value, label }] : []),
        ...(options.data ?? []).map((d) => ({ value: d.id, label: `${d.name} · ${d.sn} · ${d.stationName}` })),
      ]}
    />
  );
}
