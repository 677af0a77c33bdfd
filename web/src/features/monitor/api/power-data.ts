import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { browserTimeZone } from '@/lib/format';
import { LIVE_QUERY } from '@/lib/query-client';

export type PowerPeriod = 'day' | 'month' | 'year' | 'total';

/** One bucket of the fleet's energy flows (kWh) and its value per currency. */
export type PowerPoint = Schemas['PowerData']['points'][number];

/** GET /v2/summary/powerdata/{period}: hours of today, days of the month, months of the year, years. */
export type PowerData = Schemas['PowerData'];

export function powerDataQuery(period: PowerPeriod) {
  return queryOptions({
    queryKey: ['summary', 'powerdata', period],
    queryFn: ({ signal }) =>
      typedApi.get(`/v2/summary/powerdata/${period}`, { query: { tz: browserTimeZone() } }, { signal }),
    ...LIVE_QUERY,
    // Today's figures move; the other periods change slowly.
    refetchInterval: period === 'day' ? LIVE_QUERY.refetchInterval : 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}

export function usePowerData(period: PowerPeriod) {
  return useQuery(powerDataQuery(period));
}

const FLOW_KEYS = ['pvKwh', 'dischargeKwh', 'chargeKwh', 'importKwh', 'exportKwh', 'loadKwh'] as const;

/**
 * The day as twelve two-hour points (SPEC.md section 9, profit chart type 1): the server answers
 * hours, and each pair is added up.
 */
export function twoHourPoints(points: readonly PowerPoint[]): PowerPoint[] {
  const out: PowerPoint[] = [];
  for (let index = 0; index < points.length; index += 2) {
    const pair = points.slice(index, index + 2);
    const first = pair[0]!;
    const point: PowerPoint = { ...first, profit: { ...(first.profit ?? {}) } };
    for (const next of pair.slice(1)) {
      for (const key of FLOW_KEYS) {
        point[key] += next[key];
      }
      for (const [currency, amount] of Object.entries(next.profit ?? {})) {
        point.profit![currency] = (point.profit![currency] ?? 0) + amount;
      }
      if (next.profitBase != null) {
        point.profitBase = (point.profitBase ?? 0) + next.profitBase;
      }
    }
    out.push(point);
  }
  return out;
}

/** The currencies the points carry a profit in, in a stable order. */
export function currenciesOf(points: readonly PowerPoint[]): string[] {
  const set = new Set<string>();
  for (const point of points) {
    for (const currency of Object.keys(point.profit ?? {})) {
      set.add(currency);
    }
  }
  return [...set].sort();
}

/**
 * A figure to draw for a bucket: null for one that has not begun yet, so that a chart leaves
 * the rest of the day (month, year) empty rather than drawing a drop to zero. A bucket holds a
 * position of each station's own calendar (docs/kpi.md), so a station ahead of the viewer's
 * zone may already have filled one that is later than the viewer's clock: what it holds is
 * drawn.
 */
export function sinceStarted(point: Pick<PowerPoint, 'time'>, value: number, now = Date.now()): number | null {
  return point.time > now && value === 0 ? null : value;
}
