import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Radio/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsShown } from '@/lib/form-errors';
import { notifyError } from '@/lib/notify';
import { type IssuedKey, KEY_KINDS, type KeyKind, type KeyRequest, useDeviceSearch, useIssueKey } from './api';
import styles from './ingest-keys.module.css';

const SN_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

interface IssueValues {
  kind: KeyKind;
  deviceId?: number;
  collectorSn?: string;
}

/** Issues a device or collector key (rotating any key it had), then hands the key over. */
export function IssueDialog({ visible, onClose, onIssued }: { visible: boolean; onClose: () => void; onIssued: (k: IssuedKey) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<IssueValues>();
  const [kind, setKind] = useState<KeyKind>('device');
  const [search, setSearch] = useState('');
  const devices = useDeviceSearch(search);
  const issue = useIssueKey();

  const submit = async () => {
    const values = await form.validate();
    const req: KeyRequest =
      values.kind === 'device' ? { kind: 'device', deviceId: values.deviceId } : { kind: 'collector', collectorSn: values.collectorSn?.trim() };
    try {
      const issued = await issue.mutateAsync(req);
      form.resetFields();
      onIssued(issued);
    } catch (err) {
      if (fieldErrorsShown(form, err)) {
        return;
      }
      notifyError(t('ingestKeys.failed', { reason: err instanceof Error ? err.message : String(err) }));
    }
  };

  return (
    <Modal title={t('ingestKeys.issue')} visible={visible} onOk={submit} onCancel={onClose} confirmLoading={issue.isPending} unmountOnExit>
      <Form form={form} layout="vertical" initialValues={{ kind: 'device' }} onValuesChange={(v) => v.kind && setKind(v.kind)}>
        <Form.Item label={t('ingestKeys.form.kind')} field="kind">
          <Radio.Group aria-label={t('ingestKeys.form.kind')}>
            {KEY_KINDS.map((k) => (
              <Radio key={k} value={k}>
                {t(`ingestKeys.kind.${k}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        {kind === 'device' ? (
          <Form.Item label={t('ingestKeys.form.device')} field="deviceId" rules={[{ required: true, message: t('ingestKeys.form.required') }]}>
            <Select
              showSearch
              allowClear
              filterOption={false}
              onSearch={setSearch}
              loading={devices.isFetching}
              placeholder={t('ingestKeys.form.devicePlaceholder')}
              aria-label={t('ingestKeys.form.device')}
              options={(devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} · ${d.sn} · ${d.stationName}` }))}
            />
          </Form.Item>
        ) : (
          <Form.Item
            label={t('ingestKeys.form.collector')}
            field="collectorSn"
            rules={[
              { required: true, message: t('ingestKeys.form.required') },
              { match: SN_RE, message: t('ingestKeys.form.snFormat') },
            ]}
          >
            <Input maxLength={64} aria-label={t('ingestKeys.form.collector')} />
          </Form.Item>
        )}
        <Alert type="warning" content={t('ingestKeys.form.rotateWarning')} />
      </Form>
    </Modal>
  );
}

/** Shows a freshly issued key, the only time it is shown. */
export function ShownKeyDialog({ issued, onClose }: { issued: IssuedKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(issued?.key ?? '');
    setCopied(true);
  };
  return (
    <Modal
      title={t('ingestKeys.shown.title')}
      visible={issued !== null}
      closable={false}
      maskClosable={false}
      onCancel={onClose}
      afterClose={() => setCopied(false)}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('ingestKeys.shown.done')}
        </Button>
      }
    >
      <Alert type="warning" content={t('ingestKeys.shown.text', { target: issued?.target ?? '' })} />
      <div className={styles.shownKey}>
        <code data-testid="issued-key">{issued?.key}</code>
        <Button size="small" onClick={() => void copy()}>
          {copied ? t('ingestKeys.shown.copied') : t('ingestKeys.shown.copy')}
        </Button>
      </div>
    </Modal>
  );
}
