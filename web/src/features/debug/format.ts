import type { LiveRegister } from './api/scada';

/** Formats a decoded value for the table (not implemented: a dash). */
export function formatValue(r: LiveRegister): string {
  if (r.value === null) {
    return '—';
  }
  const v = Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(Math.abs(r.value) < 10 ? 3 : 2);
  return r.unit ? `${v} ${r.unit}` : v;
}
