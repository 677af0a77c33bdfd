import Tabs from '@arco-design/web-react/es/Tabs';
import '@arco-design/web-react/es/Tabs/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { PageHeader } from '@/components/panel';
import { useQueryParams } from '@/lib/use-query-params';
import { CertReview } from './cert-review';
import { DeptTree } from './dept-tree';
import { MoneyPanel } from './money-panel';
import styles from './permission.module.css';
import { RolesPanel } from './roles-panel';
import { SettingsPanel } from './settings-panel';
import { SysLogPanel } from './syslog-panel';
import { orgTexts } from './texts';
import { UserTable } from './user-table';

const TABS = ['org', 'roles', 'cert', 'log', 'settings'] as const;
type Tab = (typeof TABS)[number];

/** Starts loading the screen's texts as soon as the page's code arrives. */
export function prefetch(): void {
  void orgTexts.ready().catch(() => undefined);
}

/**
 * The organisation (administrators): departments with their station grants and members, roles
 * and account cancellation, certification review, the system log, and the organisation's name and time zone.
 */
export function PermissionPage() {
  const { t } = useTranslation();
  const ready = orgTexts.useReady();
  const [params, setParams] = useQueryParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'org';
  const [dept, setDept] = useState<number | undefined>();
  return (
    <>
      <PageHeader title={t('menu.permission')} />
      {!ready ? (
        <DataState loading minHeight={320} />
      ) : (
        <div className={styles.page}>
          <Tabs
            activeTab={tab}
            onChange={(key) =>
              setParams((current) => {
                const next = new URLSearchParams(current);
                if (key === 'org') {
                  next.delete('tab');
                } else {
                  next.set('tab', key);
                }
                return next;
              })
            }
          >
            <Tabs.TabPane key="org" title={t('org.tab.org')}>
              <div className={styles.org}>
                <DeptTree selected={dept} onSelect={setDept} />
                <UserTable deptId={dept} />
              </div>
            </Tabs.TabPane>
            <Tabs.TabPane key="roles" title={t('org.tab.roles')}>
              <RolesPanel />
            </Tabs.TabPane>
            <Tabs.TabPane key="cert" title={t('org.tab.cert')}>
              <CertReview />
            </Tabs.TabPane>
            <Tabs.TabPane key="log" title={t('org.tab.log')}>
              <SysLogPanel />
            </Tabs.TabPane>
            <Tabs.TabPane key="settings" title={t('org.tab.settings')}>
              <SettingsPanel />
              <MoneyPanel />
            </Tabs.TabPane>
          </Tabs>
        </div>
      )}
    </>
  );
}
