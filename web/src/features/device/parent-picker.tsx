import TreeSelect from '@arco-design/web-react/es/TreeSelect';
import '@arco-design/web-react/es/TreeSelect/style/css.js';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type StationNode, stationTree, useStationOptions } from '@/lib/stations';
import { type DeviceItem, fetchStationDevices } from './api/devices';

/** A picked parent: a station (the device hangs directly under it) or a device of a station. */
export interface ParentChoice {
  stationId: number;
  parentId: number;
}

/** Tree values: "s:<station id>" or "d:<device id>". */
export function parentValue(choice: ParentChoice | undefined): string | undefined {
  if (!choice || !choice.stationId) {
    return undefined;
  }
  return choice.parentId ? `d:${choice.parentId}` : `s:${choice.stationId}`;
}

interface Node {
  key: string;
  title: string;
  children?: Node[];
  isLeaf?: boolean;
}

/** The devices of one station as tree nodes, nested by parentId; `exclude` and its subtree are left out. */
export function deviceNodes(stationId: number, devices: readonly DeviceItem[], exclude?: number): Node[] {
  const own = devices.filter((device) => device.stationId === stationId);
  const ids = new Set(own.map((device) => device.id));
  const childrenOf = (parentId: number): Node[] =>
    own
      .filter((device) => device.id !== exclude && (parentId === 0 ? !device.parentId || !ids.has(device.parentId) : device.parentId === parentId))
      .map((device) => {
        const children = childrenOf(device.id);
        return { key: `d:${device.id}`, title: `${device.name} (${device.sn})`, ...(children.length ? { children } : { isLeaf: true }) };
      });
  return childrenOf(0);
}

interface ParentPickerProps {
  value?: ParentChoice;
  onChange?: (value: ParentChoice | undefined) => void;
  /** The device being edited: it cannot be its own parent. */
  self?: number;
  label: string;
}

/**
 * The "parent" of a device (SPEC.md section 5): a tree of the stations and sub-stations and,
 * loaded when a station opens, their devices. Choosing a station sets stationId; choosing a
 * device sets its station and parentId.
 */
export function ParentPicker({ value, onChange, self, label }: ParentPickerProps) {
  const { t } = useTranslation();
  const stations = useStationOptions();
  const [devices, setDevices] = useState<Record<number, DeviceItem[]>>({});
  const ref = useRef<{ getRootDOMNode?: () => HTMLElement | null }>(null);
  const deviceStation = useRef(new Map<number, number>());

  // Editing: the current parent device's station is loaded up front so its name shows.
  const initialStation = value?.parentId ? value.stationId : 0;
  useEffect(() => {
    if (initialStation) {
      void fetchStationDevices(initialStation).then((list) => setDevices((current) => ({ ...current, [initialStation]: list })));
    }
  }, [initialStation]);

  useEffect(() => {
    ref.current?.getRootDOMNode?.()?.setAttribute('aria-label', label);
  });

  const treeData = useMemo(() => {
    for (const list of Object.values(devices)) {
      for (const device of list) {
        deviceStation.current.set(device.id, device.stationId);
      }
    }
    // Sub-stations are listed after their station at the top level, so every station opens the
    // same way: its devices load when it is expanded.
    const flat: { station: StationNode; title: string }[] = [];
    for (const root of stationTree(stations.data ?? [])) {
      flat.push({ station: root, title: root.name });
      for (const child of root.children) {
        flat.push({ station: child, title: child.name.startsWith(root.name) ? child.name : `${root.name} / ${child.name}` });
      }
    }
    return flat.map(({ station, title }): Node => {
      const loaded = devices[station.id];
      const children = loaded ? deviceNodes(station.id, loaded, self) : [];
      return { key: `s:${station.id}`, title, ...(loaded && children.length === 0 ? { isLeaf: true } : {}), ...(children.length ? { children } : {}) };
    });
  }, [stations.data, devices, self]);

  const loadMore = async (node: { props: { _key?: string; dataRef?: { key?: string } } }) => {
    const key = String(node.props.dataRef?.key ?? node.props._key ?? '');
    if (!key.startsWith('s:')) {
      return;
    }
    const stationId = Number(key.slice(2));
    if (devices[stationId]) {
      return;
    }
    const list = await fetchStationDevices(stationId);
    setDevices((current) => ({ ...current, [stationId]: list }));
  };

  return (
    <TreeSelect
      ref={ref as never}
      treeData={treeData}
      value={parentValue(value)}
      loading={stations.isPending}
      placeholder={t('device.parent.placeholder')}
      showSearch
      allowClear
      loadMore={loadMore as never}
      onChange={(next: string | undefined) => {
        if (!next) {
          onChange?.(undefined);
          return;
        }
        const id = Number(next.slice(2));
        if (next.startsWith('s:')) {
          onChange?.({ stationId: id, parentId: 0 });
        } else {
          onChange?.({ stationId: deviceStation.current.get(id) ?? value?.stationId ?? 0, parentId: id });
        }
      }}
    />
  );
}
