import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import { IconLock, IconUser } from '@arco-design/web-react/icon';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { type Credentials, useLogin } from '@/lib/auth';
import styles from './login.module.css';

type Field = keyof Credentials;
type FieldErrors = Partial<Record<Field, string>>;

interface LoginFormProps {
  onSuccess: () => void;
}

/**
 * Username and password, both required; Enter submits. Shows why a sign-in failed. A plain form
 * (not Arco's Form) keeps the login bundle small: two required fields need no validation engine.
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<Credentials>({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState('');
  const login = useLogin();

  const required: Record<Field, string> = {
    username: t('login.form.username.required'),
    password: t('login.form.password.required'),
  };

  const validate = (field: Field, value: string): string | undefined =>
    value.trim() === '' ? required[field] : undefined;

  const change = (field: Field) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) {
      setErrors((current) => ({ ...current, [field]: validate(field, value) }));
    }
  };

  const blur = (field: Field) => () =>
    setErrors((current) => ({ ...current, [field]: validate(field, values[field]) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: FieldErrors = {
      username: validate('username', values.username),
      password: validate('password', values.password),
    };
    setErrors(next);
    setFailure('');
    if (next.username || next.password || login.isPending) {
      return;
    }
    try {
      await login.mutateAsync(values);
      onSuccess();
    } catch (cause) {
      if (!(cause instanceof ApiError)) {
        setFailure(t('login.error.default'));
        return;
      }
      const fieldErrors = Object.fromEntries(
        Object.entries(cause.fields).filter(([name]) => name in values),
      ) as FieldErrors;
      setErrors(fieldErrors);
      setFailure(cause.msg || t('login.error.default'));
    }
  };

  const field = (name: Field, label: string, control: (props: FieldProps) => JSX.Element) => {
    const inputId = `${id}-${name}`;
    const errorId = `${inputId}-error`;
    const error = errors[name];
    return (
      <div className={styles.field}>
        <label className={styles.label} htmlFor={inputId}>
          {label}
        </label>
        {control({
          id: inputId,
          value: values[name],
          onChange: change(name),
          onBlur: blur(name),
          status: error ? 'error' : undefined,
          'aria-invalid': Boolean(error),
          'aria-describedby': error ? errorId : undefined,
        })}
        <div id={errorId} className={styles.fieldError} aria-live="polite">
          {error}
        </div>
      </div>
    );
  };

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
      {field('username', t('login.form.username'), (props) => (
        <Input
          {...props}
          prefix={<IconUser />}
          placeholder={t('login.form.username.placeholder')}
          autoComplete="username"
          autoFocus
        />
      ))}
      {field('password', t('login.form.password'), (props) => (
        <Input.Password
          {...props}
          prefix={<IconLock />}
          placeholder={t('login.form.password.placeholder')}
          autoComplete="current-password"
        />
      ))}
      {/* Arco's Alert carries role="alert", so the reason is announced as it appears. */}
      {failure && <Alert className={styles.error} type="error" content={failure} showIcon />}
      <Button type="primary" htmlType="submit" long loading={login.isPending}>
        {t('login.form.submit')}
      </Button>
    </form>
  );
}

interface FieldProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  status: 'error' | undefined;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}
