import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@/lib/auth';
import { showFieldErrors } from '@/lib/form-errors';
import { notifySuccess } from '@/lib/notify';
import { type PasswordChange, type Security, useChangePassword, useSaveSecurity } from './api/account';
import { useAccountRules } from './rules';
import styles from './user-settings-page.module.css';

function PasswordForm({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordChange>();
  const change = useChangePassword(user.uid);
  const rules = useAccountRules();
  const submit = async () => {
    let values: PasswordChange;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    try {
      await change.mutateAsync(values);
      notifySuccess(t('account.password.changed'));
      form.resetFields();
    } catch (error) {
      showFieldErrors(form, error, ['oldPassword', 'password', 'confirmPassword']);
    }
  };
  return (
    <Form form={form} layout="vertical" onSubmit={() => void submit()} className={styles.form} autoComplete="off">
      <h2 className={styles.sectionTitle}>{t('user.field.password')}</h2>
      <Form.Item field="oldPassword" label={t('account.password.old')} rules={rules.oldPassword} required>
        <Input.Password aria-label={t('account.password.old')} autoComplete="current-password" />
      </Form.Item>
      <Form.Item field="password" label={t('account.password.new')} rules={rules.password} extra={t('account.rule.password')} required>
        <Input.Password aria-label={t('account.password.new')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        field="confirmPassword"
        label={t('account.password.confirm')}
        dependencies={['password']}
        required
        rules={[
          {
            validator: (value: string | undefined, cb) =>
              cb(!value ? t('account.rule.required') : value !== form.getFieldValue('password') ? t('account.rule.mismatch') : undefined),
          },
        ]}
      >
        <Input.Password aria-label={t('account.password.confirm')} autoComplete="new-password" />
      </Form.Item>
      <p className={styles.muted}>{t('account.password.others')}</p>
      <Button type="primary" htmlType="submit" loading={change.isPending}>
        {t('account.password.change')}
      </Button>
    </Form>
  );
}

function SecurityForm({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Security>();
  const save = useSaveSecurity();
  const rules = useAccountRules();
  const submit = async () => {
    let values: Security;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    try {
      await save.mutateAsync({
        securityQuestion: (values.securityQuestion ?? '').trim(),
        securityAnswer: values.securityAnswer ?? '',
        phone: (values.phone ?? '').trim(),
        email: (values.email ?? '').trim(),
      });
      notifySuccess(t('account.saved'));
      form.setFieldValue('securityAnswer', '');
    } catch (error) {
      showFieldErrors(form, error, ['securityQuestion', 'securityAnswer', 'phone', 'email']);
    }
  };
  return (
    <Form
      form={form}
      layout="vertical"
      className={styles.form}
      autoComplete="off"
      onSubmit={() => void submit()}
      initialValues={{ securityQuestion: user.securityQuestion ?? '', securityAnswer: '', phone: user.phone, email: user.email }}
    >
      <h2 className={styles.sectionTitle}>{t('account.security.title')}</h2>
      <Form.Item field="securityQuestion" label={t('account.security.question')}>
        <Input aria-label={t('account.security.question')} maxLength={100} />
      </Form.Item>
      <Form.Item
        field="securityAnswer"
        label={t('account.security.answer')}
        extra={user.hasSecurityAnswer ? t('account.security.answerKept') : t('account.security.answerHashed')}
      >
        <Input.Password aria-label={t('account.security.answer')} maxLength={100} autoComplete="off" />
      </Form.Item>
      <Form.Item field="phone" label={t('user.field.securityPhone')} rules={rules.phone}>
        <Input aria-label={t('user.field.securityPhone')} maxLength={20} />
      </Form.Item>
      <Form.Item field="email" label={t('user.field.securityEmail')} rules={rules.email} required>
        <Input aria-label={t('user.field.securityEmail')} maxLength={100} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.isPending}>
        {t('account.save')}
      </Button>
    </Form>
  );
}

/** Security: the password (changed with the current one), security question, phone and email. */
export function SecuritySettings({ user }: { user: UserInfo }) {
  return (
    <div className={styles.columns}>
      <PasswordForm user={user} />
      <SecurityForm user={user} />
    </div>
  );
}
