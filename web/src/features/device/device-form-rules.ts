import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import type { TFunction } from 'i18next';

/** The serial number format the server accepts (internal/device/api.go). */
export const SN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

/**
 * The device form's client-side rules: SPEC.md section 5 (name, serial number, parent device and
 * type required) plus the type-dependent requirements and ranges the server checks.
 */
export function deviceRules(t: TFunction, type: string | undefined, stringsTotal: number | undefined): Record<string, RulesProps[]> {
  const required = (field: string): RulesProps => ({
    required: true,
    message: t('validation.required', { field: t(`device.field.${field}`) }),
  });
  const maxLength = (max: number): RulesProps => ({ maxLength: max, message: t('validation.maxLength', { max }) });
  const range = (min: number, max: number): RulesProps => ({ type: 'number', min, max, message: t('validation.range', { min, max }) });
  const positive = (field: string): RulesProps => ({
    validator: (value: number | undefined, callback: (message?: string) => void) =>
      callback(value === undefined || value === null || value <= 0 ? t('validation.required', { field: t(`device.field.${field}`) }) : undefined),
  });
  const storage = type === 'battery' || type === 'storage';
  return {
    parent: [required('parent')],
    name: [required('name'), maxLength(100)],
    sn: [required('sn'), { match: SN_PATTERN, message: t('device.sn.format') }],
    type: [required('type')],
    customType: [maxLength(50)],
    model: [maxLength(100)],
    ratedPowerKw: [...(type === 'inverter' ? [positive('ratedPowerKw')] : []), range(0, 100_000)],
    capacityKwh: [...(storage ? [positive('capacityKwh')] : []), range(0, 1_000_000)],
    componentRatedPowerW: [range(0, 2_000)],
    componentCount: [range(0, 1_000_000)],
    stringsTotal: [range(0, 1_000)],
    stringsEnabled: [range(0, Math.max(0, stringsTotal ?? 0))],
    meterPosition: type === 'meter' ? [required('meterPosition')] : [],
    collectorSn: [{ match: /^$|^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/, message: t('device.sn.format') }],
  };
}
