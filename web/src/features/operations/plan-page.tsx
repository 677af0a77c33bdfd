import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { FilterBar, FilterField } from '@/components/list/filter-bar';
import { stationChoices } from '@/components/list/station-filter';
import { Panel, PageHeader } from '@/components/panel';
import { PlainTable } from '@/components/plain-table';
import { LabelledSelect, Option } from '@/components/select';
import { useUser } from '@/lib/auth';
import { formatNumber } from '@/lib/format';
import { notifySuccess } from '@/lib/notify';
import { useStationOptions } from '@/lib/stations';
import { useQueryParams } from '@/lib/use-query-params';
import { type Proposal, useDecidePlan, useProposals, useStationFigures } from './api/plans';
import styles from './operations.module.css';
import { editorKey, PlanEditor } from './plan-editor';
import { PlanStatusTag } from './plan-status';
import { opsTexts } from './texts';

/** Starts loading the screen's texts as soon as the page's code arrives. */
export function prefetch(): void {
  void opsTexts.ready().catch(() => undefined);
}

function Figures({ stationId, year }: { stationId: number; year: number }) {
  const { t } = useTranslation();
  const figures = useStationFigures(stationId, year);
  const f = figures.data;
  return (
    <DataState loading={figures.isPending} error={figures.isError && !f} onRetry={() => void figures.refetch()} minHeight={120}>
      {f && (
        <PlainTable className={styles.plainTable} aria-label={t('ops.plan.figures')}>
          <thead>
            <tr>
              <th scope="col">{t('ops.plan.month')}</th>
              <th scope="col">{t('ops.plan.planned')}</th>
              <th scope="col">{t('ops.plan.actual')}</th>
              <th scope="col">{t('ops.plan.completion')}</th>
            </tr>
          </thead>
          <tbody>
            {f.months.map((m) => (
              <tr key={m.month}>
                <td>{t('common.monthShort', { month: m.month })}</td>
                <td>{formatNumber(m.planKwh, 0)}</td>
                <td>{formatNumber(m.actualKwh, 0)}</td>
                <td>{m.planKwh > 0 ? `${formatNumber(m.completion, 1)}%` : '-'}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{t('ops.plan.year')}</th>
              <td>{formatNumber(f.planKwh, 0)}</td>
              <td>{formatNumber(f.actualKwh, 0)}</td>
              <td data-testid="plan-year-completion">{f.planKwh > 0 ? `${formatNumber(f.completion, 1)}%` : '-'}</td>
            </tr>
          </tbody>
        </PlainTable>
      )}
    </DataState>
  );
}

function Decide({ proposal }: { proposal: Proposal }) {
  const { t } = useTranslation();
  const decide = useDecidePlan();
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const run = async (decision: 'approve' | 'refuse') => {
    try {
      await decide.mutateAsync({ id: proposal.id, decision, reason });
      notifySuccess(t(decision === 'approve' ? 'ops.plan.approved' : 'ops.plan.refused'));
      setRefusing(false);
      setReason('');
    } catch {
      // the request layer already said why
    }
  };
  const name = `${proposal.stationName} ${proposal.year}`;
  return (
    <>
      <Button size="mini" type="primary" onClick={() => void run('approve')} aria-label={t('ops.plan.approveNamed', { name })}>
        {t('ops.plan.approve')}
      </Button>{' '}
      <Button size="mini" status="danger" onClick={() => setRefusing(true)} aria-label={t('ops.plan.refuseNamed', { name })}>
        {t('ops.plan.refuse')}
      </Button>
      <Modal
        title={t('ops.plan.refuse')}
        visible={refusing}
        onOk={() => void (reason.trim() ? run('refuse') : undefined)}
        okButtonProps={{ disabled: reason.trim() === '' }}
        onCancel={() => setRefusing(false)}
        okText={t('ops.plan.refuse')}
        cancelText={t('common.cancel')}
        confirmLoading={decide.isPending}
        unmountOnExit
        focusLock
        autoFocus
      >
        <Input.TextArea aria-label={t('ops.plan.reason')} placeholder={t('ops.plan.reason')} value={reason} onChange={setReason} maxLength={500} autoSize={{ minRows: 3 }} />
      </Modal>
    </>
  );
}

function Proposals({ year }: { year: number }) {
  const { t } = useTranslation();
  const list = useProposals(year);
  const me = Number(useUser().data?.uid);
  const rows = list.data?.list ?? [];
  return (
    <DataState loading={list.isPending} error={list.isError && !list.data} empty={rows.length === 0} emptyText={t('ops.plan.noProposals')} onRetry={() => void list.refetch()} minHeight={120}>
      <PlainTable className={styles.plainTable} aria-label={t('ops.plan.proposals')}>
        <thead>
          <tr>
            <th scope="col">{t('ops.wo.field.station')}</th>
            <th scope="col">{t('ops.plan.yearTotal')}</th>
            <th scope="col">{t('ops.wo.field.status')}</th>
            <th scope="col">{t('ops.wo.field.submitter')}</th>
            <th scope="col">{t('ops.plan.approver')}</th>
            <th scope="col">{t('common.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.id}>
              <td>{p.stationName}</td>
              <td>{formatNumber(p.totalKwh, 0)}</td>
              <td>
                <PlanStatusTag status={p.status} /> {p.status === 4 && <span className={styles.muted}>{p.refusalReason}</span>}
              </td>
              <td>{p.submitter}</td>
              <td>{p.approver || '-'}</td>
              <td>{p.status === 2 && p.approverId === me ? <Decide proposal={p} /> : '-'}</td>
            </tr>
          ))}
        </tbody>
      </PlainTable>
    </DataState>
  );
}

/** Plans: per station and year, the editor (spread, edit, save, submit), plan against actual, and every proposal of the year with approval. */
export function PlanPage() {
  const { t } = useTranslation();
  const ready = opsTexts.useReady();
  const [params, setParams] = useQueryParams();
  const stations = useStationOptions();
  const thisYear = new Date().getFullYear();
  const year = Number(params.get('year')) || thisYear;
  const choices = useMemo(() => stationChoices(stations.data ?? []), [stations.data]);
  const stationId = Number(params.get('stationId')) || choices[0]?.id;
  const proposals = useProposals(year, stationId);
  const set = (key: string, value: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set(key, String(value));
      return next;
    });
  return (
    <>
      <PageHeader title={t('menu.operations.plan')} />
      {!ready ? (
        <DataState loading minHeight={320} />
      ) : (
        <div className={styles.page}>
          <FilterBar label={t('ops.plan.choose')}>
            <FilterField label={t('ops.wo.field.station')}>
              <LabelledSelect label={t('ops.wo.field.station')} showSearch style={{ width: 260 }} value={stationId} onChange={(v: number) => set('stationId', v)} loading={stations.isPending}>
                {choices.map((c) => (
                  <Option key={c.id} value={c.id}>
                    {c.label}
                  </Option>
                ))}
              </LabelledSelect>
            </FilterField>
            <FilterField label={t('ops.plan.year')}>
              <LabelledSelect label={t('ops.plan.year')} style={{ width: 120 }} value={year} onChange={(v: number) => set('year', v)}>
                {[thisYear - 2, thisYear - 1, thisYear, thisYear + 1].map((y) => (
                  <Option key={y} value={y}>
                    {y}
                  </Option>
                ))}
              </LabelledSelect>
            </FilterField>
          </FilterBar>
          {stationId === undefined ? (
            <DataState loading={stations.isPending} empty emptyText={t('ops.plan.noStations')} minHeight={160} />
          ) : (
            <>
              <div className={styles.section}>
                <Panel title={t('ops.plan.editor')}>
                  {/* another station's or year's proposal (kept while the new one loads) never seeds the editor:
                      what the user typed would be reset when the right one arrives */}
                  <DataState
                    loading={proposals.isPending || proposals.isPlaceholderData}
                    error={proposals.isError && !proposals.data}
                    onRetry={() => void proposals.refetch()}
                    minHeight={160}
                  >
                    <PlanEditor key={editorKey(stationId, year, proposals.data?.list[0])} stationId={stationId} year={year} proposal={proposals.data?.list[0]} />
                  </DataState>
                </Panel>
              </div>
              <div className={styles.section}>
                <Panel title={t('ops.plan.figures')}>
                  <Figures stationId={stationId} year={year} />
                </Panel>
              </div>
            </>
          )}
          <Panel title={t('ops.plan.proposals')}>
            <Proposals year={year} />
          </Panel>
        </div>
      )}
    </>
  );
}
