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
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fieldErrorsShown } from '@/lib/form-errors';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type Connection, credentialsOf, useAddConnection, useEditConnection, vendorsQuery } from './api';

interface Values {
  vendor: string;
  name: string;
  dailyBudget?: number;
  cred?: Record<string, string | undefined>;
}

/**
 * Adds a connection, or edits one: name, budget and, only when given, new credentials (the
 * stored ones are never shown; empty fields keep them). The credential fields are the
 * vendor's, as the server lists them.
 */
export function ConnectionDialog({ editing, onClose }: { editing: Connection | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const vendors = useQuery(vendorsQuery);
  const add = useAddConnection();
  const edit = useEditConnection();
  const adding = editing === 'new';
  const current = editing !== 'new' ? editing : null;
  const chosen: string = Form.useWatch('vendor', form) ?? current?.vendor ?? 'solaredge';
  const vendor = vendors.data?.find((v) => v.name === chosen);
  const fields = vendor?.fields ?? [];

  const submit = async () => {
    const values = await form.validate();
    const input = {
      vendor: values.vendor,
      name: values.name,
      credentials: credentialsOf(fields, values.cred ?? {}),
      dailyBudget: values.dailyBudget ?? 0,
    };
    try {
      if (adding) {
        await add.mutateAsync(input);
      } else if (current) {
        await edit.mutateAsync({ id: current.id ?? 0, input });
      }
      notifySuccess(t('cloud.saved'));
      onClose();
    } catch (err) {
      // "credentials.appKey" is that field's box; "credentials" alone the first one
      const box = (f: string) => (f === 'credentials' ? `cred.${fields[0]?.key ?? ''}` : f.startsWith('credentials.') ? `cred.${f.slice(12)}` : f);
      if (fieldErrorsShown(form, err, box)) {
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
          <Select
            disabled={!adding}
            loading={vendors.isPending}
            aria-label={t('cloud.form.vendor')}
            options={(vendors.data ?? []).map((v) => ({ value: v.name ?? '', label: v.label ?? v.name }))}
          />
        </Form.Item>
        <Form.Item label={t('cloud.form.name')} field="name" rules={[{ required: true, message: t('cloud.form.required') }]}>
          <Input maxLength={100} aria-label={t('cloud.form.name')} />
        </Form.Item>
        {fields.map((f, i) => {
          // a vendor's own label first (two vendors' "host" are different things), then the shared one
          const label = t([`cloud.field.${chosen}.${f.key}`, `cloud.field.${f.key}`], { defaultValue: f.key });
          const last = i === fields.length - 1;
          const hint = adding ? t('cloud.form.credentialsHint') : t('cloud.form.credentialsKeep');
          return (
            <Form.Item
              key={`${chosen}.${f.key}`}
              label={label}
              field={`cred.${f.key}`}
              extra={last ? hint : undefined}
              rules={adding && !f.optional ? [{ required: true, message: t('cloud.form.required') }] : []}
            >
              {f.secret ? <Input.Password autoComplete="off" aria-label={label} /> : <Input autoComplete="off" aria-label={label} />}
            </Form.Item>
          );
        })}
        <Form.Item
          label={t('cloud.form.budget')}
          field="dailyBudget"
          extra={t('cloud.form.budgetHint', { vendor: vendor?.label ?? chosen, budget: vendor?.defaultBudget ?? 0 })}
        >
          <InputNumber min={0} max={100000} step={10} aria-label={t('cloud.form.budget')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
