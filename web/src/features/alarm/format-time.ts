import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';

/** An instant in the station's zone with the zone named (2026-11-27 09:35:00 PST), as every screen writes it. */
export function formatInZone(value: string | null | undefined, timeZone?: string): string {
  return zonedTime(value, timeZone, currentLocale()).text;
}

/** Whole minutes split into days, hours and minutes. */
export function splitDuration(minutes: number): { days: number; hours: number; minutes: number } {
  const total = Math.max(0, Math.round(minutes));
  return { days: Math.floor(total / 1440), hours: Math.floor((total % 1440) / 60), minutes: total % 60 };
}
