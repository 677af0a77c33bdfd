import Tabs from '@arco-design/web-react/es/Tabs';
import '@arco-design/web-react/es/Tabs/style/css.js';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { PageHeader } from '@/components/panel';
import { useRole } from '@/lib/auth';
import { useQueryParams } from '@/lib/use-query-params';
import { DeviceDebug } from './device-debug';
import { RegisterMaps } from './register-maps';
import { debugTexts } from './texts';

/** Starts loading the screen's texts as soon as the page's code arrives. */
export function prefetch(): void {
  void debugTexts.ready().catch(() => undefined);
}

/**
 * Remote debugging: pick a field device, watch its registers live (raw and decoded), the poller's
 * last errors and latency; administrators connect devices, write writable registers (confirmed,
 * audited) and manage the register maps. The device and tab are kept in the address.
 */
export function DebugPage() {
  const { t } = useTranslation();
  const ready = debugTexts.useReady();
  const isAdmin = useRole() === 'admin';
  const [params, setParams] = useQueryParams();
  const tab = params.get('tab') === 'maps' ? 'maps' : 'device';
  const picked = Number(params.get('device'));
  const deviceId = Number.isInteger(picked) && picked > 0 ? picked : undefined;

  const set = (key: string, value: string | undefined) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value === undefined) {
        next.delete(key);
      } else {
        next.set(key, value);
      }
      return next;
    });

  if (!ready) {
    return <DataState loading minHeight={240} />;
  }
  return (
    <>
      <PageHeader title={t('menu.debug')} />
      <Tabs activeTab={tab} onChange={(key) => set('tab', key === 'maps' ? 'maps' : undefined)}>
        <Tabs.TabPane key="device" title={t('debug.tab.device')}>
          <DeviceDebug deviceId={deviceId} isAdmin={isAdmin} onPick={(id) => set('device', id ? String(id) : undefined)} />
        </Tabs.TabPane>
        <Tabs.TabPane key="maps" title={t('debug.tab.maps')}>
          <RegisterMaps isAdmin={isAdmin} />
        </Tabs.TabPane>
      </Tabs>
    </>
  );
}
