import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form/interface';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import { useTranslation } from 'react-i18next';
import { showFieldErrors } from '@/lib/form-errors';
import { notifyError, notifySuccess } from '@/lib/notify';
import { SAMPLE_FIELDS } from '@/lib/sample-fields';
import { type LineRuleInput, type LineRules, type LineRulesInput, useSaveRules } from './api';
import styles from './line-ingest.module.css';

const COLUMNS = ['measurement', 'deviceTag', 'field', 'target', 'scale'] as const;

/**
 * The organisation's rules, edited as one list and saved at once (the server replaces the whole set).
 * The form holds the body it sends: a rule's scale may be left empty.
 */
export function RulesForm({ form, initial }: { form: FormInstance<LineRulesInput>; initial: LineRules }) {
  const { t } = useTranslation();
  const save = useSaveRules();
  const submit = async () => {
    let values: LineRulesInput;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    const rules: LineRuleInput[] = (values.rules ?? []).map((r) => ({
      ...r,
      measurement: r.measurement.trim(),
      deviceTag: r.deviceTag.trim(),
      field: r.field.trim(),
      scale: r.scale ?? 1,
    }));
    try {
      const saved = await save.mutateAsync({ rules });
      form.setFieldsValue(saved);
      notifySuccess(t('lineIngest.saved'));
    } catch (error) {
      const fields = ['rules', ...rules.flatMap((_, i) => COLUMNS.map((c) => `rules[${i}].${c}`))];
      const rest = showFieldErrors(form, error, fields as never[]);
      if (rest.length > 0 || !(error instanceof Error)) {
        notifyError(rest.join(' ') || String(error));
      }
    }
  };
  const required = { required: true, message: t('lineIngest.required') };
  return (
    <Form form={form} layout="vertical" initialValues={initial} onSubmit={() => void submit()} aria-label={t('lineIngest.rules')} autoComplete="off">
      <Form.List field="rules">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 ? (
              <p className={styles.hint}>{t('lineIngest.noRules')}</p>
            ) : (
              <div role="table" aria-label={t('lineIngest.rules')} className={styles.rules}>
                <div role="row" className={styles.ruleRow}>
                  {COLUMNS.map((c) => (
                    <span role="columnheader" key={c}>
                      {t(`lineIngest.col.${c}`)}
                    </span>
                  ))}
                  <span role="columnheader" className={styles.hidden}>
                    {t('lineIngest.col.actions')}
                  </span>
                </div>
                {fields.map((item, index) => {
                  const label = (c: string) => `${t(`lineIngest.col.${c}`)} ${index + 1}`;
                  return (
                    <div role="row" key={item.key} className={styles.ruleRow}>
                      <div role="cell">
                        <Form.Item field={`${item.field}.measurement`} rules={[required]}>
                          <Input aria-label={label('measurement')} maxLength={128} placeholder="inverter" />
                        </Form.Item>
                      </div>
                      <div role="cell">
                        <Form.Item field={`${item.field}.deviceTag`} rules={[required]}>
                          <Input aria-label={label('deviceTag')} maxLength={128} placeholder="sn" />
                        </Form.Item>
                      </div>
                      <div role="cell">
                        <Form.Item field={`${item.field}.field`} rules={[required]}>
                          <Input aria-label={label('field')} maxLength={128} placeholder="power" />
                        </Form.Item>
                      </div>
                      <div role="cell">
                        <Form.Item field={`${item.field}.target`} rules={[required]}>
                          <Select aria-label={label('target')} options={SAMPLE_FIELDS.map((v) => ({ value: v, label: t(`sampleField.${v}`) }))} />
                        </Form.Item>
                      </div>
                      <div role="cell">
                        <Form.Item field={`${item.field}.scale`}>
                          <InputNumber aria-label={label('scale')} placeholder="1" />
                        </Form.Item>
                      </div>
                      <div role="cell">
                        <Button type="text" status="danger" onClick={() => remove(index)} aria-label={`${t('lineIngest.remove')} ${index + 1}`}>
                          {t('lineIngest.remove')}
                        </Button>
                      </div>
                    </div>
                  );
                })}
              </div>
            )}
            <Button type="dashed" long onClick={() => add({ measurement: '', deviceTag: 'sn', field: '', target: 'powerKw', scale: 1 })}>
              {t('lineIngest.add')}
            </Button>
          </>
        )}
      </Form.List>
      <div className={styles.save}>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('lineIngest.save')}
        </Button>
      </div>
    </Form>
  );
}
