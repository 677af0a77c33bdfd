import Tabs from '@arco-design/web-react/es/Tabs';
import '@arco-design/web-react/es/Tabs/style/css.js';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { useListFilters } from '@/components/list/use-list-filters';
import { PageHeader } from '@/components/panel';
import { useRole } from '@/lib/auth';
import { AlarmDetailDrawer } from './alarm-detail';
import { AlarmList } from './alarm-list';
import { AlarmRules } from './alarm-rules';
import styles from './alarm.module.css';
import { parseFilters } from './api/alarms';
import { NotifySettingsForm } from './notify-settings';
import { alarmTexts } from './texts';
import { useAlarmPush } from './use-alarm-push';

export type AlarmTab = 'list' | 'settings' | 'rules';

/** The tab the address names; the rules tab is for administrators only. */
export function tabOf(params: URLSearchParams, isAdmin: boolean): AlarmTab {
  const tab = params.get('tab');
  if (tab === 'settings') {
    return 'settings';
  }
  if (tab === 'rules' && isAdmin) {
    return 'rules';
  }
  return 'list';
}

/** The address keys of the list's filters. */
const FILTER_KEYS = ['stationId', 'dealStatus', 'alarmStatus', 'level', 'type', 'deviceType', 'from', 'to', 'page', 'pageSize'];

/** Starts loading the screen's texts as soon as the page's code arrives. */
export function prefetch(): void {
  void alarmTexts.ready().catch(() => undefined);
}

/**
 * Alarms: today's figures, the filtered list (filters, page and open alarm kept in the address),
 * alarm details and dealing, the user's notification settings and, for administrators, the
 * organisation's rules. The list follows the live push.
 */
export function AlarmPage() {
  const { t } = useTranslation();
  const ready = alarmTexts.useReady();
  const isAdmin = useRole() === 'admin';
  const { params, setParams, filters, update, reset } = useListFilters(parseFilters, FILTER_KEYS);
  const tab = tabOf(params, isAdmin);
  const detail = Number(params.get('detail'));
  const detailId = Number.isInteger(detail) && detail > 0 ? detail : undefined;
  useAlarmPush();

  const change = useCallback(
    (edit: (next: URLSearchParams) => void) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        edit(next);
        return next;
      }),
    [setParams],
  );

  return (
    <>
      <PageHeader title={t('menu.alarm')} />
      {!ready ? (
        <DataState loading minHeight={320} />
      ) : (
        <div className={styles.page}>
          <Tabs
            activeTab={tab}
            onChange={(key) =>
              change((next) => {
                if (key === 'list') {
                  next.delete('tab');
                } else {
                  next.set('tab', key);
                }
              })
            }
          >
            <Tabs.TabPane key="list" title={t('alarm.tab.list')}>
              <AlarmList
                filters={filters}
                onFilters={update}
                onReset={reset}
                onOpen={(id) => change((next) => next.set('detail', String(id)))}
              />
            </Tabs.TabPane>
            <Tabs.TabPane key="settings" title={t('alarm.tab.settings')}>
              <NotifySettingsForm />
            </Tabs.TabPane>
            {isAdmin && (
              <Tabs.TabPane key="rules" title={t('alarm.tab.rules')}>
                <AlarmRules />
              </Tabs.TabPane>
            )}
          </Tabs>
          <AlarmDetailDrawer id={detailId} onClose={() => change((next) => next.delete('detail'))} />
        </div>
      )}
    </>
  );
}
