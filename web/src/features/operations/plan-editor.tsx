import Button from '@arco-design/web-react/es/Button';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { useUser } from '@/lib/auth';
import { formatNumber } from '@/lib/format';
import { notifySuccess } from '@/lib/notify';
import { type Proposal, spreadTotal, useSavePlan, useSubmitPlan } from './api/plans';
import { usePeople } from './api/work-orders';
import styles from './operations.module.css';
import { PlanStatusTag } from './plan-status';

/**
 * Which editor a station, year and proposal get: a new proposal (or a change to it) starts a
 * new editor from its months, so nothing resets what the user is typing meanwhile.
 */
export function editorKey(stationId: number, year: number, proposal?: Proposal): string {
  return `${stationId}/${year}/${proposal?.id ?? 0}/${proposal?.updatedAt ?? 0}`;
}

/**
 * The twelve months' plan of a station and year: spread a yearly total, edit, save, submit.
 * Its state starts from the proposal; mount it with editorKey so another proposal starts anew.
 */
export function PlanEditor({ stationId, year, proposal }: { stationId: number; year: number; proposal?: Proposal }) {
  const { t } = useTranslation();
  const [months, setMonths] = useState<number[]>(() => proposal?.months ?? Array(12).fill(0));
  const [total, setTotal] = useState<number | undefined>(proposal?.totalKwh || undefined);
  const [approver, setApprover] = useState<number | undefined>();
  const [spreading, setSpreading] = useState(false);
  const save = useSavePlan();
  const submit = useSubmitPlan();
  const people = usePeople();
  const me = Number(useUser().data?.uid);
  const locked = proposal?.status === 2;
  // while a spread is on its way, the months shown are about to be replaced: nothing is sent
  const busy = locked || spreading;
  const sum = months.reduce((a, b) => a + b, 0);

  const spread = async () => {
    if (!total) {
      return;
    }
    setSpreading(true);
    try {
      setMonths((await spreadTotal(stationId, year, total)).months);
    } catch {
      // the request layer already said why
    } finally {
      setSpreading(false);
    }
  };
  const saveDraft = async () => {
    try {
      const saved = await save.mutateAsync({ stationId, year, months });
      notifySuccess(t('ops.plan.saved'));
      return saved;
    } catch {
      return undefined;
    }
  };
  const send = async () => {
    if (!approver) {
      return;
    }
    const saved = await saveDraft();
    if (!saved) {
      return;
    }
    try {
      await submit.mutateAsync({ id: saved.id, approverId: approver });
      notifySuccess(t('ops.plan.submitted'));
    } catch {
      // the request layer already said why
    }
  };

  return (
    <div>
      <div className={styles.head}>
        {proposal ? <PlanStatusTag status={proposal.status} /> : <span className={styles.muted}>{t('ops.plan.noProposal')}</span>}
        {proposal?.status === 4 && (
          <span role="note" className={styles.late}>
            {t('ops.plan.refusedBecause', { reason: proposal.refusalReason, name: proposal.approver })}
          </span>
        )}
        {proposal?.status === 2 && <span className={styles.muted}>{t('ops.plan.waitingFor', { name: proposal.approver })}</span>}
      </div>
      <div className={styles.row} style={{ alignItems: 'center', margin: '8px 0 12px' }}>
        <label htmlFor="plan-total">{t('ops.plan.yearTotal')}</label>
        <InputNumber id="plan-total" aria-label={t('ops.plan.yearTotal')} min={0} max={1e10} precision={0} value={total} onChange={(v) => setTotal(v ?? undefined)} style={{ width: 180 }} suffix="kWh" disabled={locked} />
        <Button onClick={() => void spread()} loading={spreading} disabled={!total || locked}>
          {t('ops.plan.spread')}
        </Button>
        <span className={styles.muted}>{t('ops.plan.spreadHint')}</span>
      </div>
      <div className={styles.months} role="group" aria-label={t('ops.plan.months')}>
        {months.map((value, i) => (
          <label key={i} className={styles.month}>
            <span>{t('common.monthShort', { month: i + 1 })}</span>
            <InputNumber
              aria-label={t('ops.plan.monthLabel', { month: i + 1 })}
              min={0}
              max={1e10}
              precision={0}
              value={value}
              disabled={busy}
              onChange={(v) => setMonths((current) => current.map((m, j) => (j === i ? (v ?? 0) : m)))}
            />
          </label>
        ))}
      </div>
      <p className={styles.muted}>{t('ops.plan.sum', { kwh: formatNumber(sum, 0) })}</p>
      <div className={styles.row} style={{ alignItems: 'center' }}>
        <Button onClick={() => void saveDraft()} loading={save.isPending} disabled={busy}>
          {t('ops.plan.save')}
        </Button>
        <LabelledSelect
          label={t('ops.plan.approver')}
          placeholder={t('ops.plan.approver')}
          style={{ width: 220 }}
          value={approver}
          onChange={setApprover}
          disabled={locked}
        >
          {(people.data?.users ?? [])
            .filter((u) => u.admin && u.id !== me)
            .map((u) => (
              <Option key={u.id} value={u.id}>
                {u.name}
              </Option>
            ))}
        </LabelledSelect>
        <Button type="primary" onClick={() => void send()} loading={submit.isPending} disabled={busy || !approver || sum <= 0}>
          {t('ops.plan.submit')}
        </Button>
      </div>
    </div>
  );
}
