import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Form from '@arco-design/web-react/es/Form';
import '@arco-design/web-react/es/Form/style/css.js';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import Switch from '@arco-design/web-react/es/Switch';
import '@arco-design/web-react/es/Switch/style/css.js';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DayPicker } from '@/components/date-pickers';
import { LabelledSelect, Option } from '@/components/select';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { ApiError } from '@/lib/api-client';
import { STATION_TYPES, SYSTEM_TYPES, type StationInput, type Tag } from './api/types';
import { CoverUpload } from './cover-upload';
import { stationRules } from './station-form-rules';
import styles from './station.module.css';

export type StationFormValues = Omit<StationInput, 'combineStatus' | 'gridStatus'> & {
  combineStatus: boolean;
  gridStatus: boolean;
};


export function toInput(values: StationFormValues, parentId: number): StationInput {
  return {
    ...values,
    parentId,
    country: (values.country ?? '').toUpperCase(),
    currency: (values.currency ?? '').toUpperCase(),
    combineStatus: values.combineStatus ? 1 : 0,
    gridStatus: values.gridStatus ? 1 : 0,
    lat: values.lat ?? 0,
    lng: values.lng ?? 0,
    azimuth: values.azimuth ?? 0,
    inclination: values.inclination ?? 0,
    pricePerKwh: values.pricePerKwh ?? 0,
    subsidyPerKwh: values.subsidyPerKwh ?? 0,
    totalCost: values.totalCost ?? 0,
    dailyRepayment: values.dailyRepayment ?? 0,
    buildDate: values.buildDate ?? '',
    combineDate: values.combineDate ?? '',
    gridDate: values.gridDate ?? '',
    tagIds: values.tagIds ?? [],
  };
}

interface StationFormProps {
  initialValues: Partial<StationFormValues>;
  parentId: number;
  tags: readonly Tag[];
  submitting?: boolean;
  onSubmit: (input: StationInput) => Promise<unknown>;
  onCancel: () => void;
}

/**
 * The station add and edit form. Client rules first; the server's per-field messages of a 400
 * (data.fields) are then shown on their fields.
 */
export function StationForm({ initialValues, parentId, tags, submitting, onSubmit, onCancel }: StationFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<StationFormValues>();
  const rules = useMemo(() => stationRules(t), [t]);
  const [serverError, setServerError] = useState<string>();

  const label = (field: string) => t(`station.field.${field}`);
  const submit = async (values: StationFormValues) => {
    setServerError(undefined);
    try {
      await onSubmit(toInput(values, parentId));
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        const known = Object.keys(form.getFieldsValue());
        const fields: Record<string, { value: unknown; error: { message: string } }> = {};
        for (const [field, message] of Object.entries(error.fields)) {
          if (known.includes(field)) {
            fields[field] = { value: form.getFieldValue(field as keyof StationFormValues), error: { message } };
          }
        }
        form.setFields(fields);
        const unknown = Object.entries(error.fields).filter(([field]) => !known.includes(field));
        if (unknown.length > 0) {
          setServerError(unknown.map(([field, message]) => `${field}: ${message}`).join('; '));
        }
      }
    }
  };

  const text = (field: keyof StationFormValues, extra: { placeholder?: string } = {}) => (
    <Form.Item label={label(field)} field={field} rules={rules[field]}>
      <Input placeholder={extra.placeholder} />
    </Form.Item>
  );
  const number = (field: keyof StationFormValues, unit?: string, precision?: number) => (
    <Form.Item label={label(field)} field={field} rules={rules[field]}>
      <InputNumber suffix={unit} precision={precision} style={{ width: '100%' }} />
    </Form.Item>
  );

  return (
    <Form
      id="station-form"
      form={form}
      layout="vertical"
      className={styles.form}
      initialValues={initialValues}
      onSubmit={(values) => void submit(values)}
      scrollToFirstError
    >
      <h2 className={styles.formSection}>{t('station.form.basic')}</h2>
      <div className={styles.formGrid}>
        {text('name')}
        {number('capacityKwp', 'kWp', 3)}
        <Form.Item label={label('stationType')} field="stationType" rules={rules.stationType}>
          <LabelledSelect label={label('stationType')} placeholder={t('common.choose')}>
            {STATION_TYPES.map((type) => (
              <Option key={type} value={type}>
                {t(`station.stationType.${type}`)}
              </Option>
            ))}
          </LabelledSelect>
        </Form.Item>
        <Form.Item label={label('systemType')} field="systemType" rules={rules.systemType}>
          <LabelledSelect label={label('systemType')} placeholder={t('common.choose')}>
            {SYSTEM_TYPES.map((type) => (
              <Option key={type} value={type}>
                {t(`station.systemType.${type}`)}
              </Option>
            ))}
          </LabelledSelect>
        </Form.Item>
        <Form.Item label={label('tags')} field="tagIds">
          <LabelledSelect label={label('tags')} mode="multiple" allowClear placeholder={t('common.choose')}>
            {tags.map((tag) => (
              <Option key={tag.id} value={tag.id}>
                {tag.name}
              </Option>
            ))}
          </LabelledSelect>
        </Form.Item>
      </div>
      <Form.Item label={t('station.cover')} field="coverImage">
        <CoverUpload />
      </Form.Item>

      <h2 className={styles.formSection}>{t('station.form.location')}</h2>
      <div className={styles.formGrid}>
        {text('location')}
        {text('region')}
        {text('address')}
        {text('country', { placeholder: 'CN' })}
        {number('lat', '°', 6)}
        {number('lng', '°', 6)}
        <Form.Item label={label('timezone')} field="timezone" rules={rules.timezone}>
          <TimeZoneSelect label={label('timezone')} placeholder={t('common.choose')} />
        </Form.Item>
      </div>

      <h2 className={styles.formSection}>{t('station.form.array')}</h2>
      <div className={styles.formGrid}>
        {number('azimuth', '°', 1)}
        {number('inclination', '°', 1)}
        {text('line')}
        <Form.Item label={label('buildDate')} field="buildDate">
          <DayPicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label={label('combineStatus')} field="combineStatus" triggerPropName="checked">
          <Switch aria-label={label('combineStatus')} />
        </Form.Item>
        <Form.Item label={label('combineDate')} field="combineDate">
          <DayPicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label={label('gridStatus')} field="gridStatus" triggerPropName="checked">
          <Switch aria-label={label('gridStatus')} />
        </Form.Item>
        <Form.Item label={label('gridDate')} field="gridDate">
          <DayPicker style={{ width: '100%' }} />
        </Form.Item>
      </div>

      <h2 className={styles.formSection}>{t('station.form.economics')}</h2>
      <div className={styles.formGrid}>
        {text('currency', { placeholder: 'CNY' })}
        {number('pricePerKwh', undefined, 4)}
        {number('subsidyPerKwh', undefined, 4)}
        {number('totalCost', undefined, 2)}
        {number('dailyRepayment', undefined, 2)}
      </div>

      <h2 className={styles.formSection}>{t('station.form.contacts')}</h2>
      <div className={styles.formGrid}>
        {text('ownerName')}
        {text('ownerPhone')}
        {text('ownerCompany')}
        {text('managerName')}
        {text('managerPhone')}
      </div>

      {serverError && (
        <p role="alert" className={styles.hint} style={{ color: 'rgb(var(--danger-6))' }}>
          {serverError}
        </p>
      )}
      <div className={styles.toolbarActions} style={{ marginTop: 8 }}>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('common.save')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </div>
    </Form>
  );
}
