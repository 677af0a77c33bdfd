import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { LabelledSelect, Option } from '@/components/select';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { type Certification, certCalls, useOrgCerts, useOrgWrite } from './api/org';
import styles from './permission.module.css';

export const CERT_COLORS: Record<Certification['status'], string> = {
  auditing: 'orange',
  passed: 'green',
  refused: 'red',
  withdrawn: 'gray',
};

/** The organisation's certification records; an auditing one is passed or refused with a reason. */
export function CertReview() {
  const { t } = useTranslation();
  const [status, setStatus] = useState('auditing');
  const certs = useOrgCerts(status);
  const pass = useOrgWrite(certCalls.pass);
  const refuse = useOrgWrite(certCalls.refuse);
  const [refusing, setRefusing] = useState<Certification | null>(null);
  const [reason, setReason] = useState('');

  const columns: FitColumn<Certification>[] = [
    { title: t('org.cert.time'), dataIndex: 'createdAt', width: 196, render: (v: string) => zonedTime(v, undefined, currentLocale()).text },
    { title: t('org.log.user'), dataIndex: 'username', width: 120 },
    { title: t('org.cert.enterprise'), dataIndex: 'enterpriseName', width: 200, ellipsis: true, tooltip: true },
    { title: t('org.cert.code'), dataIndex: 'organizationCode', width: 190 },
    { title: t('org.cert.legalPerson'), dataIndex: 'legalPerson', width: 130, ellipsis: true, tooltip: true },
    {
      title: t('org.cert.status'),
      dataIndex: 'status',
      width: 110,
      render: (s: Certification['status']) => <Tag color={CERT_COLORS[s]}>{t(`org.cert.${s}`)}</Tag>,
    },
    { title: t('org.cert.reason'), dataIndex: 'reason', width: 180, ellipsis: true, tooltip: true },
    {
      title: t('org.actions'), phone: 'actions',
      dataIndex: 'id',
      width: 150,
      // pass and refuse stay in sight at 1280 px, the other columns scroll under them
      fixed: 'right',
      render: (id: number, c) =>
        c.status === 'auditing' && (
          <span className={styles.actions}>
            <Button
              size="mini"
              type="text"
              onClick={() => void pass.mutateAsync(id).then(() => notifySuccess(t('org.cert.passed')), () => undefined)}
            >
              {t('org.cert.pass')}
            </Button>
            <Button size="mini" type="text" status="danger" onClick={() => setRefusing(c)}>
              {t('org.cert.refuse')}
            </Button>
          </span>
        ),
    },
  ];
  const rows = certs.data ?? [];
  return (
    <section aria-label={t('org.tab.cert')}>
      <div className={styles.filters}>
        <LabelledSelect label={t('org.cert.status')} className={styles.select} value={status} onChange={setStatus}>
          <Option value="">{t('org.allStatuses')}</Option>
          {(['auditing', 'passed', 'refused', 'withdrawn'] as const).map((s) => (
            <Option key={s} value={s}>
              {t(`org.cert.${s}`)}
            </Option>
          ))}
        </LabelledSelect>
      </div>
      <DataState
        loading={certs.isPending}
        error={certs.isError}
        empty={rows.length === 0}
        emptyText={t('org.cert.empty')}
        onRetry={() => void certs.refetch()}
        minHeight={200}
      >
        <CardTable label={t('org.tab.cert')} rowKey="id" columns={columns} data={rows} pagination={{ pageSize: 10 }} scroll={{ x: 1250 }} border={false} />
      </DataState>
      {refusing && (
        <Modal
          visible
          title={t('org.cert.refuseOf', { name: refusing.enterpriseName })}
          okText={t('org.cert.refuse')}
          cancelText={t('org.cancel')}
          okButtonProps={{ status: 'danger', disabled: reason.trim() === '' }}
          confirmLoading={refuse.isPending}
          onCancel={() => setRefusing(null)}
          onOk={() =>
            void refuse.mutateAsync({ id: refusing.id, reason: reason.trim() }).then(() => {
              notifySuccess(t('org.cert.refused'));
              setRefusing(null);
              setReason('');
            }, () => undefined)
          }
        >
          <Input.TextArea
            aria-label={t('org.cert.reason')}
            placeholder={t('org.cert.reason')}
            maxLength={200}
            showWordLimit
            value={reason}
            onChange={setReason}
          />
        </Modal>
      )}
    </section>
  );
}
