import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import '@arco-design/web-react/es/Radio/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import '@arco-design/web-react/es/Switch/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { type ComponentProps, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { ApiError } from '@/lib/api-client';
import { useRole } from '@/lib/auth';
import { formatNumber } from '@/lib/format';
import { notifyError, notifySuccess } from '@/lib/notify';
import { pushSupported } from '@/lib/service-worker';
import styles from './alarm.module.css';
import { ALARM_LEVELS } from './api/alarms';
import {
  DEFAULT_DAILY_LIMITS,
  FREQUENCIES,
  type Frequency,
  MAX_DAILY_LIMIT,
  DIGEST_CHOICES,
  emailStateQuery,
  NOTIFY_METHODS,
  PushRefused,
  pushStateQuery,
  useSendEmailLink,
  useSubscribePush,
  useUnsubscribePush,
  type NotifySettings,
  type NotifySettingsView,
  useNotifySettings,
  useSaveNotifySettings,
} from './api/notify';
import { settingsProblems, type SettingsValues } from './form-rules';

interface FormValues extends SettingsValues {
  allowed?: boolean;
  timezone?: string;
  digestMinutes?: number;
}

/** The server's settings as the form holds them: a limit that is not offered becomes "other". */
export function toFormValues(view: NotifySettingsView): FormValues {
  const choices = view.dailyLimitChoices?.length ? view.dailyLimitChoices : [...DEFAULT_DAILY_LIMITS];
  const listed = choices.includes(view.dailyLimit);
  return {
    allowed: view.allowed === 1,
    levels: [...view.levels].sort(),
    frequency: view.frequency,
    dailyLimit: listed ? view.dailyLimit : 'other',
    customLimit: listed ? undefined : view.dailyLimit,
    pushLimit: view.pushLimit || view.dailyLimit,
    emailLimit: view.emailLimit || view.dailyLimit,
    methods: [...view.methods].sort(),
    timezone: view.timezone || 'UTC',
    digestMinutes: view.digestMinutes ?? 0,
  };
}

/** The form's values as POST /v2/warn/notify/settings takes them. */
export function fromFormValues(values: FormValues): NotifySettings {
  const dailyLimit =
    values.dailyLimit === 'other' || values.dailyLimit === undefined ? Number(values.customLimit) : values.dailyLimit;
  return {
    allowed: values.allowed ? 1 : 0,
    levels: [...(values.levels ?? [])].sort(),
    frequency: (values.frequency ?? 'high') as Frequency,
    dailyLimit,
    pushLimit: values.pushLimit ?? dailyLimit,
    emailLimit: values.emailLimit ?? dailyLimit,
    methods: [...(values.methods ?? [])].sort(),
    timezone: values.timezone || 'UTC',
    digestMinutes: values.digestMinutes ?? 0,
  };
}


/**
 * A checkbox or radio group named for assistive technology (Arco's groups drop aria-label). The
 * form item's value and onChange pass through to the group.
 */
function CheckboxGroup({ label, ...props }: { label: string } & ComponentProps<typeof Checkbox.Group>) {
  return (
    <div role="group" aria-label={label}>
      <Checkbox.Group {...props} />
    </div>
  );
}

function RadioGroup({ label, ...props }: { label: string } & ComponentProps<typeof Radio.Group>) {
  return (
    <div role="group" aria-label={label}>
      <Radio.Group {...props} />
    </div>
  );
}

/** The signed-in user's alarm notification settings (GET/POST /v2/warn/notify/settings). */
export function NotifySettingsForm() {
  const { t } = useTranslation();
  const isAdmin = useRole() === 'admin';
  const settings = useNotifySettings();
  const save = useSaveNotifySettings();
  const [form] = Form.useForm<FormValues>();
  const view = settings.data;
  const initial = useMemo(() => (view ? toFormValues(view) : undefined), [view]);
  const choices = view?.dailyLimitChoices?.length ? view.dailyLimitChoices : [...DEFAULT_DAILY_LIMITS];

  useEffect(() => {
    if (initial) {
      form.setFieldsValue(initial);
    }
  }, [form, initial]);

  const check =
    (field: 'levels' | 'frequency' | 'customLimit' | 'pushLimit' | 'emailLimit' | 'methods') =>
    (value: unknown, callback: (error?: string) => void) => {
      const problem = settingsProblems({ ...form.getFieldsValue(), [field]: value })[field];
      callback(problem ? t(problem.key, problem.values) : undefined);
    };

  const submit = async () => {
    let values: FormValues;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    try {
      await save.mutateAsync(fromFormValues({ ...form.getFieldsValue(), ...values }));
      notifySuccess(t('alarm.notify.saved'));
    } catch (error) {
      if (error instanceof ApiError) {
        const fields: Record<string, { value?: unknown; error: { message: string } }> = {};
        for (const [name, message] of Object.entries(error.fields)) {
          const field = name === 'dailyLimit' ? 'customLimit' : name;
          fields[field] = { value: form.getFieldValue(field as keyof FormValues), error: { message } };
        }
        form.setFields(fields);
      }
    }
  };

  return (
    <section className={styles.settings} aria-labelledby="alarm-notify-title">
      <h2 id="alarm-notify-title" className={styles.sectionTitle}>
        {t('alarm.notify.title')}
      </h2>
      <p className={styles.muted}>{t('alarm.notify.intro')}</p>
      {view?.today && <TodayCounts today={view.today} />}
      <DataState loading={settings.isPending} error={settings.isError} onRetry={() => void settings.refetch()} minHeight={240}>
        <Form
          form={form}
          layout="vertical"
          initialValues={initial}
          onSubmit={() => void submit()}
          className={styles.settingsForm}
          autoComplete="off"
        >
          <Form.Item field="allowed" label={t('alarm.notify.allowed')} triggerPropName="checked">
            <Switch
              aria-label={t('alarm.notify.allowed')}
              checkedText={t('alarm.notify.allowedOn')}
              uncheckedText={t('alarm.notify.allowedOff')}
            />
          </Form.Item>
          <Form.Item field="levels" label={t('alarm.notify.levels')} required rules={[{ validator: check('levels') }]}>
            <CheckboxGroup label={t('alarm.notify.levels')}>
              {ALARM_LEVELS.map((level) => (
                <Checkbox key={level} value={level}>
                  {t(`alarm.level.${level}`)}
                </Checkbox>
              ))}
            </CheckboxGroup>
          </Form.Item>
          <Form.Item field="frequency" label={t('alarm.notify.frequency')} required rules={[{ validator: check('frequency') }]}>
            <RadioGroup label={t('alarm.notify.frequency')} direction="vertical">
              {FREQUENCIES.map((frequency) => (
                <Radio key={frequency} value={frequency}>
                  {t(`alarm.notify.frequency.${frequency}`)}
                </Radio>
              ))}
            </RadioGroup>
          </Form.Item>
          <Form.Item field="dailyLimit" label={t('alarm.notify.dailyLimit')} required extra={t('alarm.notify.limitHint')}>
            <RadioGroup label={t('alarm.notify.dailyLimit')} type="button">
              {choices.map((choice) => (
                <Radio key={choice} value={choice}>
                  {choice}
                </Radio>
              ))}
              <Radio value="other">{t('alarm.notify.dailyLimit.other')}</Radio>
            </RadioGroup>
          </Form.Item>
          <Form.Item shouldUpdate noStyle>
            {(values: FormValues) =>
              values.dailyLimit === 'other' && (
                <Form.Item
                  field="customLimit"
                  label={t('alarm.notify.dailyLimit.custom')}
                  required
                  rules={[{ validator: check('customLimit') }]}
                >
                  <InputNumber
                    min={1}
                    max={MAX_DAILY_LIMIT}
                    precision={0}
                    className={styles.limitInput}
                    aria-label={t('alarm.notify.dailyLimit.custom')}
                  />
                </Form.Item>
              )
            }
          </Form.Item>
          <Form.Item
            field="methods"
            label={t('alarm.notify.methods')}
            required
            rules={[{ validator: check('methods') }]}
            extra={t('alarm.notify.appPushHint')}
          >
            <CheckboxGroup label={t('alarm.notify.methods')}>
              {NOTIFY_METHODS.map((method) => (
                <Checkbox key={method} value={method}>
                  {t(`alarm.notify.method.${method}`)}
                </Checkbox>
              ))}
            </CheckboxGroup>
          </Form.Item>
          <Form.Item shouldUpdate noStyle>
            {(values: FormValues) =>
              values.methods?.includes(2) && (
                <>
                  <AppPushState />
                  <MethodLimit field="pushLimit" label={t('alarm.notify.pushLimit')} validator={check('pushLimit')} />
                </>
              )
            }
          </Form.Item>
          <Form.Item shouldUpdate noStyle>
            {(values: FormValues) =>
              values.methods?.includes(3) && (
                <>
                  <EmailState />
                  <MethodLimit field="emailLimit" label={t('alarm.notify.emailLimit')} validator={check('emailLimit')} />
                  <Form.Item field="digestMinutes" label={t('alarm.notify.digest')} extra={t('alarm.notify.digestHint')}>
                    <Select
                      aria-label={t('alarm.notify.digest')}
                      className={styles.zoneSelect}
                      options={DIGEST_CHOICES.map((m) => ({
                        value: m,
                        label: m === 0 ? t('alarm.notify.digestNone') : t('alarm.notify.digestEvery', { minutes: m }),
                      }))}
                    />
                  </Form.Item>
                </>
              )
            }
          </Form.Item>
          <Form.Item field="timezone" label={t('alarm.notify.timezone')} extra={t('alarm.notify.timezoneHint')}>
            <TimeZoneSelect label={t('alarm.notify.timezone')} className={styles.zoneSelect} />
          </Form.Item>
          <div className={styles.formActions}>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('alarm.notify.save')}
            </Button>
            <Button onClick={() => initial && form.setFieldsValue({ ...initial, customLimit: initial.customLimit })}>
              {t('alarm.notify.undo')}
            </Button>
          </div>
        </Form>
      </DataState>
      {isAdmin && (
        <p className={styles.muted}>
          {t('alarm.notify.webhooks')} <Link to="/permission/webhooks" className={styles.link}>{t('alarm.notify.webhooksLink')}</Link>
        </p>
      )}
    </section>
  );
}

