import Form from '@arco-design/web-react/es/Form';
import '@arco-design/web-react/es/Form/style/css.js';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import Message from '@arco-design/web-react/es/Message';
import '@arco-design/web-react/es/Message/style/css.js';
import Modal from '@arco-design/web-react/es/Modal';
import '@arco-design/web-react/es/Modal/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { ApiError } from '@/lib/api-client';
import { type DeviceField, type LinkInput, mapsQuery, useSetLink } from './api/scada';

type Values = Omit<LinkInput, 'deviceId'>;

/** Connects a device over Modbus TCP (or changes its connection); applied at once, no restart. */
export function LinkDialog({ field, onClose }: { field: DeviceField; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const maps = useQuery(mapsQuery);
  const save = useSetLink();
  const link = field.link;
  const initial: Values = {
    host: link?.host ?? '',
    port: link?.port ?? 502,
    unitId: link?.unitId ?? 1,
    intervalS: link?.intervalS ?? 60,
    timeoutMs: link?.timeoutMs ?? 2000,
    mapId: link?.mapId ?? 0,
  };
  const required = [{ required: true, message: t('debug.required') }];

  const submit = async () => {
    const values = await form.validate();
    save.mutate(
      { ...values, deviceId: field.id },
      {
        onSuccess: () => {
          Message.success(t('debug.linked'));
          onClose();
        },
        onError: (e) => {
          if (e instanceof ApiError && Object.keys(e.fields).length > 0) {
            form.setFields(
              Object.fromEntries(Object.entries(e.fields).map(([k, msg]) => [k, { error: { message: msg } }])),
            );
          } else {
            Message.error(e instanceof ApiError ? e.msg : String(e));
          }
        },
      },
    );
  };

  return (
    <Modal
      visible
      title={t('debug.linkTitle', { name: field.name })}
      onOk={() => void submit()}
      okText={t('debug.save')}
      cancelText={t('debug.cancel')}
      confirmLoading={save.isPending}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item label={t('debug.host')} field="host" rules={required}>
          <Input placeholder="192.168.1.50" />
        </Form.Item>
        <Form.Item label={t('debug.port')} field="port" rules={required}>
          <InputNumber min={1} max={65535} />
        </Form.Item>
        <Form.Item label={t('debug.unitId')} field="unitId" rules={required} extra={t('debug.unitHint')}>
          <InputNumber min={0} max={247} />
        </Form.Item>
        <Form.Item label={t('debug.intervalS')} field="intervalS" rules={required}>
          <InputNumber min={1} max={3600} />
        </Form.Item>
        <Form.Item label={t('debug.timeoutMs')} field="timeoutMs" rules={required}>
          <InputNumber min={100} max={30000} />
        </Form.Item>
        <Form.Item label={t('debug.protocol')} field="mapId">
          <LabelledSelect label={t('debug.protocol')} loading={maps.isPending}>
            <Option value={0}>{t('debug.protocolSunSpec')}</Option>
            {(maps.data?.list ?? []).map((m) => (
              <Option key={m.id} value={m.id}>
                {t('debug.protocolMap', { name: `${m.name} v${m.version}` })}
              </Option>
            ))}
          </LabelledSelect>
        </Form.Item>
      </Form>
    </Modal>
  );
}
