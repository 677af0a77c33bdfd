import { formatNumber } from '@/lib/format';
import type { Overview } from './api/overview';

/** A KPI card: its value, unit and the formula's figures. */
export interface Card {
  key: string;
  value: number | null;
  unit: string;
  /** The formula with this period's numbers in it. */
  formula: Record<string, string>;
}

const n = (v: number | null | undefined, digits = 2) => formatNumber(v ?? null, digits);

/** A series a device chart draws: a metric key and its value in each bucket. */
export interface FlowSeries {
  key: string;
  values: number[];
}

/** What a device that produces no PV measured: a battery or storage unit its charge and discharge, a grid meter its import and export, a load meter the load. */
export function flowCards(o: Overview): Card[] {
  const x = o.totals;
  switch (flowKind(o)) {
    case 'storage':
      return [
        { key: 'charged', value: x.chargeKwh, unit: 'kWh', formula: { kwh: n(x.chargeKwh) } },
        { key: 'discharged', value: x.dischargeKwh, unit: 'kWh', formula: { kwh: n(x.dischargeKwh) } },
        {
          key: 'roundTrip',
          value: x.chargeKwh > 0 ? (x.dischargeKwh / x.chargeKwh) * 100 : null,
          unit: '%',
          formula: { out: n(x.dischargeKwh), in: n(x.chargeKwh) },
        },
      ];
    case 'grid':
      return [
        { key: 'imported', value: x.importKwh, unit: 'kWh', formula: { kwh: n(x.importKwh) } },
        { key: 'exported', value: x.exportKwh, unit: 'kWh', formula: { kwh: n(x.exportKwh) } },
        { key: 'netImport', value: x.importKwh - x.exportKwh, unit: 'kWh', formula: { import: n(x.importKwh), export: n(x.exportKwh) } },
      ];
    case 'load':
      return [{ key: 'consumed', value: x.loadKwh, unit: 'kWh', formula: { kwh: n(x.loadKwh) } }];
    default:
      return [];
  }
}

/** The flows a device overview is about, or null for an inverter, a station or the fleet. */
export function flowKind(o: Overview): 'storage' | 'grid' | 'load' | null {
  if (!o.device || o.device.type === 'inverter') {
    return null;
  }
  if (o.device.type === 'battery' || o.device.type === 'storage') {
    return 'storage';
  }
  return o.device.meterPosition === 'load' ? 'load' : 'grid';
}

/** The bars of a device that produces no PV, per bucket. */
export function flowSeries(o: Overview): FlowSeries[] {
  const pick = (key: string, f: (t: Overview['totals']) => number) => ({ key, values: o.series.map((p) => f(p.totals)) });
  switch (flowKind(o)) {
    case 'storage':
      return [pick('charged', (t) => t.chargeKwh), pick('discharged', (t) => t.dischargeKwh)];
    case 'grid':
      return [pick('imported', (t) => t.importKwh), pick('exported', (t) => t.exportKwh)];
    case 'load':
      return [pick('consumed', (t) => t.loadKwh)];
    default:
      return [];
  }
}
