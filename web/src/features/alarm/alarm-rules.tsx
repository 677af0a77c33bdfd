import Button from '@arco-design/web-react/es/Button';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Switch from '@arco-design/web-react/es/Switch';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import '@arco-design/web-react/es/Switch/style/css.js';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { LabelledSelect, Option } from '@/components/select';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import styles from './alarm.module.css';
import { ALARM_LEVELS } from './api/alarms';
import { type Rule, type RuleInput, type RuleSpec, useAlarmRules, useSaveAlarmRules } from './api/notify';

type Draft = Record<string, { enabled: boolean; level: number; params: Record<string, number | undefined> }>;

function draftOf(rules: readonly Rule[]): Draft {
  return Object.fromEntries(
    rules.map((rule) => [rule.key, { enabled: rule.enabled, level: rule.level, params: { ...(rule.params ?? {}) } }]),
  );
}

/** What changed between the saved rules and the draft, as POST /v2/warn/rules takes it. */
export function changedRules(saved: readonly Rule[], draft: Draft): RuleInput[] {
  const out: RuleInput[] = [];
  for (const rule of saved) {
    const next = draft[rule.key];
    if (!next) {
      continue;
    }
    const input: RuleInput = { key: rule.key };
    if (next.enabled !== rule.enabled) {
      input.enabled = next.enabled;
    }
    if (next.level !== rule.level) {
      input.level = next.level;
    }
    const params: Record<string, number> = {};
    for (const [name, value] of Object.entries(next.params)) {
      if (value !== undefined && value !== rule.params?.[name]) {
        params[name] = value;
      }
    }
    if (Object.keys(params).length > 0) {
      input.params = params;
    }
    if (Object.keys(input).length > 1) {
      out.push(input);
    }
  }
  return out;
}

function RuleRow({
  rule,
  spec,
  value,
  errors,
  onChange,
}: {
  rule: Rule;
  spec: RuleSpec | undefined;
  value: Draft[string];
  errors: Record<string, string>;
  onChange: (next: Draft[string]) => void;
}) {
  const { t } = useTranslation();
  const name = t(`alarm.rule.${rule.key}`, { defaultValue: rule.key });
  return (
    <li className={styles.rule}>
      <div className={styles.ruleHead}>
        <div>
          <h3 className={styles.ruleName}>{name}</h3>
          <p className={styles.muted}>{t(`alarm.rule.${rule.key}.doc`, { defaultValue: spec?.doc ?? '' })}</p>
          <p className={styles.ruleMeta}>
            {t(`alarm.type.${rule.type}`)} · {t('alarm.rules.appliesTo')}{' '}
            {(spec?.devices ?? []).map((device) => t(`alarm.deviceType.${device}`, { defaultValue: device })).join(', ')}
          </p>
        </div>
        <div className={styles.ruleControls}>
          <Switch
            checked={value.enabled}
            onChange={(enabled) => onChange({ ...value, enabled })}
            aria-label={t('alarm.rules.enabledOf', { name })}
          />
          <LabelledSelect
            label={t('alarm.rules.levelOf', { name })}
            className={styles.levelSelect}
            value={value.level}
            onChange={(level: number) => onChange({ ...value, level })}
          >
            {ALARM_LEVELS.map((level) => (
              <Option key={level} value={level}>
                {t(`alarm.level.${level}`)}
              </Option>
            ))}
          </LabelledSelect>
        </div>
      </div>
      {(spec?.params ?? []).length > 0 && (
        <div className={styles.params}>
          {(spec?.params ?? []).map((param) => {
            const label = t(`alarm.param.${param.name}`, { defaultValue: param.name });
            const error = errors[param.name];
            return (
              <label key={param.name} className={styles.param}>
                <span>{label}</span>
                <InputNumber
                  value={value.params[param.name] ?? param.default}
                  min={param.min}
                  max={param.max}
                  step={param.integer ? 1 : 0.05}
                  precision={param.integer ? 0 : undefined}
                  suffix={param.unit || undefined}
                  error={Boolean(error)}
                  aria-label={`${name}: ${label}`}
                  onChange={(next) =>
                    onChange({ ...value, params: { ...value.params, [param.name]: next === undefined || next === null ? undefined : Number(next) } })
                  }
                />
                <span className={error ? styles.paramError : styles.muted}>
                  {error ?? t('alarm.rules.range', { min: param.min, max: param.max, value: param.default })}
                </span>
              </label>
            );
          })}
        </div>
      )}
    </li>
  );
}

/** The organisation's alarm rules and thresholds (admin; GET/POST /v2/warn/rules). */
export function AlarmRules() {
  const { t } = useTranslation();
  const rules = useAlarmRules(true);
  const save = useSaveAlarmRules();
  const view = rules.data;
  const saved = useMemo(() => draftOf(view?.rules ?? []), [view]);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, Record<string, string>>>({});
  const current = draft ?? saved;
  const changes = view ? changedRules(view.rules, current) : [];

  const submit = async () => {
    setErrors({});
    try {
      await save.mutateAsync(changes);
      setDraft(null);
      notifySuccess(t('alarm.rules.saved'));
    } catch (error) {
      if (error instanceof ApiError) {
        // rules[i].params.name → the rule and threshold it names.
        const next: Record<string, Record<string, string>> = {};
        for (const [field, message] of Object.entries(error.fields)) {
          const match = /^rules\[(\d+)\](?:\.params\.(\w+)|\.(\w+))?/.exec(field);
          const rule = match ? changes[Number(match[1])] : undefined;
          if (rule) {
            next[rule.key] = { ...next[rule.key], [match?.[2] ?? match?.[3] ?? 'key']: message };
          }
        }
        setErrors(next);
      }
    }
  };

  return (
    <section className={styles.settings} aria-labelledby="alarm-rules-title">
      <h2 id="alarm-rules-title" className={styles.sectionTitle}>
        {t('alarm.tab.rules')}
      </h2>
      <p className={styles.muted}>{t('alarm.rules.intro')}</p>
      <DataState loading={rules.isPending} error={rules.isError} onRetry={() => void rules.refetch()} minHeight={240}>
        <ul className={styles.rules}>
          {(view?.rules ?? []).map((rule) => (
            <RuleRow
              key={rule.key}
              rule={rule}
              spec={view?.specs.find((spec) => spec.key === rule.key)}
              value={current[rule.key] ?? { enabled: rule.enabled, level: rule.level, params: {} }}
              errors={errors[rule.key] ?? {}}
              onChange={(next) => setDraft({ ...current, [rule.key]: next })}
            />
          ))}
        </ul>
        <div className={styles.formActions}>
          <Button type="primary" disabled={changes.length === 0} loading={save.isPending} onClick={() => void submit()}>
            {t('alarm.rules.save')}
          </Button>
          <Button
            disabled={draft === null}
            onClick={() => {
              setDraft(null);
              setErrors({});
            }}
          >
            {t('alarm.rules.undo')}
          </Button>
        </div>
      </DataState>
    </section>
  );
}
