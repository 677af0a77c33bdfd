import Alert from '@arco-design/web-react/es/Alert';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Modal from '@arco-design/web-react/es/Modal';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type Connection, defaultPicks, type FoundSite, useConfirm, useDiscover } from './api';
import styles from './cloud.module.css';

/**
 * Lists what the vendor holds (each device marked when Helio has its serial number or already
 * syncs it) and creates the devices the administrator leaves ticked, history first.
 */
export function DiscoverDialog({ connection, onClose }: { connection: Connection | null; onClose: () => void }) {
  const { t } = useTranslation();
  const discover = useDiscover();
  const confirm = useConfirm();
  const [sites, setSites] = useState<FoundSite[]>([]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const id = connection?.id ?? 0;
  const { mutate } = discover;

  useEffect(() => {
    if (!id) {
      return;
    }
    mutate(id, {
      onSuccess: (found) => {
        setSites(found);
        setChosen(new Set(defaultPicks(found).flatMap((p) => p.serials)));
      },
    });
  }, [id, mutate]);

  const toggle = (serial: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) {
      next.add(serial);
    } else {
      next.delete(serial);
    }
    setChosen(next);
  };

  const submit = async () => {
    const picks = defaultPicks(sites)
      .map((p) => ({ ...p, serials: p.serials.filter((s) => chosen.has(s)) }))
      .filter((p) => p.serials.length > 0);
    try {
      const done = await confirm.mutateAsync({ id, sites: picks });
      notifySuccess(t('cloud.confirmed', { stations: done.stationsCreated ?? 0, devices: done.devicesCreated ?? 0, linked: done.devicesLinked ?? 0 }));
      onClose();
    } catch (err) {
      notifyError(t('cloud.failed', { reason: err instanceof Error ? err.message : String(err) }));
    }
  };

  return (
    <Modal
      title={t('cloud.discoverTitle', { name: connection?.name ?? '' })}
      visible={connection !== null}
      onOk={submit}
      okText={t('cloud.confirm')}
      okButtonProps={{ disabled: chosen.size === 0 }}
      onCancel={onClose}
      confirmLoading={confirm.isPending}
      unmountOnExit
      style={{ width: 720 }}
    >
      <Alert type="info" content={t('cloud.discoverHint')} className={styles.hint} />
      {discover.error instanceof Error && <Alert type="error" content={discover.error.message} className={styles.hint} />}
      <DataState
        loading={discover.isPending}
        error={discover.isError}
        onRetry={() => mutate(id)}
        empty={discover.isSuccess && sites.length === 0}
        emptyText={t('cloud.noSites')}
        minHeight={160}
      >
        {sites.map((s) => (
          <section key={s.id} className={styles.site}>
            <h4>
              {s.name} <span className={styles.meta}>{`${s.id} · ${s.timeZone ?? ''} · ${s.peakKw ?? 0} kWp`}</span>
            </h4>
            <p className={styles.meta}>{s.stationId ? t('cloud.intoStation') : t('cloud.newStation')}</p>
            {(s.devices ?? []).map((d) => (
              <div key={d.serial} className={styles.device}>
                <Checkbox
                  checked={d.following || chosen.has(d.serial ?? '')}
                  disabled={d.following}
                  onChange={(on: boolean) => toggle(d.serial ?? '', on)}
                >
                  {`${d.name ?? ''} · ${d.model ?? ''} · ${d.serial ?? ''}`}
                </Checkbox>
                <span className={styles.meta}>{d.following ? t('cloud.following') : d.deviceId ? t('cloud.exists') : t('cloud.willCreate')}</span>
              </div>
            ))}
          </section>
        ))}
      </DataState>
    </Modal>
  );
}
