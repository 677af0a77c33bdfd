import type { LiveRegister } from './api/scada';

/**
 * Formats a decoded value for the table: a string's text, a code with its name ("1 · running"),
 * the reason when there is no value, otherwise a dash (not implemented).
 */
export function formatValue(r: LiveRegister): string {
  if (r.value === null) {
    return r.text || r.error || '—';
  }
  const v = Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(Math.abs(r.value) < 10 ? 3 : 2);
  const shown = r.unit ? `${v} ${r.unit}` : v;
  return r.text && r.text !== v ? `${shown} · ${r.text}` : shown;
}
