import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Modal from '@arco-design/web-react/es/Modal';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsShown } from '@/lib/form-errors';
import { notifyError } from '@/lib/notify';
import { type MapRule, type MapRuleInput, SAMPLE_FIELDS, useSaveRule } from './api';
import styles from './ingest-mqtt.module.css';

const EMPTY: MapRuleInput = { name: '', topic: '', device: '{serial}', fields: [{ path: '', field: 'powerKw', scale: 0.001 }] };

/**
 * Adds a rule, or edits `rule`. The server checks the rule; its field errors (topic, device,
 * fields[i].path…) are shown at the fields they name.
 */
export function RuleDialog({ rule, visible, onClose }: { rule: MapRule | null; visible: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<MapRuleInput>();
  const save = useSaveRule();

  useEffect(() => {
    if (visible) {
      form.setFieldsValue(rule ? { name: rule.name, topic: rule.topic, device: rule.device, fields: rule.fields } : EMPTY);
    }
  }, [visible, rule, form]);

  const submit = async () => {
    const values = await form.validate();
    try {
      await save.mutateAsync({ id: rule?.id ?? 0, rule: { ...values, fields: values.fields ?? [] } });
      onClose();
    } catch (err) {
      if (fieldErrorsShown(form, err)) {
        return;
      }
      notifyError(t('ingestMqtt.failed', { reason: err instanceof Error ? err.message : String(err) }));
    }
  };

  return (
    <Modal
      title={rule ? t('ingestMqtt.rule.edit') : t('ingestMqtt.rule.add')}
      visible={visible}
      onOk={submit}
      onCancel={onClose}
      okText={t('ingestMqtt.save')}
      confirmLoading={save.isPending}
      style={{ width: 720 }}
      unmountOnExit
    >
      <Form form={form} layout="vertical" initialValues={EMPTY}>
        <Form.Item label={t('ingestMqtt.col.name')} field="name">
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item label={t('ingestMqtt.col.topic')} field="topic" extra={t('ingestMqtt.form.topicHelp')} rules={[{ required: true, message: t('ingestMqtt.form.required') }]}>
          <Input placeholder="solar/{serial}/0/power" />
        </Form.Item>
        <Form.Item label={t('ingestMqtt.col.device')} field="device" extra={t('ingestMqtt.form.deviceHelp')} rules={[{ required: true, message: t('ingestMqtt.form.required') }]}>
          <Input placeholder="{serial}" />
        </Form.Item>
        <Form.List field="fields">
          {(items, { add, remove }) => (
            <div>
              <div className={styles.fieldsHead}>{t('ingestMqtt.col.fields')}</div>
              {items.map((item, i) => (
                <div key={item.key} className={styles.fieldRow}>
                  <Form.Item field={`${item.field}.path`} label={i === 0 ? t('ingestMqtt.form.path') : undefined}>
                    <Input placeholder={t('ingestMqtt.form.pathPlaceholder')} />
                  </Form.Item>
                  <Form.Item field={`${item.field}.field`} label={i === 0 ? t('ingestMqtt.form.field') : undefined}>
                    <Select options={SAMPLE_FIELDS.map((f) => ({ label: t(`sampleField.${f}`), value: f }))} />
                  </Form.Item>
                  <Form.Item field={`${item.field}.scale`} label={i === 0 ? t('ingestMqtt.form.scale') : undefined}>
                    <InputNumber step={0.001} />
                  </Form.Item>
                  <Button icon={<IconDelete />} aria-label={t('ingestMqtt.form.removeField')} onClick={() => remove(i)} />
                </div>
              ))}
              {items.length < 12 && (
                <Button size="small" icon={<IconPlus />} onClick={() => add({ path: '', field: 'energyKwh', scale: 1 })}>
                  {t('ingestMqtt.form.addField')}
                </Button>
              )}
            </div>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
