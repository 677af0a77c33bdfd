import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import styles from './analysis.module.css';
import type { Overview } from './api/overview';
import { type Card, flowCards, flowKind } from './flow-cards';

const n = (v: number | null | undefined, digits = 2) => formatNumber(v ?? null, digits);

/** Every KPI of the overview beside its formula, the formula filled in with the period's figures. */
export function cards(o: Overview): Card[] {
  if (flowKind(o)) {
    return flowCards(o);
  }
  const { totals: x, kpis: k, site, model } = o;
  const perCurrency = o.revenue.map((r) => `${n(r.amount)} ${r.currency}`).join(' + ');
  // several currencies: each on its own, then the total in the base currency (each month at its rate)
  const base = o.revenueBase;
  const revenue =
    base && o.revenue.length > 0 && !(o.revenue.length === 1 && o.revenue[0]!.currency === base.currency)
      ? `${perCurrency} = ${n(base.amount)} ${base.currency}${(base.unconverted ?? []).length > 0 ? ` (+ ${(base.unconverted ?? []).join(', ')})` : ''}`
      : perCurrency;
  const list: Card[] = [
    { key: 'yield', value: k.yieldKwh, unit: 'kWh', formula: { pv: n(x.pvKwh) } },
    { key: 'specificYield', value: k.specificYield, unit: 'kWh/kWp', formula: { kwh: n(x.pvKwh), kwp: n(site.capacityKwp) } },
    { key: 'equivalentHours', value: k.equivalentHours, unit: 'h', formula: { kwh: n(x.pvKwh), kwp: n(site.capacityKwp) } },
    { key: 'pr', value: k.pr, unit: '%', formula: { kwh: n(x.pvKwh), ref: n(x.refEnergyKwh) } },
    {
      key: 'prTemp',
      value: k.prTemp,
      unit: '%',
      formula: { kwh: n(x.pvKwh), tref: n(x.tempRefKwh), gamma: n(model.tempCoeffPerC * 100, 2) },
    },
    {
      key: 'availability',
      value: k.availability,
      unit: '%',
      formula: { online: n(x.onlineMin, 0), fault: n(x.faultMin, 0), total: n(x.inverterMin, 0) },
    },
    { key: 'co2', value: k.co2Kg, unit: 'kg', formula: { kwh: n(x.pvKwh), factor: n(model.emissionFactorKgPerKwh, 3) } },
    { key: 'revenue', value: k.revenue, unit: k.currency, formula: { sum: revenue || '–' } },
    {
      key: 'expected',
      value: k.expectedKwh,
      unit: 'kWh',
      formula: { tref: n(x.tempRefKwh), loss: n(model.systemLoss, 2), eta: n(model.inverterEta, 2) },
    },
    { key: 'actualVsExpected', value: k.actualVsExpected, unit: '%', formula: { kwh: n(x.pvKwh), expected: n(k.expectedKwh) } },
  ];
  if (x.gridMeter) {
    list.push(
      { key: 'selfConsumption', value: k.selfConsumption, unit: '%', formula: { pv: n(x.meteredPvKwh), export: n(x.exportKwh) } },
      {
        key: 'autarky',
        value: k.autarky,
        unit: '%',
        formula: {
          load: n(k.loadKwh),
          import: n(x.importKwh),
          how: o.scope === 'fleet' ? 'perSite' : x.loadMeter ? 'measured' : 'balance',
          charge: n(x.chargeKwh),
          discharge: n(x.dischargeKwh),
          export: n(x.exportKwh),
          pv: n(x.pvKwh),
        },
      },
    );
  }
  const skip = new Set(o.notApplicable ?? []);
  return list.filter((c) => !skip.has(c.key));
}

/** What a device overview leaves out or divides by, said in words under the cards. */
function DeviceNotes({ overview: o }: { overview: Overview }) {
  const { t } = useTranslation();
  if (!o.device) {
    return null;
  }
  const names = o.notApplicable.map((key) => t(`analysis.metric.${key}`)).join(t('analysis.listSeparator'));
  return (
    <div className={styles.notes} role="note" aria-label={t('analysis.device.notes')}>
      {o.notApplicable.length > 0 && (
        <p data-note="notApplicable">{t(o.device.type === 'inverter' ? 'analysis.notApplicable.inverter' : 'analysis.notApplicable.other', { names })}</p>
      )}
      {o.device.type === 'inverter' && o.device.capacitySource === 'rated' && (
        <p data-note="capacity">{t('analysis.capacity.rated', { kw: formatNumber(o.site.capacityKwp) })}</p>
      )}
      {o.device.type === 'inverter' && o.device.capacitySource === '' && <p data-note="capacity">{t('analysis.capacity.none')}</p>}
    </div>
  );
}

export function KpiCards({ overview }: { overview: Overview }) {
  const { t } = useTranslation();
  return (
    <>
    <ul className={styles.kpis} aria-label={t('analysis.kpis')}>
      {cards(overview).map((c) => (
        <li key={c.key} className={styles.kpi} data-kpi={c.key}>
          <p className={styles.kpiLabel}>{t(`analysis.metric.${c.key}`)}</p>
          <p className={styles.kpiValue}>
            {n(c.value)}
            <span className={styles.kpiUnit}>{c.unit}</span>
          </p>
          <p className={styles.formula}>
            {t(`analysis.formula.${c.key}`, {
              ...c.formula,
              how: c.formula.how ? t(`analysis.formula.load.${c.formula.how}`, c.formula) : '',
              interpolation: { escapeValue: false },
            })}
          </p>
        </li>
      ))}
    </ul>
    <DeviceNotes overview={overview} />
    </>
  );
}
