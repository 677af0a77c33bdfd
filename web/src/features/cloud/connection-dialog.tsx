import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Modal from '@arco-design/web-react/es/Modal';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type Connection, type ConnectionInput, useAddConnection, useEditConnection, VENDOR_NAMES, VENDORS } from './api';

/**
 * Adds a connection, or edits one: name, budget and, only when given, new credentials (the
 * stored ones are never shown; an empty field keeps them).
 */
export function ConnectionDialog({ editing, onClose }: { editing: Connection | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ConnectionInput>();
  const add = useAddConnection();
  const edit = useEditConnection();
  const adding = editing === 'new';
  const current = editing !== 'new' ? editing : null;

  const submit = async () => {
    const values = await form.validate();
    const input: ConnectionInput = { ...values, credentials: values.credentials?.trim() ?? '', dailyBudget: values.dailyBudget ?? 0 };
    try {
      if (adding) {
        await add.mutateAsync(input);
      } else if (current) {
        await edit.mutateAsync({ id: current.id ?? 0, input });
      }
      notifySuccess(t('cloud.saved'));
      onClose();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        form.setFields(Object.fromEntries(Object.entries(err.fields).map(([f, msg]) => [f, { error: { message: msg } }])));
        return;
      }
      notifyError(t('cloud.failed', { reason: err instanceof Error ? err.message : String(err) }));
    }
  };

  return (
    <Modal
      title={adding ? t('cloud.add') : t('cloud.edit')}
      visible={editing !== null}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={add.isPending || edit.isPending}
      unmountOnExit
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={
          current ? { vendor: current.vendor, name: current.name, dailyBudget: current.dailyBudget } : { vendor: 'solaredge', dailyBudget: 0 }
        }
      >
        <Form.Item label={t('cloud.form.vendor')} field="vendor" rules={[{ required: true, message: t('cloud.form.required') }]}>
          <Select disabled={!adding} aria-label={t('cloud.form.vendor')} options={VENDORS.map((v) => ({ value: v, label: VENDOR_NAMES[v] ?? v }))} />
        </Form.Item>
        <Form.Item label={t('cloud.form.name')} field="name" rules={[{ required: true, message: t('cloud.form.required') }]}>
          <Input maxLength={100} aria-label={t('cloud.form.name')} />
        </Form.Item>
        <Form.Item
          label={t('cloud.form.credentials')}
          field="credentials"
          extra={adding ? t('cloud.form.credentialsHint') : t('cloud.form.credentialsKeep')}
          rules={adding ? [{ required: true, message: t('cloud.form.required') }] : []}
        >
          <Input.Password autoComplete="off" aria-label={t('cloud.form.credentials')} />
        </Form.Item>
        <Form.Item label={t('cloud.form.budget')} field="dailyBudget" extra={t('cloud.form.budgetHint')}>
          <InputNumber min={0} max={100000} step={10} aria-label={t('cloud.form.budget')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
