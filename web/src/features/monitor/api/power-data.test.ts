import { currenciesOf, type PowerPoint, sinceStarted, twoHourPoints } from './power-data';

const hour = (index: number): PowerPoint => ({
  time: Date.UTC(2024, 0, 1, index),
  pvKwh: index,
  dischargeKwh: 1,
  chargeKwh: 0,
  importKwh: 0,
  exportKwh: 0,
  loadKwh: 2,
  profit: { CNY: 1, ...(index === 5 ? { USD: 3 } : {}) },
  profitBase: index === 5 ? 1 + 3 * 7 : 1,
});

describe('fleet power data', () => {
  it('turns a day of hours into 12 two-hour points (profit chart type 1)', () => {
    const points = twoHourPoints(Array.from({ length: 24 }, (_, index) => hour(index)));
    expect(points).toHaveLength(12);
    expect(points[0]).toMatchObject({ time: Date.UTC(2024, 0, 1, 0), pvKwh: 1, dischargeKwh: 2, loadKwh: 4, profit: { CNY: 2 }, profitBase: 2 });
    expect(points[2]).toMatchObject({ time: Date.UTC(2024, 0, 1, 4), pvKwh: 9, profit: { CNY: 2, USD: 3 }, profitBase: 23 });
  });

  it('lists the currencies the profit is in', () => {
    expect(currenciesOf([hour(1), hour(5)])).toEqual(['CNY', 'USD']);
  });

  it('leaves buckets that have not begun empty instead of zero', () => {
    const now = Date.UTC(2024, 0, 1, 10, 30);
    expect(sinceStarted(hour(10), 0, now)).toBe(0);
    expect(sinceStarted(hour(9), 4.5, now)).toBe(4.5);
    expect(sinceStarted(hour(11), 0, now)).toBeNull();
    // a station ahead of the viewer's zone has already filled a later hour of its own day
    expect(sinceStarted(hour(11), 3.2, now)).toBe(3.2);
  });
});
