import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import { typedApi } from '@/lib/api-typed';
import { ORG_KEY, useRoles } from './api/org';
import styles from './permission.module.css';


/** What each role may do, with member counts; and account cancellation (SPEC.md section 6). */
export function RolesPanel() {
  const { t } = useTranslation();
  const roles = useRoles();
  const left = useQuery({
    queryKey: [ORG_KEY, 'cancel'],
    queryFn: ({ signal }) => typedApi.get('/v2/org/account/cancel', undefined, { signal }),
  });
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const empty = left.data && left.data.departments + left.data.members + left.data.stations === 0;
  const cancel = async () => {
    setBusy(true);
    try {
      await typedApi.post('/v2/org/account/cancel', { body: { password } });
      window.location.reload();
    } catch {
      // the request layer said why
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={styles.roles}>
      <DataState loading={roles.isPending} error={roles.isError} onRetry={() => void roles.refetch()} minHeight={120}>
        <CardTable
          label={t('org.tab.roles')}
          rowKey="key"
          pagination={false}
          border={false}
          data={roles.data ?? []}
          columns={[
            { title: t('org.user.role'), dataIndex: 'key', width: 210, render: (k: string) => t(`org.role.${k}`) },
            { title: t('org.role.rights'), dataIndex: 'key', width: 360, render: (k: string) => t(`org.role.${k}.rights`) },
            { title: t('org.role.members'), dataIndex: 'members', width: 120 },
          ]}
        />
      </DataState>
      <section className={styles.cancel} aria-label={t('org.cancelAccount.title')}>
        <h2 className={styles.panelTitle}>{t('org.cancelAccount.title')}</h2>
        <p className={styles.muted}>{t('org.cancelAccount.rule')}</p>
        {left.data && !empty && (
          <Alert type="info" content={t('org.cancelAccount.left', { ...left.data })} style={{ marginBottom: 12 }} />
        )}
        <div className={styles.filters}>
          <Input.Password
            aria-label={t('org.cancelAccount.password')}
            placeholder={t('org.cancelAccount.password')}
            className={styles.keyword}
            value={password}
            onChange={setPassword}
            disabled={!empty}
          />
          <Button status="danger" type="primary" disabled={!empty || password === ''} loading={busy} onClick={() => void cancel()}>
            {t('org.cancelAccount.action')}
          </Button>
        </div>
      </section>
    </div>
  );
}
