import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import '@arco-design/web-react/es/Switch/style/css.js';
import { useTranslation } from 'react-i18next';
import { fieldErrorsShown } from '@/lib/form-errors';
import { currentLocale, LOCALES } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { EVENTS, FORMATS, formatLabel, useAddWebhook, useEditWebhook, type Webhook, type WebhookInput } from './api';

interface Values {
  name: string;
  url: string;
  format: string;
  events: string[];
  language: string;
  enabled: boolean;
  rotateSecret?: boolean;
}

/**
 * Adds a webhook, or edits one. The signing secret is made by the server and shown once
 * (onSecret), when the webhook is added or its secret rotated.
 */
export function WebhookDialog({
  editing,
  onClose,
  onSecret,
}: {
  editing: Webhook | 'new' | null;
  onClose: () => void;
  onSecret: (name: string, secret: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const add = useAddWebhook();
  const edit = useEditWebhook();
  const adding = editing === 'new';
  const current = editing !== 'new' ? editing : null;
  const required = { required: true, message: t('webhook.form.required') };

  const submit = async () => {
    const v = await form.validate();
    const input: WebhookInput = {
      name: v.name,
      url: v.url,
      format: v.format,
      events: v.events,
      language: v.language,
      enabled: v.enabled,
      rotateSecret: !!v.rotateSecret,
    };
    try {
      const saved = adding ? await add.mutateAsync(input) : current ? await edit.mutateAsync({ id: current.id ?? 0, input }) : null;
      notifySuccess(t('webhook.saved'));
      onClose();
      if (saved?.secret) {
        onSecret(saved.name ?? v.name, saved.secret);
      }
    } catch (err) {
      if (fieldErrorsShown(form, err)) {
        return;
      }
      notifyError(t('webhook.failed', { reason: err instanceof Error ? err.message : String(err) }));
    }
  };

  return (
    <Modal
      title={adding ? t('webhook.add') : t('webhook.edit')}
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
          current
            ? { name: current.name, url: current.url, format: current.format, events: current.events ?? [], language: current.language, enabled: current.enabled }
            : { format: 'helio', events: ['alarm.raised', 'alarm.recovered'], language: currentLocale(), enabled: true }
        }
      >
        <Form.Item label={t('webhook.form.name')} field="name" rules={[required]}>
          <Input maxLength={100} aria-label={t('webhook.form.name')} />
        </Form.Item>
        <Form.Item label={t('webhook.form.url')} field="url" rules={[required]} extra={t('webhook.form.urlHint')}>
          <Input maxLength={2000} placeholder="https://" aria-label={t('webhook.form.url')} />
        </Form.Item>
        <Form.Item label={t('webhook.form.format')} field="format" rules={[required]} extra={t('webhook.form.formatHint')}>
          <Select aria-label={t('webhook.form.format')} options={FORMATS.map((f) => ({ value: f, label: formatLabel(f, t) }))} />
        </Form.Item>
        <Form.Item label={t('webhook.form.events')} field="events" rules={[{ required: true, type: 'array', minLength: 1, message: t('webhook.form.eventsRequired') }]}>
          <Checkbox.Group aria-label={t('webhook.form.events')} direction="vertical" options={EVENTS.map((e) => ({ value: e, label: t(`webhook.event.${e}`) }))} />
        </Form.Item>
        <Form.Item label={t('webhook.form.language')} field="language" rules={[required]}>
          <Select aria-label={t('webhook.form.language')} options={LOCALES.map((l) => ({ value: l.value, label: l.label }))} />
        </Form.Item>
        <Form.Item label={t('webhook.form.enabled')} field="enabled" triggerPropName="checked">
          <Switch aria-label={t('webhook.form.enabled')} />
        </Form.Item>
        {!adding && (
          <Form.Item field="rotateSecret" triggerPropName="checked" extra={t('webhook.form.rotateHint')}>
            <Checkbox>{t('webhook.form.rotate')}</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
