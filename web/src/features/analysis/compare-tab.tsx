import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartSpec } from '@/components/chart/chart';
import type { ChartTheme } from '@/components/chart/chart-theme';
import { DataState } from '@/components/data-state';
import { LabelledSelect, Option } from '@/components/select';
import { formatNumber } from '@/lib/format';
import { notifySuccess } from '@/lib/notify';
import styles from './analysis.module.css';
import {
  type CompareConfig,
  type CompareMode,
  METRICS,
  type Metric,
  MODES,
  useCompareRun,
  useCompareTemplates,
  useDeleteCompareTemplate,
  useSaveCompareTemplate,
} from './api/compare';
import { PERIODS, type PeriodQuery } from './api/overview';
import { useParameters } from './api/reports';
import { PeriodPicker, thisMonth } from './period-picker';

const thisYear = new Date().getFullYear();
const YEARS = Array.from({ length: 6 }, (_, i) => thisYear - i);

/** value when it is one of known, else fallback. */
function oneOf<T extends string>(value: string, known: readonly T[], fallback: T): T {
  return (known as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** The comparison the form describes, as the server takes it. */
export function toConfig(mode: CompareMode, metric: Metric, stationIds: number[], period: PeriodQuery, month: number, years: number[]): CompareConfig {
  return {
    mode,
    metric,
    stationIds,
    deviceIds: [],
    period: mode === 'stations' || mode === 'median' ? period.period : '',
    date: period.date ?? '',
    from: period.from ?? '',
    to: period.to ?? '',
    month: mode === 'sameMonth' ? month : 0,
    years: mode === 'sameMonth' || mode === 'yearToDate' ? years : [],
  };
}

/** Compare stations, a station against the fleet median, or years, on any KPI; save the setup as a template. */
export function CompareTab() {
  const { t } = useTranslation();
  const params = useParameters();
  const [mode, setMode] = useState<CompareMode>('stations');
  const [metric, setMetric] = useState<Metric>('yield');
  const [stationIds, setStationIds] = useState<number[]>([]);
  const [period, setPeriod] = useState<PeriodQuery>(thisMonth);
  const [month, setMonth] = useState(new Date().getMonth() + 1);
  const [years, setYears] = useState<number[]>([thisYear - 1, thisYear]);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const run = useCompareRun();
  const templates = useCompareTemplates();
  const save = useSaveCompareTemplate();
  const remove = useDeleteCompareTemplate();
  const result = run.data;
  const config = toConfig(mode, metric, stationIds, period, month, years);

  const load = (c: CompareConfig) => {
    // a saved configuration's names are checked against what this screen knows
    setMode(c.mode === 'devices' ? 'stations' : oneOf(c.mode, MODES, mode));
    setMetric(oneOf(c.metric, METRICS, metric));
    setStationIds(c.stationIds ?? []);
    if (c.period) {
      setPeriod({ period: oneOf(c.period, PERIODS, period.period), date: c.date, from: c.from, to: c.to });
    }
    if (c.month) {
      setMonth(c.month);
    }
    if (c.years?.length) {
      setYears(c.years);
    }
    run.mutate(c);
  };

  const spec = useCallback(
    (theme: ChartTheme): ChartSpec => ({
      categories: result?.labels ?? [],
      legend: true,
      axes: [{ name: result?.unit }],
      series: (result?.series ?? []).map((s, i) => ({
        name: s.name === 'median' ? t('analysis.compare.median') : s.name,
        kind: (result?.labels.length ?? 0) > 16 ? 'line' : 'bar',
        unit: result?.unit,
        color: theme.palette[i % theme.palette.length],
        data: s.values,
      })),
    }),
    [result, t],
  );

  const multi = mode === 'stations';
  return (
    <div>
      <div className={styles.controls}>
        <LabelledSelect label={t('analysis.compare.mode')} value={mode} style={{ width: 220 }} onChange={(m: CompareMode) => { setMode(m); setStationIds([]); }}>
          {MODES.map((m) => (
            <Option key={m} value={m}>
              {t(`analysis.compare.mode.${m}`)}
            </Option>
          ))}
        </LabelledSelect>
        <LabelledSelect label={t('analysis.compare.metric')} value={metric} style={{ width: 220 }} onChange={(m: Metric) => setMetric(m)}>
          {METRICS.map((m) => (
            <Option key={m} value={m}>
              {t(`analysis.metric.${m}`)}
            </Option>
          ))}
        </LabelledSelect>
        <LabelledSelect
          label={t('analysis.compare.stations')}
          placeholder={mode === 'sameMonth' || mode === 'yearToDate' ? t('analysis.scope.fleet') : t('analysis.compare.stations')}
          mode={multi ? 'multiple' : undefined}
          allowClear
          value={multi ? stationIds : stationIds[0]}
          style={{ minWidth: 280, maxWidth: 520 }}
          onChange={(v: number[] | number | undefined) => setStationIds(Array.isArray(v) ? v : v ? [v] : [])}
        >
          {params.data?.stations.map((s) => (
            <Option key={s.id} value={s.id}>
              {s.name}
            </Option>
          ))}
        </LabelledSelect>
        {(mode === 'stations' || mode === 'median') && <PeriodPicker value={period} onChange={setPeriod} />}
        {mode === 'sameMonth' && (
          <LabelledSelect label={t('analysis.compare.month')} value={month} style={{ width: 120 }} onChange={(m: number) => setMonth(m)}>
            {Array.from({ length: 12 }, (_, i) => (
              <Option key={i + 1} value={i + 1}>
                {t(`analysis.month.${i + 1}`)}
              </Option>
            ))}
          </LabelledSelect>
        )}
        {(mode === 'sameMonth' || mode === 'yearToDate') && (
          <LabelledSelect label={t('analysis.compare.years')} mode="multiple" value={years} style={{ minWidth: 200 }} onChange={(v: number[]) => setYears(v)}>
            {YEARS.map((y) => (
              <Option key={y} value={y}>
                {String(y)}
              </Option>
            ))}
          </LabelledSelect>
        )}
        <Button type="primary" loading={run.isPending} onClick={() => run.mutate(config)}>
          {t('analysis.compare.run')}
        </Button>
      </div>
      <div className={styles.columns}>
        <div>
          <DataState loading={run.isPending && !result} empty={!result} emptyText={t('analysis.compare.hint')} minHeight={280}>
            {result && (
              <>
                <div className={styles.chart}>
                  <Chart
                    spec={spec}
                    label={t('analysis.compare.chart')}
                    empty={result.labels.length === 0}
                    zoom
                    exportName={`compare-${metric}-${mode}`}
                  />
                </div>
                <table className={styles.table} aria-label={t('analysis.compare.table')}>
                  <thead>
                    <tr>
                      <th>{t('analysis.compare.subject')}</th>
                      <th className={styles.num}>
                        {t(`analysis.metric.${result.metric}`)} {result.unit && `(${result.unit})`}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.series.map((s) => (
                      <tr key={s.name}>
                        <td>{s.name === 'median' ? t('analysis.compare.median') : s.name}</td>
                        <td className={styles.num}>{formatNumber(s.total)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
          </DataState>
        </div>
        <div>
          <h2 className={styles.section}>{t('analysis.templates')}</h2>
          <div className={styles.controls}>
            <Input aria-label={t('analysis.template.name')} placeholder={t('analysis.template.name')} value={name} onChange={setName} style={{ width: 200 }} maxLength={100} />
            <Checkbox checked={shared} onChange={setShared}>
              {t('analysis.template.shared')}
            </Checkbox>
            <Button
              loading={save.isPending}
              disabled={!name.trim()}
              onClick={() => save.mutate({ name, shared, config }, { onSuccess: () => { notifySuccess(t('analysis.template.saved')); setName(''); } })}
            >
              {t('analysis.template.save')}
            </Button>
          </div>
          <DataState loading={templates.isPending} error={templates.isError} empty={templates.data?.list.length === 0} emptyText={t('analysis.template.none')} minHeight={120}>
            <table className={styles.table} aria-label={t('analysis.templates')}>
              <tbody>
                {templates.data?.list.map((tpl) => (
                  <tr key={tpl.id}>
                    <td>
                      {tpl.name} {tpl.shared && <span className={styles.muted}>· {t('analysis.template.sharedBy', { owner: tpl.owner })}</span>}
                    </td>
                    <td className={styles.actions}>
                      <Button size="mini" onClick={() => load(tpl.config)}>
                        {t('analysis.template.open')}
                      </Button>
                      {tpl.mine && (
                        <Button size="mini" status="danger" onClick={() => remove.mutate(tpl.id)}>
                          {t('analysis.template.delete')}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </DataState>
        </div>
      </div>
    </div>
  );
}
