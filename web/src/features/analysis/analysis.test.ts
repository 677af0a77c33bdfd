import { describe, expect, it } from 'vitest';
import { tabOf } from './analysis-page';
import type { Overview } from './api/overview';
import { toConfig } from './compare-tab';
import { sharedPrefix } from './device-picker';
import { flowSeries } from './flow-cards';
import { cards } from './kpi-cards';
import { switchPeriod, thisMonth } from './period-picker';

describe('periods', () => {
  it('starts on the month so far', () => {
    expect(thisMonth(new Date(2026, 2, 9))).toEqual({ period: 'month', date: '2026-03' });
  });
  it('keeps the date when the kind changes', () => {
    expect(switchPeriod({ period: 'month', date: '2026-02' }, 'day')).toEqual({ period: 'day', date: '2026-02-01' });
    expect(switchPeriod({ period: 'day', date: '2026-02-17' }, 'year')).toEqual({ period: 'year', date: '2026' });
    expect(switchPeriod({ period: 'month', date: '2024-02' }, 'custom')).toEqual({ period: 'custom', from: '2024-02-01', to: '2024-02-29' });
  });
});

describe('tabs', () => {
  it('reads the tab from the address', () => {
    expect(tabOf(new URLSearchParams('tab=reports'))).toBe('reports');
    expect(tabOf(new URLSearchParams('tab=nope'))).toBe('overview');
  });
});

describe('compare form', () => {
  it('sends only what the mode uses', () => {
    const c = toConfig('sameMonth', 'pr', [3], { period: 'month', date: '2026-01' }, 7, [2025, 2026]);
    expect(c).toMatchObject({ mode: 'sameMonth', period: '', month: 7, years: [2025, 2026], stationIds: [3] });
    const s = toConfig('stations', 'yield', [1, 2], { period: 'month', date: '2026-01' }, 7, [2025]);
    expect(s).toMatchObject({ period: 'month', date: '2026-01', month: 0, years: [] });
  });
});

describe('KPI cards', () => {
  const totals = {
    pvKwh: 40, dischargeKwh: 9, chargeKwh: 10, importKwh: 5, exportKwh: 12, loadKwh: 0, refEnergyKwh: 50, tempRefKwh: 50,
    inverterMin: 1440, onlineMin: 1380, faultMin: 0, gridMeter: true, loadMeter: false, meteredPvKwh: 40, siteLoadKwh: 32, co2Kg: 19, sites: true,
  };
  const kpis = {
    yieldKwh: 40, specificYield: 4, equivalentHours: 4, pr: 80, prTemp: 80, availability: 95.8, co2Kg: 19, revenue: 12, currency: 'EUR',
    expectedKwh: 45.105, actualVsExpected: 88.68, selfConsumption: 70, autarky: 84.375, loadKwh: 32,
  };
  const o: Overview = {
    scope: 'station', name: 'Home', period: { kind: 'day', first: '2026-01-01', last: '2026-01-01', resolution: 'hour' },
    site: { capacityKwp: 10, pricePerKwh: 0.3, subsidyPerKwh: 0, currency: 'EUR', storage: true }, totals, kpis,
    revenue: [{ currency: 'EUR', amount: 12 }], series: [],
    model: { emissionFactorKgPerKwh: 0.475, tempCoeffPerC: -0.004, systemLoss: 0.93, inverterEta: 0.97 },
    notApplicable: [],
  };
  it('fills every formula with the period\'s figures', () => {
    const list = cards(o);
    expect(list.map((c) => c.key)).toContain('autarky');
    expect(list.find((c) => c.key === 'pr')?.formula).toEqual({ kwh: '40', ref: '50' });
    expect(list.find((c) => c.key === 'autarky')?.formula).toMatchObject({ load: '32', import: '5', how: 'balance' });
  });
  it('leaves out storage shares without a grid meter', () => {
    expect(cards({ ...o, totals: { ...totals, gridMeter: false } }).map((c) => c.key)).not.toContain('selfConsumption');
  });
  it('leaves out what does not apply to a device, and only that', () => {
    const device: Overview = {
      ...o,
      scope: 'device',
      notApplicable: ['selfConsumption', 'autarky'],
      device: { id: 7, type: 'inverter', meterPosition: '', stationId: 1, stationName: 'Home', capacitySource: 'rated' },
    };
    const keys = cards(device).map((c) => c.key);
    expect(keys).not.toContain('selfConsumption');
    expect(keys).not.toContain('autarky');
    expect(keys).toEqual(['yield', 'specificYield', 'equivalentHours', 'pr', 'prTemp', 'availability', 'co2', 'revenue', 'expected', 'actualVsExpected']);
  });
  it('shows what a battery, a grid meter and a load meter measured, per bucket too', () => {
    const of = (type: string, meterPosition = ''): Overview => ({
      ...o,
      scope: 'device',
      device: { id: 8, type, meterPosition, stationId: 1, stationName: 'Home', capacitySource: '' },
      series: [
        { label: '01', totals: { ...totals, chargeKwh: 4, dischargeKwh: 3, importKwh: 1, exportKwh: 2, loadKwh: 6 }, kpis },
        { label: '02', totals: { ...totals, chargeKwh: 6, dischargeKwh: 6, importKwh: 4, exportKwh: 10, loadKwh: 7 }, kpis },
      ],
      totals: { ...totals, loadKwh: 13 },
    });
    const battery = cards(of('battery'));
    expect(battery.map((c) => [c.key, c.value])).toEqual([['charged', 10], ['discharged', 9], ['roundTrip', 90]]);
    expect(battery.find((c) => c.key === 'roundTrip')?.formula).toEqual({ out: '9', in: '10' });
    expect(flowSeries(of('storage'))).toEqual([{ key: 'charged', values: [4, 6] }, { key: 'discharged', values: [3, 6] }]);
    expect(cards(of('meter', 'grid')).map((c) => [c.key, c.value])).toEqual([['imported', 5], ['exported', 12], ['netImport', -7]]);
    expect(flowSeries(of('meter', 'grid')).map((f) => f.values)).toEqual([[1, 4], [2, 10]]);
    expect(cards(of('meter', 'load')).map((c) => [c.key, c.value])).toEqual([['consumed', 13]]);
    expect(cards({ ...of('battery'), totals: { ...totals, chargeKwh: 0 } }).find((c) => c.key === 'roundTrip')?.value).toBeNull();
    expect(flowSeries(o)).toEqual([]);
  });
});

describe('device picker', () => {
  it('leaves out the part of the sub-station names they all share, up to a separator', () => {
    expect(sharedPrefix(['Kern Valley · Block North', 'Kern Valley · Block South'])).toBe('Kern Valley · ');
    expect(sharedPrefix(['A · B · C1', 'A · B · C2', 'A · D'])).toBe('A · ');
    expect(sharedPrefix(['Block North', 'Block South'])).toBe('');
    expect(sharedPrefix(['Plant', 'Plant · East'])).toBe('');
  });
});
