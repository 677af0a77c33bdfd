import Alert from '@arco-design/web-react/es/Alert';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Radio from '@arco-design/web-react/es/Radio';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Radio/style/css.js';
import { type ComponentProps, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { type Alarm, DEAL_METHODS, useDealAlarm } from './api/alarms';
import { dealProblems, type DealValues, MAX_REASON_LENGTH } from './form-rules';

interface DealDialogProps {
  alarm: Pick<Alarm, 'id' | 'deviceName' | 'description'>;
  visible: boolean;
  onClose: () => void;
}

const KNOWN_FIELDS = ['reason', 'dealMethod'] as const;

/** The deal methods as a radio group named for assistive technology (Arco's group drops aria-label). */
function MethodGroup({ label, ...props }: { label: string } & ComponentProps<typeof Radio.Group>) {
  return (
    <div role="group" aria-label={label}>
      <Radio.Group {...props} />
    </div>
  );
}

/** Deals an alarm (POST /v2/warn/deal/{id}): a reason of at most 200 characters and a deal method. */
export function DealDialog({ alarm, visible, onClose }: DealDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DealValues>();
  const deal = useDealAlarm(alarm.id);
  const [otherProblems, setOtherProblems] = useState<string[]>([]);

  const check = (field: 'reason' | 'dealMethod') => (value: unknown, callback: (error?: string) => void) => {
    const problem = dealProblems({ ...form.getFieldsValue(), [field]: value })[field];
    callback(problem ? t(problem.key, problem.values) : undefined);
  };

  const submit = async () => {
    setOtherProblems([]);
    let values: DealValues;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    try {
      await deal.mutateAsync({ reason: (values.reason ?? '').trim(), dealMethod: values.dealMethod ?? 0 });
      notifySuccess(t('alarm.deal.done'));
      form.resetFields();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        // The server's own words for each bad field, beside the field.
        const fields: Record<string, { value?: unknown; error: { message: string } }> = {};
        const rest: string[] = [];
        for (const [name, message] of Object.entries(error.fields)) {
          if ((KNOWN_FIELDS as readonly string[]).includes(name)) {
            fields[name] = { value: form.getFieldValue(name as keyof DealValues), error: { message } };
          } else {
            rest.push(message);
          }
        }
        form.setFields(fields);
        setOtherProblems(rest);
      }
    }
  };

  return (
    <Modal
      title={t('alarm.deal.title')}
      visible={visible}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        setOtherProblems([]);
        onClose();
      }}
      okText={t('alarm.deal.submit')}
      cancelText={t('alarm.deal.cancel')}
      confirmLoading={deal.isPending}
      unmountOnExit
      autoFocus
      focusLock
    >
      <p>
        <strong>{alarm.deviceName}</strong> · {alarm.description}
      </p>
      {otherProblems.length > 0 && <Alert type="error" content={otherProblems.join(' ')} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onSubmit={() => void submit()} autoComplete="off">
        <Form.Item
          field="dealMethod"
          label={t('alarm.field.dealMethod')}
          required
          rules={[{ validator: check('dealMethod') }]}
        >
          <MethodGroup label={t('alarm.field.dealMethod')}>
            {DEAL_METHODS.map((method) => (
              <Radio key={method} value={method}>
                {t(`alarm.dealMethod.${method}`)}
              </Radio>
            ))}
          </MethodGroup>
        </Form.Item>
        <Form.Item
          field="reason"
          label={t('alarm.field.reason')}
          required
          rules={[{ validator: check('reason') }]}
        >
          <Input.TextArea
            placeholder={t('alarm.deal.reasonPlaceholder')}
            maxLength={{ length: MAX_REASON_LENGTH, errorOnly: true }}
            showWordLimit
            autoSize={{ minRows: 3, maxRows: 6 }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
