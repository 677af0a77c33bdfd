import Alert from '@arco-design/web-react/es/Alert';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/DatePicker/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Radio/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stationChoices } from '@/components/list/station-filter';
import { LabelledSelect, Option } from '@/components/select';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useStationOptions } from '@/lib/stations';
import { usePeople, useCreateWorkOrder, WO_PRIORITIES } from './api/work-orders';

interface Values {
  title?: string;
  description?: string;
  stationId?: number;
  priority?: number;
  assignee?: string;
  ccUserIds?: number[];
  planned?: [string, string];
}

const FIELDS = ['title', 'description', 'stationId', 'priority', 'assigneeUserId', 'assigneeDeptId', 'ccUserIds', 'plannedStart', 'plannedEnd'];

/** The default plan: from now for eight hours. */
function defaultPlan(): [string, string] {
  const start = new Date();
  start.setSeconds(0, 0);
  const end = new Date(start.getTime() + 8 * 3600_000);
  const fmt = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  return [fmt(start), fmt(end)];
}

/** "yyyy-MM-dd HH:mm" in the browser's zone to RFC 3339. */
export function localToRfc3339(value: string): string {
  const [day, time] = value.split(' ');
  const [y, m, d] = (day ?? '').split('-').map(Number) as [number, number, number];
  const [hh, mm] = (time ?? '00:00').split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, hh, mm).toISOString();
}

/** Opens a work order by hand, or from an alarm (its station and description come from the alarm). */
export function WorkOrderForm({ visible, alarmId, onClose }: { visible: boolean; alarmId?: number; onClose: (id?: number) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const create = useCreateWorkOrder();
  const stations = useStationOptions();
  const people = usePeople();
  const [other, setOther] = useState<string[]>([]);

  const submit = async () => {
    setOther([]);
    let v: Values;
    try {
      v = await form.validate();
    } catch {
      return;
    }
    const [kind, id] = (v.assignee ?? '').split(':');
    const planned = v.planned ?? defaultPlan();
    try {
      const detail = await create.mutateAsync({
        title: (v.title ?? '').trim(),
        description: (v.description ?? '').trim(),
        stationId: alarmId ? undefined : v.stationId,
        alarmId,
        priority: v.priority ?? 2,
        assigneeUserId: kind === 'u' ? Number(id) : undefined,
        assigneeDeptId: kind === 'd' ? Number(id) : undefined,
        ccUserIds: v.ccUserIds ?? [],
        plannedStart: localToRfc3339(planned[0]),
        plannedEnd: localToRfc3339(planned[1]),
      });
      notifySuccess(t('ops.wo.created', { number: detail.number }));
      form.resetFields();
      onClose(detail.id);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        const fields: Record<string, { error: { message: string } }> = {};
        const rest: string[] = [];
        for (const [name, message] of Object.entries(error.fields)) {
          const field = name.startsWith('planned') ? 'planned' : name.startsWith('assignee') ? 'assignee' : name;
          if (FIELDS.includes(name)) {
            fields[field] = { error: { message } };
          } else {
            rest.push(message);
          }
        }
        form.setFields(fields);
        setOther(rest);
      }
    }
  };

  return (
    <Modal
      title={alarmId ? t('ops.wo.newFromAlarm', { id: alarmId }) : t('ops.wo.new')}
      visible={visible}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      okText={t('ops.wo.create')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending}
      unmountOnExit
      autoFocus
      focusLock
      style={{ width: 620 }}
    >
      {other.length > 0 && <Alert type="error" content={other.join(' ')} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" autoComplete="off" initialValues={{ priority: 2, planned: defaultPlan() }}>
        <Form.Item
          field="title"
          label={t('ops.wo.field.title')}
          required={!alarmId}
          rules={[
            { required: !alarmId, message: t('ops.wo.titleRequired') },
            { maxLength: 100, message: t('validation.maxLength', { max: 100 }) },
            { match: /^[^<>]*$/, message: t('ops.wo.titleChars') },
          ]}
          extra={alarmId ? t('ops.wo.titleFromAlarm') : undefined}
        >
          <Input aria-label={t('ops.wo.field.title')} maxLength={100} />
        </Form.Item>
        {!alarmId && (
          <Form.Item field="stationId" label={t('ops.wo.field.station')} required rules={[{ required: true, message: t('ops.wo.stationRequired') }]}>
            <LabelledSelect label={t('ops.wo.field.station')} showSearch placeholder={t('common.choose')}>
              {stationChoices(stations.data ?? []).map((c) => (
                <Option key={c.id} value={c.id}>
                  {c.label}
                </Option>
              ))}
            </LabelledSelect>
          </Form.Item>
        )}
        <Form.Item field="priority" label={t('ops.wo.field.priority')} required>
          <Radio.Group aria-label={t('ops.wo.field.priority')}>
            {WO_PRIORITIES.map((p) => (
              <Radio key={p} value={p}>
                {t(`status.workOrderPriority.${p}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item field="planned" label={t('ops.wo.field.planned')} required rules={[{ required: true, message: t('ops.wo.plannedRequired') }]}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item field="assignee" label={t('ops.wo.field.processor')}>
          <LabelledSelect label={t('ops.wo.field.processor')} allowClear showSearch placeholder={t('ops.wo.assignLater')}>
            <Select.OptGroup label={t('ops.wo.users')}>
              {(people.data?.users ?? []).map((u) => (
                <Option key={`u${u.id}`} value={`u:${u.id}`}>
                  {u.name}
                </Option>
              ))}
            </Select.OptGroup>
            <Select.OptGroup label={t('ops.wo.depts')}>
              {(people.data?.depts ?? []).map((d) => (
                <Option key={`d${d.id}`} value={`d:${d.id}`}>
                  {d.name}
                </Option>
              ))}
            </Select.OptGroup>
          </LabelledSelect>
        </Form.Item>
        <Form.Item field="ccUserIds" label={t('ops.wo.field.cc')}>
          <LabelledSelect label={t('ops.wo.field.cc')} mode="multiple" allowClear showSearch maxTagCount={4}>
            {(people.data?.users ?? []).map((u) => (
              <Option key={u.id} value={u.id}>
                {u.name}
              </Option>
            ))}
          </LabelledSelect>
        </Form.Item>
        <Form.Item field="description" label={t('ops.wo.field.description')} rules={[{ maxLength: 2000, message: t('validation.maxLength', { max: 2000 }) }]}>
          <Input.TextArea aria-label={t('ops.wo.field.description')} autoSize={{ minRows: 2, maxRows: 6 }} maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
