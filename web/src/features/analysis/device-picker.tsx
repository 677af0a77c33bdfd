import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, OptGroup, Option } from '@/components/select';
import { useDebounced } from '@/lib/use-debounced';
import { type DeviceOption, useStationDevices } from './api/overview';

/** Device types in the order the picker groups them. */
const TYPE_ORDER = ['inverter', 'storage', 'battery', 'meter'];

/**
 * The device a data overview is made for: "whole station" or one of the station's inverters,
 * storage units, batteries and meters, grouped by type, searched by name or serial number on the server.
 */
export function OverviewDevicePicker({
  stationId,
  stationName,
  value,
  onChange,
}: {
  stationId: number;
  /** The chosen station's name, left out of its sub-stations' names in the options. */
  stationName: string;
  value: number;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim());
  const devices = useStationDevices(stationId, search);
  const list = devices.data?.list ?? [];
  const groups = TYPE_ORDER.map((type) => ({ type, items: list.filter((d) => d.type === type) })).filter((g) => g.items.length > 0);
  const more = (devices.data?.total ?? 0) > list.length;
  // sub-stations often repeat device names: name the sub-station when the list spans several
  const several = new Set(list.map((d) => d.stationName)).size > 1;
  return (
    <LabelledSelect
      label={t('analysis.device')}
      style={{ width: 260 }}
      value={value}
      disabled={!stationId}
      loading={devices.isFetching}
      onChange={(v: number) => onChange(v)}
      showSearch
      filterOption={false}
      onSearch={setTyped}
      onVisibleChange={(open) => !open && setTyped('')}
      notFoundContent={devices.isError ? t('state.error') : t('state.empty')}
    >
      <Option value={0}>{t(stationId ? 'analysis.device.whole' : 'analysis.device.pickStation')}</Option>
      {groups.map((g) => (
        <OptGroup key={g.type} label={t(`device.type.${g.type}`)}>
          {g.items.map((d: DeviceOption) => (
            <Option key={d.id} value={d.id}>
              {several ? `${d.name} · ${subName(d, stationName)}` : d.name}
            </Option>
          ))}
        </OptGroup>
      ))}
      {more && (
        <Option key="more" value={-2} disabled>
          {t('analysis.device.more', { count: list.length })}
        </Option>
      )}
    </LabelledSelect>
  );
}

/** A device's sub-station as named under the chosen station ("Block North" of "Kern Valley · Block North"). */
function subName(d: DeviceOption, stationName: string): string {
  const prefix = `${stationName} · `;
  return d.stationName.startsWith(prefix) ? d.stationName.slice(prefix.length) : d.stationName;
}
