import Tree from '@arco-design/web-react/es/Tree';
import '@arco-design/web-react/es/Tree/style/css.js';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { StatusTag } from '@/components/status-tag';
import { formatQuantity } from '@/lib/format';
import { useStationDevices } from './api/stations';
import type { DeviceItem } from './api/types';
import styles from './station.module.css';

export interface TreeNode {
  key: string;
  title: ReactNode;
  children?: TreeNode[];
}

interface StationRef {
  id: number;
  name: string;
}

/**
 * The station, its sub-stations and their devices as a tree: a device hangs under its parent
 * device, or under its station when it has none (or its parent is not in the list).
 */
export function buildDeviceTree(
  station: StationRef,
  children: readonly StationRef[],
  devices: readonly DeviceItem[],
  title: (device: DeviceItem) => ReactNode = (device) => device.name,
): TreeNode[] {
  const byId = new Map(devices.map((device) => [device.id, device]));
  const deviceNodes = new Map<number, TreeNode>(devices.map((device) => [device.id, { key: `d:${device.id}`, title: title(device) }]));
  const stationNodes = new Map<number, TreeNode>(
    [station, ...children].map((item) => [item.id, { key: `s:${item.id}`, title: item.name, children: [] }]),
  );
  for (const device of devices) {
    const node = deviceNodes.get(device.id)!;
    const parent = device.parentId && byId.has(device.parentId) ? deviceNodes.get(device.parentId) : undefined;
    const holder = parent ?? stationNodes.get(device.stationId) ?? stationNodes.get(station.id)!;
    (holder.children ??= []).push(node);
  }
  const root = stationNodes.get(station.id)!;
  for (const child of children) {
    root.children!.push(stationNodes.get(child.id)!);
  }
  return [root];
}

/** The station's device tree with each device's state and power; a device opens its detail. */
export function DeviceTree({ station, subStations }: { station: StationRef; subStations: readonly StationRef[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const devices = useStationDevices(station.id);
  const list = devices.data ?? [];
  const tree = buildDeviceTree(station, subStations, list, (device) => (
    <span className={styles.treeNode}>
      <span>{device.name}</span>
      <span className={styles.muted}>{t(`device.type.${device.type}`)}</span>
      <StatusTag category="deviceState" value={device.state} dot />
      {device.type !== 'meter' && <span className={styles.muted}>{formatQuantity(device.currentPowerKw, 'kW')}</span>}
    </span>
  ));
  return (
    <Panel title={t('station.devices.title', { count: list.length })}>
      <DataState
        loading={devices.isPending}
        error={devices.isError}
        empty={list.length === 0}
        emptyText={t('station.devices.empty')}
        onRetry={() => void devices.refetch()}
        minHeight={200}
      >
        <div className={styles.tree}>
          <Tree
            treeData={tree}
            size="small"
            blockNode
            autoExpandParent
            defaultExpandedKeys={[`s:${station.id}`]}
            selectedKeys={[]}
            onSelect={(keys) => {
              const key = String(keys[0] ?? '');
              if (key.startsWith('d:')) {
                navigate(`/device/detail/${key.slice(2)}`);
              }
            }}
          />
        </div>
      </DataState>
    </Panel>
  );
}
