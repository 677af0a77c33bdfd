const pad = (value: number) => String(value).padStart(2, '0');

/**
 * Intl's formatters are slow to make (on a phone a list of a few orders spent a tenth of a second
 * making them, docs/perf-phone.md) and free to reuse: one per locale and options. A zone or
 * currency Intl refuses throws here and is not kept.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function kept<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let format = formatters.get(key) as T | undefined;
  if (!format) {
    format = make();
    formatters.set(key, format);
  }
  return format;
}

const numberFormat = (locale: string, options: Intl.NumberFormatOptions) =>
  kept(`n|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

const dateTimeFormat = (locale: string, options: Intl.DateTimeFormatOptions) =>
  kept(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));

/**
 * Turns a timestamp into a Date. A number (or digit string) of 10 digits is seconds, any other
 * number milliseconds (SPEC.md section 9); other strings are parsed as dates (RFC 3339 from the API).
 */
export function toDate(value: string | number | Date): Date | null {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : value;
  }
  const text = String(value).trim();
  if (text === '') {
    return null;
  }
  let date: Date;
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    date = new Date(text.length === 10 ? n * 1000 : n);
  } else {
    date = new Date(text);
  }
  return Number.isNaN(date.getTime()) ? null : date;
}

/** yyyy-MM-dd HH:mm:ss in the browser's time zone, or "" for nothing usable. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = value === null || value === undefined ? null : toDate(value);
  if (!date) {
    return '';
  }
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** yyyy-MM-dd (year-month-day) in the browser's time zone, or "" for nothing usable. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = value === null || value === undefined ? null : toDate(value);
  if (!date) {
    return '';
  }
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Weeks start on Monday (SPEC.md section 9): 1 as Date.getDay() counts, for date pickers too. */
export const WEEK_START = 1 as const;

/** Midnight of the Monday that starts the week holding the date (browser time zone). */
export function startOfWeek(value: Date): Date {
  const date = new Date(value.getFullYear(), value.getMonth(), value.getDate());
  const back = (date.getDay() - WEEK_START + 7) % 7;
  date.setDate(date.getDate() - back);
  return date;
}

/** yyyy-MM in the browser's time zone, or "". */
export function formatMonth(value: string | number | Date | null | undefined): string {
  return formatDate(value).slice(0, 7);
}

/** HH:mm in the browser's time zone, or "". */
export function formatTime(value: string | number | Date | null | undefined): string {
  return formatDateTime(value).slice(11, 16);
}

/** Shown where a figure is missing. */
export const NO_VALUE = '-';

function usable(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A number with grouping and at most `digits` decimals: 12345.678 → "12,345.68". */
export function formatNumber(value: number | null | undefined, digits = 2): string {
  if (!usable(value)) {
    return NO_VALUE;
  }
  return numberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
}

/** Larger units for large figures, so a fleet's energy reads "1.25 GWh" rather than a long number. */
const SCALES: Record<string, readonly [number, string][]> = {
  kWh: [
    [1e6, 'GWh'],
    [1e3, 'MWh'],
  ],
  kW: [
    [1e6, 'GW'],
    [1e3, 'MW'],
  ],
  kWp: [
    [1e6, 'GWp'],
    [1e3, 'MWp'],
  ],
  kg: [[1e3, 't']],
};

/** The value in the largest unit that keeps it at 1 or more (kWh → MWh → GWh, kg → t). */
export function scaleQuantity(value: number, unit: string): { value: number; unit: string } {
  for (const [factor, larger] of SCALES[unit] ?? []) {
    if (Math.abs(value) >= factor) {
      return { value: value / factor, unit: larger };
    }
  }
  return { value, unit };
}

/**
 * A figure with its unit (SPEC.md section 9: kW, kWh, kWp, %, °C, kg): "12.5 kW", "87.2%".
 * scale: true moves large figures to a larger unit.
 */
export function formatQuantity(
  value: number | null | undefined,
  unit: string,
  { digits = 2, scale = false }: { digits?: number; scale?: boolean } = {},
): string {
  if (!usable(value)) {
    return NO_VALUE;
  }
  const shown = scale ? scaleQuantity(value, unit) : { value, unit };
  const number = formatNumber(shown.value, digits);
  if (shown.unit === '%' || shown.unit === '') {
    return `${number}${shown.unit}`;
  }
  return `${number} ${shown.unit}`;
}

/** A change against the previous period: "+12.5%", "-3%", "0%". */
export function formatChange(value: number | null | undefined): string {
  if (!usable(value)) {
    return NO_VALUE;
  }
  const sign = value > 0 ? '+' : '';
  return `${sign}${formatNumber(value, 1)}%`;
}

/** An amount of money in its ISO 4217 currency: "¥1,234.50", "$12.00". */
export function formatMoney(value: number | null | undefined, currency: string, locale = 'en-US'): string {
  if (!usable(value)) {
    return NO_VALUE;
  }
  try {
    return numberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 2 }).format(value);
  } catch {
    return `${formatNumber(value)} ${currency}`;
  }
}

