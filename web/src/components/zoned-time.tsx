import { toDate, zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';

/**
 * An instant in the station's time zone with the zone named ("2026-11-27 09:35:00 PST"), and
 * the same instant in the reader's own zone on hover. The times the console shows of a
 * station, a device, an alarm or a work order go through it, so one event reads the same on
 * every screen.
 */
export function ZonedTime({ value, timeZone }: { value: string | number | null | undefined; timeZone?: string }) {
  const { text, viewer } = zonedTime(value, timeZone, currentLocale());
  const date = value === null || value === undefined ? null : toDate(value);
  if (!text || !date) {
    return <>-</>;
  }
  return (
    <time dateTime={date.toISOString()} title={viewer}>
      {text}
    </time>
  );
}