/** A method's own daily limit (app push, e-mail). */
function MethodLimit({
  field,
  label,
  validator,
}: {
  field: 'pushLimit' | 'emailLimit';
  label: string;
  validator: (value: unknown, callback: (error?: string) => void) => void;
}) {
  return (
    <Form.Item field={field} label={label} required rules={[{ validator }]}>
      <InputNumber min={1} max={MAX_DAILY_LIMIT} precision={0} className={styles.limitInput} aria-label={label} />
    </Form.Item>
  );
}

/** Today's notifications, each method against its own limit, in the settings' zone. */
function TodayCounts({ today }: { today: NotifySettingsView['today'] }) {
  const { t } = useTranslation();
  return (
    <p className={styles.muted} role="status" data-testid="notify-today">
      {t('alarm.notify.todayHead', { date: today.date, zone: today.timezone })}{' '}
      {(today.methods ?? []).map((m, i) => (
        <span key={m.method}>
          {i > 0 && '; '}
          {t('alarm.notify.todayMethod', {
            method: t(`alarm.notify.method.${m.method}`),
            sent: formatNumber(m.sent, 0),
            limit: formatNumber(m.limit, 0),
          })}
          {m.held > 0 && <>{' · '}{t('alarm.notify.todayHeld', { count: m.held, formattedCount: formatNumber(m.held, 0) })}</>}
        </span>
      ))}
    </p>
  );
}

