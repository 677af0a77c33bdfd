/** A file size in B, KiB, MiB or GiB. */
export function formatSize(bytes: number | undefined): string {
  const n = bytes ?? 0;
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A share 0–1 as a whole percentage 0–100. */
export const percent = (fraction: number | undefined) => Math.round(Math.min(1, Math.max(0, fraction ?? 0)) * 100);
