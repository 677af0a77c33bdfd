import Alert from '@arco-design/web-react/es/Alert';
import Avatar from '@arco-design/web-react/es/Avatar';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Tabs from '@arco-design/web-react/es/Tabs';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Avatar/style/css.js';
import '@arco-design/web-react/es/Descriptions/style/css.js';
import '@arco-design/web-react/es/Tabs/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '@/components/page-loading';
import { type UserInfo, useUser } from '@/lib/auth';
import { formatDateTime } from '@/lib/format';
import { LOCALES } from '@/lib/i18n';
import styles from './user-settings-page.module.css';

interface Row {
  label: string;
  value: ReactNode;
}

function useRows(user: UserInfo) {
  const { t, i18n } = useTranslation();
  const shown = (value: unknown): ReactNode =>
    value === undefined || value === null || value === '' ? (
      <span className={styles.muted}>{t('common.notSet')}</span>
    ) : (
      String(value)
    );
  const theme = document.body.getAttribute('arco-theme') === 'dark' ? 'dark' : 'light';
  const language = LOCALES.find((locale) => locale.value === i18n.language)?.label ?? i18n.language;

  const basic: Row[] = [
    { label: t('user.field.username'), value: shown(user.username) },
    { label: t('user.field.name'), value: shown(user.name) },
    { label: t('user.field.email'), value: shown(user.email) },
    { label: t('user.field.phone'), value: shown(user.phone) },
    { label: t('user.field.organization'), value: shown(user.organizationName) },
    { label: t('user.field.department'), value: shown(user.departmentName) },
    { label: t('user.field.job'), value: shown(user.jobName) },
    { label: t('user.field.location'), value: shown(user.locationName) },
    { label: t('user.field.website'), value: shown(user.personalWebsite) },
    { label: t('user.field.accountId'), value: shown(user.accountId) },
    { label: t('user.field.registrationDate'), value: shown(formatDateTime(user.registrationDate)) },
    { label: t('user.field.role'), value: <Tag color="arcoblue">{t(`role.${user.role}`)}</Tag> },
    {
      label: t('user.field.stationAuthority'),
      value: shown(user.stationAuthority && t(`user.stationAuthority.${user.stationAuthority}`)),
    },
    { label: t('user.field.introduction'), value: shown(user.introduction) },
  ];
  const security: Row[] = [
    { label: t('user.field.password'), value: t('user.field.password.value') },
    { label: t('user.field.securityPhone'), value: shown(user.phone) },
    { label: t('user.field.securityEmail'), value: shown(user.email) },
  ];
  const certification: Row[] = [
    { label: t('user.field.certification'), value: shown(user.certification) },
  ];
  const configuration: Row[] = [
    { label: t('user.field.language'), value: language },
    { label: t('user.field.theme'), value: t(`theme.${theme}`) },
  ];
  return { basic, security, certification, configuration };
}

function RowList({ rows }: { rows: Row[] }) {
  return (
    <Descriptions
      column={1}
      colon=":"
      labelStyle={{ width: 160 }}
      data={rows.map((row) => ({ label: row.label, value: row.value }))}
    />
  );
}

function UserSettings({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const rows = useRows(user);
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Avatar size={64}>
          {user.avatar ? <img src={user.avatar} alt="" /> : (user.name || user.username).slice(0, 1)}
        </Avatar>
        <div>
          <h1 className={styles.name}>{user.name || user.username}</h1>
          <p className={styles.meta}>
            {[user.organizationName, user.departmentName, user.jobName].filter(Boolean).join(' · ')}
          </p>
        </div>
      </header>
      <Alert type="info" className={styles.note} content={t('user.settings.readonly')} />
      <Tabs defaultActiveTab="basic">
        <Tabs.TabPane key="basic" title={t('user.settings.tab.basic')}>
          <RowList rows={rows.basic} />
        </Tabs.TabPane>
        <Tabs.TabPane key="security" title={t('user.settings.tab.security')}>
          <RowList rows={rows.security} />
        </Tabs.TabPane>
        <Tabs.TabPane key="certification" title={t('user.settings.tab.certification')}>
          <RowList rows={rows.certification} />
        </Tabs.TabPane>
        <Tabs.TabPane key="configuration" title={t('user.settings.tab.configuration')}>
          <RowList rows={rows.configuration} />
        </Tabs.TabPane>
      </Tabs>
    </div>
  );
}

/** User settings: the signed-in user's own record, read-only until editing lands. */
export function UserSettingsPage() {
  const { data } = useUser();
  return data ? <UserSettings user={data} /> : <PageLoading />;
}
