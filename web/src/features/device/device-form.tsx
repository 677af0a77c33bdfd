import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Form from '@arco-design/web-react/es/Form';
import '@arco-design/web-react/es/Form/style/css.js';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { ApiError } from '@/lib/api-client';
import { DEVICE_TYPES, type DeviceInput } from './api/devices';
import { deviceRules } from './device-form-rules';
import styles from './device.module.css';
import { type ParentChoice, ParentPicker } from './parent-picker';

export interface DeviceFormValues {
  parent?: ParentChoice;
  name?: string;
  sn?: string;
  type?: string;
  customType?: string;
  model?: string;
  ratedPowerKw?: number;
  capacityKwh?: number;
  componentRatedPowerW?: number;
  componentCount?: number;
  stringsTotal?: number;
  stringsEnabled?: number;
  meterPosition?: string;
  collectorSn?: string;
}

/** The body of the add and edit calls; fields that do not apply to the type are sent empty. */
export function toDeviceInput(values: DeviceFormValues): DeviceInput {
  const type = values.type ?? '';
  const inverter = type === 'inverter';
  const storage = type === 'battery' || type === 'storage';
  return {
    stationId: values.parent?.stationId ?? 0,
    parentId: values.parent?.parentId ?? 0,
    name: (values.name ?? '').trim(),
    sn: (values.sn ?? '').trim(),
    type,
    customType: values.customType ?? '',
    model: values.model ?? '',
    ratedPowerKw: inverter || storage ? (values.ratedPowerKw ?? 0) : 0,
    capacityKwh: storage ? (values.capacityKwh ?? 0) : 0,
    componentRatedPowerW: inverter ? (values.componentRatedPowerW ?? 0) : 0,
    componentCount: inverter ? (values.componentCount ?? 0) : 0,
    stringsTotal: inverter ? (values.stringsTotal ?? 0) : 0,
    stringsEnabled: inverter ? (values.stringsEnabled ?? 0) : 0,
    meterPosition: type === 'meter' ? (values.meterPosition ?? '') : '',
    collectorSn: values.collectorSn ?? '',
  };
}

/** Server field names that sit on another form field. */
const SERVER_FIELD: Record<string, string> = { stationId: 'parent', parentId: 'parent' };

interface DeviceFormProps {
  initialValues: DeviceFormValues;
  self?: number;
  submitting?: boolean;
  onSubmit: (input: DeviceInput) => Promise<unknown>;
  onCancel: () => void;
}

/**
 * The device add and edit form: client rules first, then the server's per-field messages (a 400's
 * data.fields, or the 409 of a serial number already in use) on their fields.
 */
export function DeviceForm({ initialValues, self, submitting, onSubmit, onCancel }: DeviceFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DeviceFormValues>();
  const label = (field: string) => t(`device.field.${field}`);

  const submit = async (values: DeviceFormValues) => {
    try {
      await onSubmit(toDeviceInput(values));
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        const fields: Record<string, { value: unknown; error: { message: string } }> = {};
        for (const [serverField, message] of Object.entries(error.fields)) {
          const field = SERVER_FIELD[serverField] ?? serverField;
          fields[field] = { value: form.getFieldValue(field as keyof DeviceFormValues), error: { message } };
        }
        form.setFields(fields);
      }
    }
  };

  return (
    <Form
      id="device-form"
      form={form}
      layout="vertical"
      className={styles.form}
      initialValues={initialValues}
      onSubmit={(values) => void submit(values)}
      scrollToFirstError
    >
      <Form.Item shouldUpdate noStyle>
        {(values: DeviceFormValues) => {
          const rules = deviceRules(t, values.type, values.stringsTotal);
          const inverter = values.type === 'inverter';
          const storage = values.type === 'battery' || values.type === 'storage';
          const number = (field: keyof DeviceFormValues, unit?: string, precision?: number) => (
            <Form.Item label={label(field)} field={field} rules={rules[field]} required={(rules[field] ?? []).some((rule) => rule.required || rule.validator)}>
              <InputNumber suffix={unit} precision={precision} min={0} style={{ width: '100%' }} />
            </Form.Item>
          );
          return (
            <div className={styles.formGrid}>
              <Form.Item label={label('parent')} field="parent" rules={rules.parent}>
                <ParentPicker self={self} label={label('parent')} />
              </Form.Item>
              <Form.Item label={label('type')} field="type" rules={rules.type}>
                <LabelledSelect label={label('type')} placeholder={t('common.choose')}>
                  {DEVICE_TYPES.map((type) => (
                    <Option key={type} value={type}>
                      {t(`device.type.${type}`)}
                    </Option>
                  ))}
                </LabelledSelect>
              </Form.Item>
              <Form.Item label={label('name')} field="name" rules={rules.name}>
                <Input />
              </Form.Item>
              <Form.Item label={label('sn')} field="sn" rules={rules.sn}>
                <Input />
              </Form.Item>
              <Form.Item label={label('model')} field="model" rules={rules.model}>
                <Input />
              </Form.Item>
              <Form.Item label={label('customType')} field="customType" rules={rules.customType}>
                <Input />
              </Form.Item>
              {(inverter || storage) && number('ratedPowerKw', 'kW', 3)}
              {storage && number('capacityKwh', 'kWh', 3)}
              {inverter && number('componentRatedPowerW', 'W', 1)}
              {inverter && number('componentCount', undefined, 0)}
              {inverter && number('stringsTotal', undefined, 0)}
              {inverter && number('stringsEnabled', undefined, 0)}
              {values.type === 'meter' && (
                <Form.Item label={label('meterPosition')} field="meterPosition" rules={rules.meterPosition}>
                  <LabelledSelect label={label('meterPosition')} placeholder={t('common.choose')}>
                    {['grid', 'load'].map((position) => (
                      <Option key={position} value={position}>
                        {t(`device.meterPosition.${position}`)}
                      </Option>
                    ))}
                  </LabelledSelect>
                </Form.Item>
              )}
              <Form.Item label={label('collectorSn')} field="collectorSn" rules={rules.collectorSn}>
                <Input />
              </Form.Item>
            </div>
          );
        }}
      </Form.Item>
      <div className={styles.actions}>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('common.save')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </div>
    </Form>
  );
}
