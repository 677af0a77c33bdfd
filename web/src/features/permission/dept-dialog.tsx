import Alert from '@arco-design/web-react/es/Alert';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { showFieldErrors } from '@/lib/form-errors';
import { notifySuccess } from '@/lib/notify';
import { useStationOptions } from '@/lib/stations';
import { type Dept, orgCalls, useOrgWrite } from './api/org';

export type DeptDialogMode = { kind: 'add'; parent?: Dept } | { kind: 'edit'; dept: Dept };

interface Values {
  name: string;
  stationIds: number[];
}

/** Adds a department (top-level or under another) or renames one, with its station grants. */
export function DeptDialog({ mode, onClose }: { mode: DeptDialogMode; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const stations = useStationOptions();
  const [problems, setProblems] = useState<string[]>([]);
  const add = useOrgWrite(orgCalls.addDept);
  const edit = useOrgWrite(orgCalls.editDept);
  const editing = mode.kind === 'edit' ? mode.dept : undefined;
  const tops = (stations.data ?? []).filter((s) => !s.parentId);

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    const input = { name: values.name.trim(), stationIds: values.stationIds ?? [] };
    try {
      if (editing) {
        await edit.mutateAsync({ id: editing.id, ...input });
      } else {
        await add.mutateAsync({ ...input, parentId: mode.kind === 'add' ? mode.parent?.id : undefined });
      }
      notifySuccess(t('org.saved'));
      onClose();
    } catch (error) {
      setProblems(showFieldErrors(form, error, ['name', 'stationIds']));
    }
  };

  const title = editing
    ? t('org.dept.edit')
    : mode.kind === 'add' && mode.parent
      ? t('org.dept.addChildOf', { name: mode.parent.name })
      : t('org.dept.add');
  return (
    <Modal
      title={title}
      visible
      onOk={() => void submit()}
      onCancel={onClose}
      okText={t('org.save')}
      cancelText={t('org.cancel')}
      confirmLoading={add.isPending || edit.isPending}
      unmountOnExit
      autoFocus
      focusLock
    >
      {problems.length > 0 && <Alert type="error" content={problems.join(' ')} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: editing?.name ?? '', stationIds: editing?.stationIds ?? [] }}
        onSubmit={() => void submit()}
        autoComplete="off"
      >
        <Form.Item
          field="name"
          label={t('org.dept.name')}
          rules={[
            { required: true, validator: (v: string | undefined, cb) => cb(v?.trim() ? undefined : t('org.rule.required')) },
            { maxLength: 50, message: t('org.rule.max', { n: 50 }) },
          ]}
        >
          <Input aria-label={t('org.dept.name')} maxLength={50} />
        </Form.Item>
        <Form.Item field="stationIds" label={t('org.dept.grants')} extra={t('org.dept.grantsHelp')}>
          <LabelledSelect
            label={t('org.dept.grants')}
            mode="multiple"
            allowClear
            loading={stations.isPending}
            placeholder={t('org.dept.grantsNone')}
            filterOption={(input, option) =>
              String((option as { props?: { children?: unknown } }).props?.children ?? '')
                .toLowerCase()
                .includes(input.toLowerCase())
            }
          >
            {tops.map((s) => (
              <Option key={s.id} value={s.id}>
                {s.name}
              </Option>
            ))}
          </LabelledSelect>
        </Form.Item>
      </Form>
    </Modal>
  );
}
