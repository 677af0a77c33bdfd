import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { ApiError } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { MAX_SLOTS, rotaQuery, type Slot, slotProblem, useSaveRota, WEEKDAYS } from './api';
import styles from './escalation.module.css';

/**
 * The on-call rota: weekly slots in the organisation's zone, edited as rows and saved at once,
 * and who is on call now.
 */
export function RotaPanel() {
  const { t } = useTranslation();
  const rota = useQuery(rotaQuery);
  const save = useSaveRota();
  const [slots, setSlots] = useState<Partial<Slot>[]>([]);
  const [checked, setChecked] = useState(false);
  const [serverError, setServerError] = useState('');

  const reset = () => {
    setSlots((rota.data?.slots ?? []).map((s) => ({ ...s })));
    setChecked(false);
    setServerError('');
  };
  // the rota as stored, whenever it is read (not when "on call now" is read again unchanged)
  const stored = JSON.stringify(rota.data?.slots ?? []);
  useEffect(reset, [stored]); // eslint-disable-line react-hooks/exhaustive-deps

  const setSlot = (i: number, patch: Partial<Slot>) => setSlots((list) => list.map((s, k) => (k === i ? { ...s, ...patch } : s)));
  const problems = slots.map(slotProblem);

  const submit = async () => {
    setChecked(true);
    if (problems.some(Boolean)) return;
    try {
      await save.mutateAsync(slots.map((s) => ({ weekday: s.weekday ?? 1, start: s.start ?? '', end: s.end ?? '', userId: s.userId ?? 0 })));
      notifySuccess(t('escalation.rota.saved'));
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        setServerError(Object.values(err.fields).join(' '));
        return;
      }
      notifyError(t('escalation.failed', { reason: err instanceof Error ? err.message : String(err) }));
    }
  };

  const data = rota.data;
  const users = (data?.users ?? []).map((u) => ({ value: u.id, label: u.name }));
  return (
    <Panel title={t('escalation.rota.title')} className={styles.panelGap}>
      <p className={styles.intro}>{t('escalation.rota.intro')}</p>
      <DataState loading={rota.isPending} error={rota.isError} onRetry={() => void rota.refetch()} minHeight={160}>
        {data && (
          <>
            <p className={styles.status} role="status" data-testid="oncall-now">
              {t('escalation.rota.zone', { zone: data.timeZone })} ·{' '}
              {data.onCall.length > 0
                ? t('escalation.rota.now', { names: data.onCall.map((u) => u.name).join(', ') })
                : t('escalation.rota.nowNobody')}
            </p>
            {slots.length === 0 ? (
              <p className={styles.muted}>{t('escalation.rota.empty')}</p>
            ) : (
              <div className={`${styles.slotRow} ${styles.rowHead}`} aria-hidden>
                <span>{t('escalation.rota.weekday')}</span>
                <span>{t('escalation.rota.start')}</span>
                <span>{t('escalation.rota.end')}</span>
                <span>{t('escalation.rota.user')}</span>
                <span />
              </div>
            )}
            {slots.map((s, i) => (
              <div key={i} className={styles.slotRow} data-testid="oncall-slot">
                <Select
                  value={s.weekday}
                  aria-label={`${t('escalation.rota.weekday')} ${i + 1}`}
                  options={WEEKDAYS.map((d) => ({ value: d, label: t(`escalation.rota.day.${d}`) }))}
                  onChange={(v: number) => setSlot(i, { weekday: v })}
                />
                <Input
                  value={s.start}
                  placeholder="08:00"
                  maxLength={5}
                  aria-label={`${t('escalation.rota.start')} ${i + 1}`}
                  onChange={(v) => setSlot(i, { start: v.trim() })}
                />
                <Input
                  value={s.end}
                  placeholder="18:00"
                  maxLength={5}
                  aria-label={`${t('escalation.rota.end')} ${i + 1}`}
                  onChange={(v) => setSlot(i, { end: v.trim() })}
                />
                <Select
                  showSearch
                  value={s.userId || undefined}
                  aria-label={`${t('escalation.rota.user')} ${i + 1}`}
                  options={users}
                  onChange={(v: number) => setSlot(i, { userId: v })}
                />
                <Button
                  icon={<IconDelete />}
                  aria-label={t('escalation.rota.remove', { n: i + 1 })}
                  onClick={() => setSlots((list) => list.filter((_, k) => k !== i))}
                />
                {checked && problems[i] && (
                  <span className={styles.error} role="alert">
                    {t(problems[i] ?? '')}
                  </span>
                )}
              </div>
            ))}
            {serverError && (
              <p className={styles.error} role="alert">
                {serverError}
              </p>
            )}
            <div className={styles.actions}>
              <Button
                icon={<IconPlus />}
                disabled={slots.length >= MAX_SLOTS}
                onClick={() => setSlots((list) => [...list, { weekday: 1, start: '08:00', end: '18:00' }])}
              >
                {t('escalation.rota.add')}
              </Button>
              <Button type="primary" loading={save.isPending} onClick={() => void submit()}>
                {t('escalation.rota.save')}
              </Button>
              <Button onClick={reset}>{t('escalation.rota.undo')}</Button>
            </div>
          </>
        )}
      </DataState>
    </Panel>
  );
}
