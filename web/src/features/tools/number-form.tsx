import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import styles from './tools.module.css';

export interface NumberField {
  name: string;
  /** Whole numbers only. */
  integer?: boolean;
  step?: number;
}

interface NumberFormProps<T> {
  form: FormInstance<T>;
  fields: readonly NumberField[];
  initialValues: Partial<T>;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: T) => Promise<unknown>;
  /** Controls before the number fields (a station picker). */
  before?: ReactNode;
}

/**
 * A form of required numbers laid out in a grid. The server validates every value: its
 * translated message for a field is shown beside that field, any other message above the form.
 */
export function NumberForm<T extends object>({ form, fields, initialValues, submitLabel, pending, onSubmit, before }: NumberFormProps<T>) {
  const { t } = useTranslation();
  const [other, setOther] = useState<string[]>([]);
  const submit = async () => {
    setOther([]);
    let values: T;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    try {
      await onSubmit(values);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        return;
      }
      const known = new Set(fields.map((field) => field.name));
      const bad: Record<string, { value?: unknown; error: { message: string } }> = {};
      const rest: string[] = [];
      for (const [name, message] of Object.entries(error.fields)) {
        if (known.has(name)) {
          bad[name] = { value: form.getFieldValue(name as keyof T), error: { message } };
        } else {
          rest.push(message);
        }
      }
      form.setFields(bad as never);
      setOther(Object.keys(error.fields).length === 0 ? [error.message] : rest);
    }
  };
  return (
    <Form form={form} layout="vertical" initialValues={initialValues} onSubmit={() => void submit()} autoComplete="off">
      {other.length > 0 && <Alert type="error" content={other.join(' ')} className={styles.alert} />}
      {before}
      <div className={styles.grid}>
        {fields.map((field) => (
          <Form.Item
            key={field.name}
            field={field.name}
            label={t(`tools.field.${field.name}`)}
            rules={[{ required: true, message: t('tools.required') }]}
          >
            <InputNumber
              aria-label={t(`tools.field.${field.name}`)}
              precision={field.integer ? 0 : undefined}
              step={field.step ?? 1}
            />
          </Form.Item>
        ))}
      </div>
      <Button type="primary" htmlType="submit" loading={pending}>
        {submitLabel}
      </Button>
    </Form>
  );
}
