import type { RulesProps } from '@arco-design/web-react/es/Form/interface';
import type { TFunction } from 'i18next';

const PHONE = /^[+0-9 ()-]{0,32}$/;

/**
 * The station form's client-side rules: SPEC.md section 5 (name, location, region, address,
 * timezone, type, system type and capacity required) and the ranges the server also checks
 * (internal/station/input.go), so most mistakes are caught before a call.
 */
export function stationRules(t: TFunction): Record<string, RulesProps[]> {
  const required = (field: string): RulesProps => ({
    required: true,
    message: t('validation.required', { field: t(`station.field.${field}`) }),
  });
  const maxLength = (max: number): RulesProps => ({ maxLength: max, message: t('validation.maxLength', { max }) });
  const range = (min: number, max: number): RulesProps => ({
    type: 'number',
    min,
    max,
    message: t('validation.range', { min, max }),
  });
  const match = (pattern: RegExp, hint: string): RulesProps => ({
    match: pattern,
    message: t('validation.format', { hint }),
  });
  return {
    name: [required('name'), maxLength(100)],
    location: [required('location'), maxLength(200)],
    region: [required('region'), maxLength(100)],
    address: [required('address'), maxLength(200)],
    timezone: [required('timezone')],
    stationType: [required('stationType')],
    systemType: [required('systemType')],
    capacityKwp: [required('capacityKwp'), range(0.1, 5_000_000)],
    country: [match(/^([A-Za-z]{2})?$/, 'CN')],
    lat: [range(-90, 90)],
    lng: [range(-180, 180)],
    azimuth: [range(0, 360)],
    inclination: [range(0, 90)],
    line: [maxLength(100)],
    currency: [match(/^([A-Za-z]{3})?$/, 'CNY')],
    pricePerKwh: [range(0, 100)],
    subsidyPerKwh: [range(0, 100)],
    totalCost: [range(0, 1e12)],
    dailyRepayment: [range(0, 1e9)],
    ownerName: [maxLength(100)],
    ownerCompany: [maxLength(100)],
    managerName: [maxLength(100)],
    ownerPhone: [match(PHONE, '+86 10 5555 0100')],
    managerPhone: [match(PHONE, '+86 10 5555 0100')],
  };
}
