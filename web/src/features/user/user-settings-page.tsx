import Alert from '@arco-design/web-react/es/Alert';
import Tabs from '@arco-design/web-react/es/Tabs';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Tabs/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { type UserInfo, useUser } from '@/lib/auth';
import { useQueryParams } from '@/lib/use-query-params';
import { AvatarUpload } from './avatar-upload';
import { BasicInfo } from './basic-info';
import { Certification } from './certification';
import { SecuritySettings } from './security';
import { accountTexts } from './texts';
import styles from './user-settings-page.module.css';

const TABS = ['basic', 'security', 'certification', 'configuration'] as const;

/** Starts loading the screen's texts as soon as the page's code arrives. */
export function prefetch(): void {
  void accountTexts.ready().catch(() => undefined);
}

function UserSettings({ user, configuration }: { user: UserInfo; configuration: ReactNode }) {
  const { t } = useTranslation();
  const [params, setParams] = useQueryParams();
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? params.get('tab')! : 'basic';
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <AvatarUpload user={user} />
        <div>
          <h1 className={styles.name}>{user.name || user.username}</h1>
          <p className={styles.meta}>
            {[user.organizationName, user.departmentName, user.jobName].filter(Boolean).join(' · ')}
            {Number(user.certification) === 1 && (
              <Tag color="green" size="small" className={styles.certified}>
                {t('account.cert.certified')}
              </Tag>
            )}
          </p>
        </div>
      </header>
      {(params.get('email') === 'verified' || params.get('email') === 'expired') && (
        <Alert
          className={styles.notice}
          type={params.get('email') === 'verified' ? 'success' : 'warning'}
          content={params.get('email') === 'verified' ? t('account.email.verified', { email: user.email }) : t('account.email.expired')}
          closable
          onClose={() =>
            setParams((current) => {
              const next = new URLSearchParams(current);
              next.delete('email');
              return next;
            })
          }
        />
      )}
      <Tabs
        activeTab={tab}
        onChange={(key) =>
          setParams((current) => {
            const next = new URLSearchParams(current);
            next.set('tab', key);
            return next;
          })
        }
      >
        <Tabs.TabPane key="basic" title={t('user.settings.tab.basic')}>
          <BasicInfo key={user.registrationDate + user.name} user={user} />
        </Tabs.TabPane>
        <Tabs.TabPane key="security" title={t('user.settings.tab.security')}>
          <SecuritySettings user={user} />
        </Tabs.TabPane>
        <Tabs.TabPane key="certification" title={t('user.settings.tab.certification')}>
          <Certification />
        </Tabs.TabPane>
        <Tabs.TabPane key="configuration" title={t('user.settings.tab.configuration')}>
          <p className={styles.muted}>{t('account.config.help')}</p>
          {configuration}
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

/**
 * User settings: basic information with the avatar, security, certification and configuration
 * (the settings feature's controls, composed in by the app).
 */
export function UserSettingsPage({ configuration }: { configuration: ReactNode }) {
  const { data, isError, refetch } = useUser();
  const ready = accountTexts.useReady();
  return data && ready ? (
    <UserSettings user={data} configuration={configuration} />
  ) : (
    <DataState loading={!isError} error={isError} onRetry={() => void refetch()} minHeight={320} />
  );
}
