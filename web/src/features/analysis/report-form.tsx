import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { ApiError } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { browserTimeZone } from '@/lib/format';
import { notifySuccess } from '@/lib/notify';
import styles from './analysis.module.css';
import type { Metric } from './api/compare';
import type { PeriodQuery } from './api/overview';
import { type Parameters, type ReportParams, type Schedule, useAddRecord, useSaveReportTemplate } from './api/reports';
import { PeriodPicker, thisMonth } from './period-picker';

const DEFAULT_METRICS: Metric[] = ['yield', 'specificYield', 'pr', 'availability', 'co2', 'revenue'];

/** The report the form describes. */
export function toParams(p: Omit<ReportParams, 'period' | 'date' | 'from' | 'to'>, period: PeriodQuery): ReportParams {
  return { ...p, period: period.period, date: period.date ?? '', from: period.from ?? '', to: period.to ?? '' };
}

/** The report form (SPEC.md section 3): make a report now or save it as a template, optionally on a schedule. */
export function ReportForm({ parameters, language }: { parameters: Parameters; language: string }) {
  const { t } = useTranslation();
  const [base, setBase] = useState<Omit<ReportParams, 'period' | 'date' | 'from' | 'to'>>(() => ({
    selectionMode: 'all',
    stationIds: [],
    tagId: 0,
    template: 'summary',
    language: parameters.languages.includes(language) ? language : 'en-US',
    format: 'xlsx',
    fileName: '',
    stationInfo: true,
    subsystemInfo: false,
    deviceInfo: false,
    metrics: DEFAULT_METRICS,
  }));
  const [period, setPeriod] = useState<PeriodQuery>(thisMonth);
  // a schedule keeps the organisation's time zone unless the user picks another
  const zone = useUser().data?.organizationTimezone || browserTimeZone();
  const [schedule, setSchedule] = useState<Schedule>({ frequency: 'none', hour: 6, weekday: 1, monthDay: 1, timezone: '' });
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const add = useAddRecord();
  const save = useSaveReportTemplate();
  const set = (patch: Partial<typeof base>) => setBase((b) => ({ ...b, ...patch }));
  const params = toParams(base, period);
  const onError = (e: unknown) => setFieldErrors(e instanceof ApiError ? e.fields : {});

  return (
    <form aria-label={t('analysis.report.form')} onSubmit={(e) => e.preventDefault()}>
      <div className={styles.controls}>
        <LabelledSelect label={t('analysis.report.selection')} value={base.selectionMode} style={{ width: 180 }} onChange={(v: ReportParams['selectionMode']) => set({ selectionMode: v })}>
          {parameters.selectionModes.map((m) => (
            <Option key={m} value={m}>
              {t(`analysis.report.selection.${m}`)}
            </Option>
          ))}
        </LabelledSelect>
        {base.selectionMode === 'stations' && (
          <LabelledSelect label={t('analysis.compare.stations')} mode="multiple" value={base.stationIds} style={{ minWidth: 280 }} onChange={(v: number[]) => set({ stationIds: v })}>
            {parameters.stations.map((s) => (
              <Option key={s.id} value={s.id}>
                {s.name}
              </Option>
            ))}
          </LabelledSelect>
        )}
        {base.selectionMode === 'tag' && (
          <LabelledSelect label={t('analysis.report.tag')} value={base.tagId || undefined} style={{ width: 200 }} onChange={(v: number) => set({ tagId: v })}>
            {parameters.tags.map((s) => (
              <Option key={s.id} value={s.id}>
                {s.name}
              </Option>
            ))}
          </LabelledSelect>
        )}
        <LabelledSelect label={t('analysis.report.template')} value={base.template} style={{ width: 160 }} onChange={(v: ReportParams['template']) => set({ template: v })}>
          {parameters.templates.map((m) => (
            <Option key={m} value={m}>
              {t(`analysis.report.template.${m}`)}
            </Option>
          ))}
        </LabelledSelect>
        {schedule.frequency === 'none' && <PeriodPicker value={period} onChange={setPeriod} />}
      </div>
      <div className={styles.controls}>
        <LabelledSelect label={t('analysis.report.language')} value={base.language} style={{ width: 160 }} onChange={(v: string) => set({ language: v })}>
          {parameters.languages.map((l) => (
            <Option key={l} value={l}>
              {t(`analysis.language.${l}`)}
            </Option>
          ))}
        </LabelledSelect>
        <LabelledSelect label={t('analysis.report.format')} value={base.format} style={{ width: 110 }} onChange={(v: ReportParams['format']) => set({ format: v })}>
          {parameters.formats.map((f) => (
            <Option key={f} value={f}>
              {f.toUpperCase()}
            </Option>
          ))}
        </LabelledSelect>
        <Input
          aria-label={t('analysis.report.fileName')}
          placeholder={t('analysis.report.fileName')}
          value={base.fileName}
          maxLength={80}
          style={{ width: 220 }}
          status={fieldErrors.fileName ? 'error' : undefined}
          onChange={(v) => set({ fileName: v })}
        />
        <Checkbox checked={base.stationInfo} onChange={(v: boolean) => set({ stationInfo: v })}>
          {t('analysis.report.stationInfo')}
        </Checkbox>
        <Checkbox checked={base.subsystemInfo} onChange={(v: boolean) => set({ subsystemInfo: v })}>
          {t('analysis.report.subsystemInfo')}
        </Checkbox>
        <Checkbox checked={base.deviceInfo} onChange={(v: boolean) => set({ deviceInfo: v })}>
          {t('analysis.report.deviceInfo')}
        </Checkbox>
      </div>
      <div className={styles.controls}>
        <LabelledSelect
          label={t('analysis.report.metrics')}
          mode="multiple"
          value={base.metrics}
          style={{ minWidth: 480, maxWidth: 900 }}
          onChange={(v: Metric[]) => set({ metrics: v })}
        >
          {parameters.metrics.map((m) => (
            <Option key={m.key} value={m.key}>
              {t(`analysis.metric.${m.key}`)}
            </Option>
          ))}
        </LabelledSelect>
        <Button
          type="primary"
          loading={add.isPending}
          onClick={() =>
            add.mutate(
              { templateId: 0, params },
              { onSuccess: () => { setFieldErrors({}); notifySuccess(t('analysis.report.queued')); }, onError },
            )
          }
        >
          {t('analysis.report.generate')}
        </Button>
      </div>
      {Object.keys(fieldErrors).length > 0 && (
        <p role="alert" className={styles.muted}>
          {Object.entries(fieldErrors).map(([f, m]) => `${f}: ${m}`).join(' · ')}
        </p>
      )}
      <h2 className={styles.section}>{t('analysis.report.saveTemplate')}</h2>
      <div className={styles.controls}>
        <Input aria-label={t('analysis.template.name')} placeholder={t('analysis.template.name')} value={name} onChange={setName} style={{ width: 200 }} maxLength={100} />
        <Checkbox checked={shared} onChange={setShared}>
          {t('analysis.template.shared')}
        </Checkbox>
        <LabelledSelect label={t('analysis.schedule')} value={schedule.frequency} style={{ width: 150 }} onChange={(v: Schedule['frequency']) => setSchedule((s) => ({ ...s, frequency: v }))}>
          {parameters.frequencies.map((f) => (
            <Option key={f} value={f}>
              {t(`analysis.schedule.${f}`)}
            </Option>
          ))}
        </LabelledSelect>
        {schedule.frequency === 'weekly' && (
          <LabelledSelect label={t('analysis.schedule.weekday')} value={schedule.weekday} style={{ width: 120 }} onChange={(v: number) => setSchedule((s) => ({ ...s, weekday: v }))}>
            {[1, 2, 3, 4, 5, 6, 7].map((d) => (
              <Option key={d} value={d}>
                {t(`analysis.weekday.${d}`)}
              </Option>
            ))}
          </LabelledSelect>
        )}
        {schedule.frequency === 'monthly' && (
          <LabelledSelect label={t('analysis.schedule.monthDay')} value={schedule.monthDay} style={{ width: 100 }} onChange={(v: number) => setSchedule((s) => ({ ...s, monthDay: v }))}>
            {Array.from({ length: 28 }, (_, i) => (
              <Option key={i + 1} value={i + 1}>
                {String(i + 1)}
              </Option>
            ))}
          </LabelledSelect>
        )}
        {schedule.frequency !== 'none' && (
          <>
            <LabelledSelect label={t('analysis.schedule.hour')} value={schedule.hour} style={{ width: 100 }} onChange={(v: number) => setSchedule((s) => ({ ...s, hour: v }))}>
              {Array.from({ length: 24 }, (_, i) => (
                <Option key={i} value={i}>
                  {`${String(i).padStart(2, '0')}:00`}
                </Option>
              ))}
            </LabelledSelect>
            <TimeZoneSelect
              label={t('analysis.schedule.timezone')}
              value={schedule.timezone || zone}
              style={{ width: 220 }}
              onChange={(v: string) => setSchedule((s) => ({ ...s, timezone: v }))}
            />
          </>
        )}
        <Button
          loading={save.isPending}
          disabled={!name.trim()}
          onClick={() =>
            save.mutate(
              { name, shared, config: { params, schedule: { ...schedule, timezone: schedule.timezone || zone } } },
              { onSuccess: () => { setFieldErrors({}); setName(''); notifySuccess(t('analysis.template.saved')); }, onError },
            )
          }
        >
          {t('analysis.template.save')}
        </Button>
      </div>
    </form>
  );
}
