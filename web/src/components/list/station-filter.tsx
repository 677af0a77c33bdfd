import { useMemo } from 'react';
import { type StationOption, stationTree } from '@/lib/stations';
import { SelectFilter } from './filter-bar';

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

/** A searchable station filter ("all stations" first). */
export function StationFilter({
  label,
  allText,
  stations,
  value,
  onChange,
}: {
  label: string;
  allText: string;
  stations: readonly StationOption[];
  value: number | undefined;
  onChange: (id: number | undefined) => void;
}) {
  const options = useMemo(() => stationChoices(stations).map((c) => ({ value: c.id, label: c.label })), [stations]);
  return <SelectFilter label={label} allText={allText} wide searchable value={value} options={options} onChange={onChange} />;
}
