import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { type DeviceField, useDeleteLink, useDeviceField } from './api/scada';
import styles from './debug.module.css';
import { DevicePicker } from './device-picker';
import { LinkDialog } from './link-dialog';
import { PollErrors } from './poll-errors';
import { RegisterTable } from './register-table';

const STATE_COLORS: Record<string, string> = { online: 'green', connecting: 'cyan', offline: 'red' };

/** One device: its connection and poll status, last errors and live registers. */
export function DeviceDebug({ deviceId, isAdmin, onPick }: { deviceId?: number; isAdmin: boolean; onPick: (id?: number) => void }) {
  const { t } = useTranslation();
  const field = useDeviceField(deviceId);
  const [editing, setEditing] = useState(false);
  const unlink = useDeleteLink();
  const data = field.data;

  return (
    <div className={styles.stack}>
      <div className={styles.toolbar}>
        <DevicePicker
          value={deviceId}
          label={data ? `${data.name} · ${data.sn} · ${data.stationName}` : undefined}
          onChange={onPick}
        />
      </div>
      {deviceId === undefined ? (
        <DataState empty emptyText={t('debug.pickHint')} minHeight={200} />
      ) : (
        <DataState loading={field.isPending} error={field.isError} onRetry={() => void field.refetch()} minHeight={200}>
          {data && (
            <>
              <Panel
                title={t('debug.connection')}
                extra={
                  isAdmin && (
                    <>
                      <Button size="small" type="primary" onClick={() => setEditing(true)}>
                        {data.link ? t('debug.editLink') : t('debug.connect')}
                      </Button>
                      {data.link && (
                        <Popconfirm title={t('debug.disconnectConfirm')} onOk={() => unlink.mutate(data.id)}>
                          <Button size="small" status="danger" loading={unlink.isPending}>
                            {t('debug.disconnect')}
                          </Button>
                        </Popconfirm>
                      )}
                    </>
                  )
                }
              >
                <Connection field={data} />
              </Panel>
              {data.link && (
                <>
                  <Panel title={t('debug.errors')}>
                    <PollErrors errors={data.status?.errors ?? []} />
                  </Panel>
                  <RegisterTable deviceId={data.id} isAdmin={isAdmin} />
                </>
              )}
              {editing && <LinkDialog field={data} onClose={() => setEditing(false)} />}
            </>
          )}
        </DataState>
      )}
    </div>
  );
}

function Connection({ field }: { field: DeviceField }) {
  const { t } = useTranslation();
  const { link, status } = field;
  if (!link) {
    return <DataState empty emptyText={t('debug.notLinked')} minHeight={120} />;
  }
  const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
  const rows: [string, React.ReactNode][] = [
    [t('debug.device'), `${field.name} · ${field.sn}`],
    [t('debug.address'), `${link.host}:${link.port}`],
    [t('debug.unitId'), link.unitId],
    [t('debug.interval'), t('debug.seconds', { n: link.intervalS })],
    [t('debug.timeout'), `${link.timeoutMs} ms`],
    [t('debug.protocol'), link.mapId ? t('debug.protocolMap', { name: link.mapName }) : t('debug.protocolSunSpec')],
    [
      t('debug.state'),
      status ? (
        <Tag color={STATE_COLORS[status.state]} bordered>
          {t(`debug.states.${status.state}`)}
        </Tag>
      ) : (
        '—'
      ),
    ],
    [t('debug.latency'), status?.lastSuccess ? `${status.latencyMs.toFixed(1)} ms` : '—'],
    [t('debug.lastPoll'), time(status?.lastPoll ?? null)],
    [t('debug.lastSuccess'), time(status?.lastSuccess ?? null)],
    [t('debug.polls'), status ? t('debug.pollCounts', { polls: status.polls, failures: status.failures }) : '—'],
  ];
  if (status?.layout) {
    rows.push([
      t('debug.models'),
      `${status.layout.base} · ${status.layout.models.map((m) => m.id).join(', ')}`,
    ]);
  }
  if (status && (status.manufacturer || status.model || status.serial)) {
    rows.push([t('debug.identity'), [status.manufacturer, status.model, status.serial].filter(Boolean).join(' · ')]);
  }
  return (
    <dl className={styles.facts}>
      {rows.map(([label, value]) => (
        <div key={label} className={styles.fact}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
