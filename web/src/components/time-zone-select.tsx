import { useMemo } from 'react';
import { LabelledSelect, type LabelledSelectProps, Option } from './select';

/** The IANA time zones the browser knows, with UTC, the browser's own and current (a stored value the browser lacks) among them, sorted. */
export function timeZones(current?: string): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const zones = new Set<string>(['UTC']);
  if (current) {
    zones.add(current);
  }
  try {
    for (const zone of intl.supportedValuesOf?.('timeZone') ?? []) {
      zones.add(zone);
    }
  } catch {
    // an older browser: the zones at hand
  }
  const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (browser) {
    zones.add(browser);
  }
  return [...zones].sort();
}

/** A searchable choice of IANA time zone (works inside a Form.Item, which passes value and onChange). */
export function TimeZoneSelect({ value, ...props }: LabelledSelectProps & { value?: string }) {
  const zones = useMemo(() => timeZones(value), [value]);
  return (
    <LabelledSelect showSearch value={value} {...props}>
      {zones.map((zone) => (
        <Option key={zone} value={zone}>
          {zone}
        </Option>
      ))}
    </LabelledSelect>
  );
}