/**
 * Where alarm e-mails go: the profile's address once verified by the link mailed to it; a
 * button mails the link. Says so when the server has no SMTP relay.
 */
function EmailState() {
  const { t } = useTranslation();
  const state = useQuery(emailStateQuery);
  const send = useSendEmailLink();
  const s = state.data;
  if (!s) return null;
  if (!s.relay) {
    return <p className={styles.muted} role="status">{t('alarm.notify.emailNoRelay')}</p>;
  }
  if (!s.email) {
    return <p className={styles.muted} role="status">{t('alarm.notify.emailNone')}</p>;
  }
  if (s.verified) {
    return <p className={styles.muted} role="status">{t('alarm.notify.emailVerified', { email: s.email })}</p>;
  }
  return (
    <p className={styles.muted} role="status">
      {t('alarm.notify.emailUnverified', { email: s.email })}{' '}
      <Button
        size="small"
        loading={send.isPending}
        onClick={() =>
          send.mutateAsync().then(
            () => notifySuccess(t('alarm.notify.emailSent', { email: s.email })),
            (err: unknown) => notifyError(err instanceof Error ? err.message : String(err)),
          )
        }
      >
        {t('alarm.notify.emailSend')}
      </Button>
    </p>
  );
}

/**
 * App push on this browser: whether it gets the notifications, and the button that asks for
 * permission and subscribes it (or stops it). Other browsers of the user are counted.
 */
function AppPushState() {
  const { t } = useTranslation();
  const state = useQuery(pushStateQuery);
  const subscribe = useSubscribePush();
  const unsubscribe = useUnsubscribePush();
  const [here, setHere] = useState<boolean | null>(null);
  useEffect(() => {
    if (!pushSupported()) return;
    void navigator.serviceWorker
      .getRegistration('/')
      .then((reg) => reg?.pushManager.getSubscription())
      .then((sub) => setHere(!!sub))
      .catch(() => setHere(false));
  }, [state.data?.subscriptions]);
  if (!pushSupported()) {
    return <p className={styles.muted} role="status">{t('alarm.notify.pushUnsupported')}</p>;
  }
  const s = state.data;
  if (!s) return null;
  const denied = Notification.permission === 'denied';
  const failed = (err: unknown) =>
    notifyError(err instanceof PushRefused ? t('alarm.notify.pushDenied') : err instanceof Error ? err.message : String(err));
  return (
    <p className={styles.muted} role="status">
      {denied ? t('alarm.notify.pushDenied') : here ? t('alarm.notify.pushHere') : t('alarm.notify.pushNotHere')}{' '}
      {t('alarm.notify.pushCount', { count: s.subscriptions })}{' '}
      {!denied &&
        (here ? (
          <Button size="small" loading={unsubscribe.isPending} onClick={() => unsubscribe.mutateAsync().then(() => setHere(false), failed)}>
            {t('alarm.notify.pushStop')}
          </Button>
        ) : (
          <Button
            size="small"
            type="primary"
            loading={subscribe.isPending}
            onClick={() =>
              subscribe.mutateAsync(s.publicKey).then(() => {
                setHere(true);
                notifySuccess(t('alarm.notify.pushOn'));
              }, failed)
            }
          >
            {t('alarm.notify.pushAllow')}
          </Button>
        ))}
    </p>
  );
}