/** RFC 3339 (UTC) for API parameters. */
export function toRfc3339(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The browser's IANA time zone, for calls that draw a calendar (tz=…). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

function partsIn(value: Date, timeZone: string): Record<string, string> {
  try {
    const parts = dateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(value);
    return Object.fromEntries(parts.map((part) => [part.type, part.value]));
  } catch {
    return partsIn(value, 'UTC');
  }
}

/** yyyy-MM-dd HH:mm:ss of an instant in an IANA time zone (a station's own clock). */
export function formatDateTimeIn(value: string | number | Date | null | undefined, timeZone: string): string {
  const date = value === null || value === undefined ? null : toDate(value);
  if (!date) {
    return '';
  }
  const p = partsIn(date, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** The instant a local date (yyyy-MM-dd) begins in an IANA time zone (its midnight there). */
export function startOfDayIn(date: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const wanted = Date.UTC(y!, m! - 1, d!);
  let guess = wanted;
  // the zone's offset at the guess, twice: once more across a change of offset that day
  for (let i = 0; i < 2; i++) {
    const p = partsIn(new Date(guess), timeZone);
    guess -= Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - wanted;
  }
  return new Date(guess);
}

/** Today (yyyy-MM-dd) in an IANA time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return formatDateTimeIn(now, timeZone).slice(0, 10);
}

/**
 * The short name of an IANA zone at an instant, as the reader's language writes it: "PST",
 * "CET", "GMT+8". Empty for an unknown zone.
 */
export function zoneName(value: Date, timeZone: string, locale = 'en-US'): string {
  try {
    const part = dateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
      .formatToParts(value)
      .find((p) => p.type === 'timeZoneName');
    return part?.value ?? '';
  } catch {
    return '';
  }
}

/**
 * An instant as a reader sees it everywhere in the console (docs/kpi.md, "Periods and
 * clocks"): yyyy-MM-dd HH:mm:ss in the station's zone (the browser's when none is known),
 * followed by the zone's short name; and the same instant in the browser's zone, to show on
 * hover. Empty texts for nothing usable.
 */
export function zonedTime(
  value: string | number | Date | null | undefined,
  timeZone: string | undefined,
  locale = 'en-US',
): { text: string; viewer: string } {
  const date = value === null || value === undefined ? null : toDate(value);
  if (!date) {
    return { text: '', viewer: '' };
  }
  const browser = browserTimeZone();
  const zone = timeZone && zoneName(date, timeZone, locale) ? timeZone : browser;
  const text = `${formatDateTimeIn(date, zone)} ${zoneName(date, zone, locale)}`.trim();
  const viewer = `${formatDateTimeIn(date, browser)} ${zoneName(date, browser, locale)}`.trim();
  return { text, viewer };
}
