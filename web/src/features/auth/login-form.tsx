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

/**
 * A message kept as what it means, not as text, so it is written in the language in use when
 * drawn: a switch of language on the sign-in page rewrites every message already shown. The
 * server's own text is shown while the language it was asked in is still the one in use; after
 * a switch, the console's text for the same failure.
 */
type Message = { key: string } | { code: number; text: string; locale: string };
type FieldErrors = Partial<Record<Field, Message>>;

/** The console's text for each failure the sign-in call answers with, by envelope code. */
const FAILURE_KEYS: Record<number, string> = {
  0: 'request.timeout',
  400: 'login.error.invalid',
  401: 'login.error.credentials',
  403: 'login.error.disabled',
  429: 'login.error.tooMany',
  503: 'login.error.busy',
};

/** The server's checks, repeated in the inputs so a too-long entry cannot be typed. */
const MAX_LENGTH: Record<Field, number> = { username: 64, password: 256 };

interface LoginFormProps {
  onSuccess: () => void;
}

/**
 * Username and password, both required; Enter submits. Shows why a sign-in failed. A plain form
 * (not Arco's Form) keeps the login bundle small: two required fields need no validation engine.
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [values, setValues] = useState<Credentials>({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<Message>();
  const login = useLogin();

  const write = (message: Message | undefined): string => {
    if (!message) {
      return '';
    }
    if ('key' in message) {
      return t(message.key);
    }
    if (message.locale === i18n.language && message.text) {
      return message.text;
    }
    return t(FAILURE_KEYS[message.code] ?? 'login.error.default');
  };

  const validate = (field: Field, value: string): Message | undefined =>
    value.trim() === '' ? { key: `login.form.${field}.required` } : undefined;

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
    setFailure(undefined);
    if (next.username || next.password || login.isPending) {
      return;
    }
    // the language the request is sent in (Accept-Language), and so the server's answer's
    const locale = i18n.language;
    try {
      await login.mutateAsync(values);
      onSuccess();
    } catch (cause) {
      if (!(cause instanceof ApiError)) {
        setFailure({ key: 'login.error.default' });
        return;
      }
      const fieldErrors = Object.fromEntries(
        Object.entries(cause.fields)
          .filter(([name]) => name in values)
          .map(([name, text]) => [name, { code: 400, text, locale }]),
      ) as FieldErrors;
      setErrors(fieldErrors);
      setFailure({ code: cause.code, text: cause.msg, locale });
    }
  };

  const field = (name: Field, label: string, control: (props: FieldProps) => JSX.Element) => {
    const inputId = `${id}-${name}`;
    const errorId = `${inputId}-error`;
    const error = write(errors[name]);
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
          maxLength={MAX_LENGTH.username}
          autoFocus
        />
      ))}
      {field('password', t('login.form.password'), (props) => (
        <Input.Password
          {...props}
          prefix={<IconLock />}
          placeholder={t('login.form.password.placeholder')}
          autoComplete="current-password"
          maxLength={MAX_LENGTH.password}
        />
      ))}
      {/* Arco's Alert carries role="alert", so the reason is announced as it appears. */}
      {failure && <Alert className={styles.error} type="error" content={write(failure)} showIcon />}
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
