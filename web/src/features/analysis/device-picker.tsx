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
export function OverviewDevicePicker({ stationId, value, onChange }: { stationId: number; value: number; onChange: (id: number) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim());
  const devices = useStationDevices(stationId, search);
  const list = devices.data?.list ?? [];
  const groups = TYPE_ORDER.map((type) => ({ type, items: list.filter((d) => d.type === type) })).filter((g) => g.items.length > 0);
  const more = (devices.data?.total ?? 0) > list.length;
  // sub-stations often repeat device names: name the sub-station when the list spans several,
  // without the part of the name they all share ("Kern Valley · Block North" → "Block North")
  const names = [...new Set(list.map((d) => d.stationName))];
  const shared = names.length > 1 ? sharedPrefix(names) : '';
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
              {names.length > 1 ? `${d.name} · ${d.stationName.slice(shared.length)}` : d.name}
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

/** The longest start, ending in " · ", that every name shares ("" when none). */
export function sharedPrefix(names: readonly string[]): string {
  let prefix = names[0] ?? '';
  for (const n of names) {
    while (!n.startsWith(prefix)) {
      prefix = prefix.slice(0, -1);
    }
  }
  const cut = prefix.lastIndexOf(' · ');
  return cut < 0 ? '' : prefix.slice(0, cut + 3);
}
