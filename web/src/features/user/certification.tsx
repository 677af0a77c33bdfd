import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Descriptions/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import { LabelledSelect, Option } from '@/components/select';
import { showFieldErrors } from '@/lib/form-errors';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { type CertInput, type CertRecord, useMyCerts, useSubmitCert, useWithdrawCert } from './api/account';
import styles from './user-settings-page.module.css';

const COLORS: Record<CertRecord['status'], string> = { auditing: 'orange', passed: 'green', refused: 'red', withdrawn: 'gray' };
const TEXT_FIELDS = ['legalPerson', 'legalCertNumber', 'enterpriseName', 'organizationCode'] as const;
const FIELDS: (keyof CertInput)[] = ['accountType', 'legalCertType', 'enterpriseCertType', ...TEXT_FIELDS];

/** Enterprise certification: submit for audit, the records, withdraw while auditing. */
export function Certification() {
  const { t } = useTranslation();
  const [form] = Form.useForm<CertInput>();
  const records = useMyCerts();
  const submit = useSubmitCert();
  const withdraw = useWithdrawCert();
  const auditing = (records.data ?? []).some((r) => r.status === 'auditing');
  const [checking, setChecking] = useState<CertRecord | null>(null);
  const send = async () => {
    let values: CertInput;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    try {
      await submit.mutateAsync(values);
      notifySuccess(t('account.cert.submitted'));
    } catch (error) {
      showFieldErrors(form, error, FIELDS);
    }
  };
  const required = [{ required: true, message: t('account.rule.required') }];
  const select = (field: keyof CertInput, options: readonly string[]) => (
    <Form.Item field={field} label={t(`account.cert.${field}`)} rules={required}>
      <LabelledSelect label={t(`account.cert.${field}`)}>
        {options.map((o) => (
          <Option key={o} value={o}>
            {t(`account.cert.${field}.${o}`)}
          </Option>
        ))}
      </LabelledSelect>
    </Form.Item>
  );
  return (
    <div className={styles.stack}>
      <Form
        form={form}
        layout="vertical"
        className={styles.certForm}
        disabled={auditing}
        initialValues={{ accountType: 'enterprise', legalCertType: 'id_card', enterpriseCertType: 'uscc' }}
        onSubmit={() => void send()}
        autoComplete="off"
      >
        {select('accountType', ['enterprise', 'individual'])}
        {TEXT_FIELDS.map((f) => (
          <Form.Item key={f} field={f} label={t(`account.cert.${f}`)} rules={[...required, { maxLength: 100, message: t('account.rule.max', { n: 100 }) }]}>
            <Input aria-label={t(`account.cert.${f}`)} maxLength={100} />
          </Form.Item>
        ))}
        {select('legalCertType', ['id_card', 'passport', 'other'])}
        {select('enterpriseCertType', ['business_license', 'uscc', 'other'])}
        <Button type="primary" htmlType="submit" loading={submit.isPending} disabled={auditing}>
          {t('account.cert.submit')}
        </Button>
        {auditing && <p className={styles.muted}>{t('account.cert.waiting')}</p>}
      </Form>
      <h2 className={styles.sectionTitle}>{t('account.cert.records')}</h2>
      <DataState loading={records.isPending} error={records.isError} empty={(records.data ?? []).length === 0} emptyText={t('account.cert.none')} onRetry={() => void records.refetch()} minHeight={120}>
        <CardTable label={t('account.cert.records')}
          rowKey="id"
          border={false}
          pagination={false}
          data={records.data ?? []}
          columns={[
            { title: t('account.cert.type'), dataIndex: 'accountType', width: 120, render: (v: string) => t(`account.cert.accountType.${v}`) },
            { title: t('account.cert.content'), dataIndex: 'enterpriseName', render: (v: string, r) => `${v} · ${r.organizationCode}` },
            { title: t('account.cert.status'), dataIndex: 'status', width: 110, render: (s: CertRecord['status']) => <Tag color={COLORS[s]}>{t(`account.cert.status.${s}`)}</Tag> },
            { title: t('account.cert.time'), dataIndex: 'createdAt', width: 196, render: (v: string) => zonedTime(v, undefined, currentLocale()).text },
            { title: t('account.cert.reason'), dataIndex: 'reason', width: 160, ellipsis: true, tooltip: true },
            {
              title: t('account.cert.operation'), phone: 'actions',
              dataIndex: 'id',
              width: 110,
              render: (id: number, r) =>
                r.status === 'auditing' ? (
                  <Button size="mini" type="text" status="warning" loading={withdraw.isPending} onClick={() => void withdraw.mutateAsync(id).catch(() => undefined)}>
                    {t('account.cert.withdraw')}
                  </Button>
                ) : (
                  <Button size="mini" type="text" onClick={() => setChecking(r)}>
                    {t('account.cert.check')}
                  </Button>
                ),
            },
          ]}
        />
      </DataState>
      {checking && (
        <Modal visible title={t('account.cert.records')} footer={null} onCancel={() => setChecking(null)} focusLock autoFocus>
          <Descriptions
            column={1}
            colon=":"
            data={[
              { label: t('account.cert.accountType'), value: t(`account.cert.accountType.${checking.accountType}`) },
              { label: t('account.cert.legalPerson'), value: checking.legalPerson },
              { label: t('account.cert.legalCertType'), value: t(`account.cert.legalCertType.${checking.legalCertType}`) },
              { label: t('account.cert.legalCertNumber'), value: checking.legalCertNumber },
              { label: t('account.cert.enterpriseName'), value: checking.enterpriseName },
              { label: t('account.cert.enterpriseCertType'), value: t(`account.cert.enterpriseCertType.${checking.enterpriseCertType}`) },
              { label: t('account.cert.organizationCode'), value: checking.organizationCode },
              { label: t('account.cert.status'), value: t(`account.cert.status.${checking.status}`) },
              { label: t('account.cert.reason'), value: checking.reason || '—' },
              { label: t('account.cert.time'), value: zonedTime(checking.createdAt, undefined, currentLocale()).text },
            ]}
          />
        </Modal>
      )}
    </div>
  );
}
