const pad = (value: number) => String(value).padStart(2, '0');

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
