import Empty from '@arco-design/web-react/es/Empty';
import Form from '@arco-design/web-react/es/Form';
import '@arco-design/web-react/es/Empty/style/css.js';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartSpec } from '@/components/chart/chart';
import type { ChartTheme } from '@/components/chart/chart-theme';
import { Panel } from '@/components/panel';
import { LabelledSelect } from '@/components/select';
import { formatNumber, formatQuantity } from '@/lib/format';
import { useStationOptions } from '@/lib/stations';
import { fetchStationSite, useEstimateYield, type YieldInput, type YieldResult } from './api';
import { type NumberField, NumberForm } from './number-form';
import styles from './tools.module.css';

const FIELDS: readonly NumberField[] = [
  { name: 'lat', step: 0.1 },
  { name: 'lng', step: 0.1 },
  { name: 'altitudeM', integer: true, step: 10 },
  { name: 'capacityKwp', step: 10 },
  { name: 'tiltDeg' },
  { name: 'azimuthDeg' },
  { name: 'lossesPct', step: 0.5 },
];

const START: Omit<YieldInput, 'stationId'> = { lat: 31.2, lng: 121.5, altitudeM: 10, capacityKwp: 100, tiltDeg: 25, azimuthDeg: 180, lossesPct: 3 };

/** The yield estimator: a site and an array in, monthly and yearly kWh out, with a chart. */
export function YieldPanel() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Omit<YieldInput, 'stationId'>>();
  const [stationId, setStationId] = useState(0);
  const stations = useStationOptions();
  const estimate = useEstimateYield();
  const result = estimate.data;

  const pickStation = (id: number) => {
    setStationId(id);
    if (id > 0) {
      void fetchStationSite(id)
        .then((site) =>
          form.setFieldsValue({ lat: site.lat, lng: site.lng, capacityKwp: site.capacityKwp, tiltDeg: site.inclination, azimuthDeg: site.azimuth }),
        )
        .catch(() => undefined);
    }
  };

  return (
    <Panel title={t('tools.yield.title')}>
      <p className={styles.intro}>{t('tools.yield.intro')}</p>
      <div className={styles.split}>
        <NumberForm
          form={form}
          fields={FIELDS}
          initialValues={START}
          submitLabel={t('tools.yield.submit')}
          pending={estimate.isPending}
          onSubmit={(values) => estimate.mutateAsync({ ...values, stationId })}
          before={
            <Form.Item label={t('tools.yield.station')}>
              <LabelledSelect
                label={t('tools.yield.station')}
                value={stationId || undefined}
                allowClear
                showSearch
                loading={stations.isPending}
                placeholder={t('tools.yield.climate.latitude', { year: new Date().getFullYear() - 1 })}
                onChange={(value?: number) => pickStation(value ?? 0)}
                options={(stations.data ?? []).filter((s) => s.parentId === 0).map((s) => ({ label: s.name, value: s.id }))}
                filterOption={(input, option) =>
                  String((option as { props?: { children?: unknown } }).props?.children ?? '')
                    .toLowerCase()
                    .includes(input.toLowerCase())
                }
              />
            </Form.Item>
          }
        />
        {result ? <YieldAnswer result={result} /> : <Empty description={t('tools.yield.empty')} />}
      </div>
    </Panel>
  );
}

function YieldAnswer({ result }: { result: YieldResult }) {
  const { t } = useTranslation();
  const spec = useCallback(
    (theme: ChartTheme): ChartSpec => ({
      categories: result.monthlyKwh.map((_, i) => t('common.monthShort', { month: i + 1 })),
      format: (value) => formatNumber(value, 0),
      axes: [{ name: result.unit }],
      series: [{ name: t('tools.yield.monthly'), kind: 'bar', unit: result.unit, color: theme.color('primary'), data: result.monthlyKwh }],
    }),
    [result, t],
  );
  return (
    <div aria-live="polite">
      <dl className={styles.figures}>
        <div>
          <dt>{t('tools.yield.annual')}</dt>
          <dd data-testid="yield-annual" title={`${result.annualKwh} kWh`}>
            {formatQuantity(result.annualKwh, 'kWh', { digits: 0 })}
          </dd>
        </div>
        <div>
          <dt>{t('tools.yield.specific')}</dt>
          <dd>{formatQuantity(result.specificYieldKwhKwp, 'kWh/kWp', { digits: 0 })}</dd>
        </div>
        <div>
          <dt>{t('tools.yield.pr')}</dt>
          <dd>{formatQuantity(result.performanceRatio, '%', { digits: 1 })}</dd>
        </div>
        <div>
          <dt>{t('tools.yield.poa')}</dt>
          <dd>{formatQuantity(result.poaKwhM2, 'kWh/m²', { digits: 0 })}</dd>
        </div>
      </dl>
      <p className={styles.muted}>{t(`tools.yield.climate.${result.climate}`, { year: result.year })}</p>
      <div className={styles.chart}>
        <Chart spec={spec} label={t('tools.yield.monthly')} />
      </div>
    </div>
  );
}
