/**
 * The sample's value fields by their wire names, as the server numbers them
 * (telemetry.SampleFields): every screen that maps a source to a sample field offers these,
 * labelled by the texts sampleField.<name> (unit included).
 */
export const SAMPLE_FIELDS = [
  'powerKw',
  'energyKwh',
  'energy2Kwh',
  'dcVoltageV',
  'dcCurrentA',
  'acVoltageV',
  'frequencyHz',
  'tempC',
  'soc',
  'irradianceWm2',
  'status',
  'stringsActive',
] as const;

export type SampleField = (typeof SAMPLE_FIELDS)[number];
