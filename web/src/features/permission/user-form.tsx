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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { showFieldErrors } from '@/lib/form-errors';
import { notifySuccess } from '@/lib/notify';
import {
  AUTHORITIES,
  flattenDepts,
  type OrgUser,
  orgCalls,
  ROLES,
  type UserInput,
  useDepts,
  useOrgWrite,
} from './api/org';
import { useUserRules } from './user-rules';

const FIELDS: (keyof UserInput)[] = ['username', 'password', 'name', 'deptId', 'email', 'phone', 'role', 'stationAuthority', 'jobName'];

/** Adds a user (with a first password) or edits one's department, role, authority and contact. */
export function UserForm({ user, deptId, onClose }: { user?: OrgUser; deptId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<UserInput>();
  const depts = useDepts();
  const rules = useUserRules();
  const [problems, setProblems] = useState<string[]>([]);
  const add = useOrgWrite(orgCalls.addUser);
  const edit = useOrgWrite(orgCalls.editUser);

  const submit = async () => {
    let values: UserInput;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    const trimmed = { ...values, name: values.name.trim(), email: values.email.trim(), phone: values.phone.trim() };
    try {
      if (user) {
        const { username: _u, password: _p, ...rest } = trimmed;
        await edit.mutateAsync({ uid: user.uid, ...rest, stationAuthority: rest.stationAuthority ?? user.stationAuthority, jobName: rest.jobName ?? '' });
      } else {
        await add.mutateAsync({ ...trimmed, username: trimmed.username.trim(), jobName: trimmed.jobName ?? '' });
      }
      notifySuccess(t('org.saved'));
      onClose();
    } catch (error) {
      setProblems(showFieldErrors(form, error, FIELDS));
    }
  };

  const initial: Partial<UserInput> = user
    ? { ...user }
    : { role: 'user', stationAuthority: 'authorized', deptId, jobName: '' };
  return (
    <Modal
      title={user ? t('org.user.editOf', { name: user.username }) : t('org.user.add')}
      visible
      onOk={() => void submit()}
      onCancel={onClose}
      okText={t('org.save')}
      cancelText={t('org.cancel')}
      confirmLoading={add.isPending || edit.isPending}
      style={{ width: 620 }}
      unmountOnExit
      autoFocus
      focusLock
    >
      {problems.length > 0 && <Alert type="error" content={problems.join(' ')} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" initialValues={initial} autoComplete="off" onSubmit={() => void submit()}>
        {!user && (
          <>
            <Form.Item field="username" label={t('org.user.username')} rules={rules.username} required>
              <Input aria-label={t('org.user.username')} maxLength={32} />
            </Form.Item>
            <Form.Item
              field="password"
              label={t('org.user.password')}
              rules={rules.password}
              extra={t('org.rule.password')}
              required
            >
              <Input.Password aria-label={t('org.user.password')} autoComplete="new-password" />
            </Form.Item>
          </>
        )}
        <Form.Item field="name" label={t('org.user.name')} rules={rules.name} required>
          <Input aria-label={t('org.user.name')} maxLength={50} />
        </Form.Item>
        <Form.Item field="deptId" label={t('org.user.dept')} rules={rules.deptId} required>
          <LabelledSelect label={t('org.user.dept')} loading={depts.isPending}>
            {flattenDepts(depts.data ?? []).map(({ dept, depth }) => (
              <Option key={dept.id} value={dept.id}>
                {`${'\u00a0\u00a0'.repeat(depth)}${dept.name}`}
              </Option>
            ))}
          </LabelledSelect>
        </Form.Item>
        <Form.Item field="email" label={t('org.user.email')} rules={rules.email} required>
          <Input aria-label={t('org.user.email')} maxLength={100} />
        </Form.Item>
        <Form.Item field="phone" label={t('org.user.phone')} rules={rules.phone} required>
          <Input aria-label={t('org.user.phone')} maxLength={20} />
        </Form.Item>
        <Form.Item field="jobName" label={t('org.user.job')}>
          <Input aria-label={t('org.user.job')} maxLength={50} />
        </Form.Item>
        <Form.Item field="role" label={t('org.user.role')} rules={rules.role} required>
          <Radio.Group type="button" aria-label={t('org.user.role')}>
            {ROLES.map((role) => (
              <Radio key={role} value={role}>
                {t(`org.role.${role}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item field="stationAuthority" label={t('org.user.authority')} extra={t('org.authority.help')}>
          <Radio.Group aria-label={t('org.user.authority')} direction="vertical">
            {AUTHORITIES.map((a) => (
              <Radio key={a} value={a}>
                {t(`org.authority.${a}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Sets a new password for a user; their sessions end at once. */
export function ResetPasswordDialog({ user, onClose }: { user: OrgUser; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const rules = useUserRules();
  const reset = useOrgWrite(orgCalls.resetPassword);
  const submit = async () => {
    let values: { password: string };
    try {
      values = await form.validate();
    } catch {
      return;
    }
    try {
      await reset.mutateAsync({ uid: user.uid, password: values.password });
      notifySuccess(t('org.user.resetDone', { name: user.username }));
      onClose();
    } catch (error) {
      showFieldErrors(form, error, ['password']);
    }
  };
  return (
    <Modal
      title={t('org.user.resetOf', { name: user.username })}
      visible
      onOk={() => void submit()}
      onCancel={onClose}
      okText={t('org.save')}
      cancelText={t('org.cancel')}
      confirmLoading={reset.isPending}
      unmountOnExit
      autoFocus
      focusLock
    >
      <Alert type="warning" content={t('org.user.resetWarning')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" autoComplete="off" onSubmit={() => void submit()}>
        <Form.Item field="password" label={t('org.user.newPassword')} rules={rules.password} extra={t('org.rule.password')}>
          <Input.Password aria-label={t('org.user.newPassword')} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
