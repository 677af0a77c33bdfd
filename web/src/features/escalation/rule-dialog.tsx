import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Modal from '@arco-design/web-react/es/Modal';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import '@arco-design/web-react/es/Switch/style/css.js';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormList } from '@/components/form-list';
import { stationChoices } from '@/components/list/station-filter';
import { ApiError } from '@/lib/api-client';
import { fieldErrorsShown } from '@/lib/form-errors';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useStationOptions } from '@/lib/stations';
import {
  MAX_AFTER,
  MAX_STEPS,
  type Rule,
  type RuleInput,
  rotaQuery,
  type Step,
  stepProblems,
  TARGETS,
  useAddRule,
  useEditRule,
} from './api';
import styles from './escalation.module.css';

interface Values {
  name: string;
  levels: number[];
  stationIds: number[];
  stopOnRecovery: boolean;
  enabled: boolean;
}

const LEVELS = [0, 1, 2] as const;

/** Adds an escalation rule, or edits one: which alarms, and its steps in order. */
export function RuleDialog({ editing, onClose }: { editing: Rule | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const add = useAddRule();
  const edit = useEditRule();
  const stations = useStationOptions();
  const rota = useQuery(rotaQuery);
  const current = editing !== 'new' ? editing : null;
  const [steps, setSteps] = useState<Partial<Step>[]>([]);
  const [checked, setChecked] = useState(false);
  const [serverSteps, setServerSteps] = useState<string>('');

  useEffect(() => {
    if (editing === null) return;
    setSteps(current ? current.steps.map((s) => ({ ...s })) : [{ afterMinutes: 15, target: 'oncall', targetId: 0 }]);
    setChecked(false);
    setServerSteps('');
  }, [editing, current]);

  const stationOptions = useMemo(
    () => stationChoices(stations.data ?? []).map((c) => ({ value: c.id, label: c.label })),
    [stations.data],
  );
  const problems = stepProblems(steps);
  const required = { required: true, message: t('escalation.form.required') };

  const setStep = (i: number, patch: Partial<Step>) => setSteps((list) => list.map((s, k) => (k === i ? { ...s, ...patch } : s)));

  const submit = async () => {
    setChecked(true);
    const v = await form.validate();
    if (steps.length === 0 || Object.keys(stepProblems(steps)).length > 0) {
      return;
    }
    const input: RuleInput = {
      name: v.name,
      levels: v.levels,
      stationIds: v.stationIds ?? [],
      stopOnRecovery: !!v.stopOnRecovery,
      enabled: !!v.enabled,
      steps: steps.map((s) => ({ afterMinutes: s.afterMinutes ?? 0, target: s.target ?? 'oncall', targetId: s.target === 'oncall' ? 0 : s.targetId ?? 0 })),
    };
    try {
      if (current) {
        await edit.mutateAsync({ id: current.id, input });
      } else {
        await add.mutateAsync(input);
      }
      notifySuccess(t('escalation.saved'));
      onClose();
    } catch (err) {
      // the steps' own problems (steps, steps.0.afterMinutes …) are said under the steps, the
      // other fields' beside them
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        const own = Object.entries(err.fields).filter(([f]) => f.startsWith('steps'));
        setServerSteps(own.map(([, m]) => m).join(' '));
        fieldErrorsShown(form, err);
        return;
      }
      notifyError(t('escalation.failed', { reason: err instanceof Error ? err.message : String(err) }));
    }
  };

  const whoOptions = (target: string | undefined) =>
    target === 'user'
      ? (rota.data?.users ?? []).map((u) => ({ value: u.id, label: u.name }))
      : (rota.data?.departments ?? []).map((d) => ({ value: d.id, label: d.name }));

  return (
    <Modal
      title={current ? t('escalation.edit') : t('escalation.add')}
      visible={editing !== null}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={add.isPending || edit.isPending}
      unmountOnExit
      style={{ width: 720, maxWidth: '100%' }}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={
          current
            ? {
                name: current.name,
                levels: current.levels,
                stationIds: current.stationIds,
                stopOnRecovery: current.stopOnRecovery,
                enabled: current.enabled,
              }
            : { levels: [2], stationIds: [], stopOnRecovery: true, enabled: true }
        }
      >
        <Form.Item label={t('escalation.form.name')} field="name" rules={[required]}>
          <Input maxLength={100} aria-label={t('escalation.form.name')} />
        </Form.Item>
        <Form.Item
          label={t('escalation.form.levels')}
          field="levels"
          rules={[{ required: true, type: 'array', minLength: 1, message: t('escalation.form.levelsRequired') }]}
        >
          <Checkbox.Group
            aria-label={t('escalation.form.levels')}
            options={LEVELS.map((l) => ({ value: l, label: t(`escalation.level.${l}`) }))}
          />
        </Form.Item>
        <Form.Item label={t('escalation.form.stations')} field="stationIds" extra={t('escalation.form.stationsHint')}>
          <Select
            mode="multiple"
            allowClear
            showSearch
            filterOption={(input, option) =>
              String((option as { props?: { children?: unknown } }).props?.children ?? '')
                .toLowerCase()
                .includes(input.toLowerCase())
            }
            aria-label={t('escalation.form.stations')}
            placeholder={t('escalation.allStations')}
            options={stationOptions}
          />
        </Form.Item>
        <Form.Item field="stopOnRecovery" triggerPropName="checked">
          <Checkbox>{t('escalation.form.stopOnRecovery')}</Checkbox>
        </Form.Item>
        <Form.Item label={t('escalation.form.enabled')} field="enabled" triggerPropName="checked">
          <Switch aria-label={t('escalation.form.enabled')} />
        </Form.Item>
      </Form>
      <FormList legend={t('escalation.form.steps')} hint={t('escalation.form.stepsHint')}>
        <div className={`${styles.stepRow} ${styles.rowHead}`} aria-hidden>
          <span>{t('escalation.form.after')}</span>
          <span>{t('escalation.form.target')}</span>
          <span>{t('escalation.form.who')}</span>
          <span />
        </div>
        {steps.map((s, i) => (
          <div key={i} className={styles.stepRow} data-testid="escalation-step">
            <InputNumber
              min={1}
              max={MAX_AFTER}
              precision={0}
              value={s.afterMinutes}
              aria-label={`${t('escalation.form.after')} ${i + 1}`}
              onChange={(v) => setStep(i, { afterMinutes: v ?? undefined })}
            />
            <Select
              value={s.target}
              aria-label={`${t('escalation.form.target')} ${i + 1}`}
              options={TARGETS.map((x) => ({ value: x, label: t(`escalation.target.${x}`) }))}
              onChange={(v: string) => setStep(i, { target: v, targetId: 0 })}
            />
            {s.target === 'oncall' ? (
              <span className={styles.muted}>{t('escalation.target.oncall')}</span>
            ) : (
              <Select
                showSearch
                value={s.targetId || undefined}
                aria-label={`${t('escalation.form.who')} ${i + 1}`}
                options={whoOptions(s.target)}
                onChange={(v: number) => setStep(i, { targetId: v })}
              />
            )}
            <Button
              icon={<IconDelete />}
              aria-label={t('escalation.form.removeStep', { n: i + 1 })}
              disabled={steps.length === 1}
              onClick={() => setSteps((list) => list.filter((_, k) => k !== i))}
            />
            {checked && problems[i] && (
              <span className={styles.error} role="alert">
                {t(problems[i])}
              </span>
            )}
          </div>
        ))}
        {checked && steps.length === 0 && (
          <p className={styles.error} role="alert">
            {t('escalation.form.stepsRequired')}
          </p>
        )}
        {serverSteps && (
          <p className={styles.error} role="alert">
            {serverSteps}
          </p>
        )}
        <Button
          icon={<IconPlus />}
          disabled={steps.length >= MAX_STEPS}
          onClick={() =>
            setSteps((list) => [...list, { afterMinutes: Math.min(MAX_AFTER, (list[list.length - 1]?.afterMinutes ?? 0) + 30), target: 'user', targetId: 0 }])
          }
        >
          {t('escalation.form.addStep')}
        </Button>
      </FormList>
    </Modal>
  );
}
