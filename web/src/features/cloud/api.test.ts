import { describe, expect, it } from 'vitest';
import { credentialsOf, vendorLabel } from './api';

describe('credentialsOf', () => {
  const one = [{ key: 'apiKey', secret: true, optional: false }];
  const several = [
    { key: 'userName', secret: false, optional: false },
    { key: 'systemCode', secret: true, optional: false },
  ];

  it('sends one field as typed, trimmed', () => {
    expect(credentialsOf(one, { apiKey: ' K1 ' })).toBe('K1');
  });

  it('sends several fields as a JSON object of the typed ones', () => {
    expect(JSON.parse(credentialsOf(several, { userName: 'ops', systemCode: 'a b' }))).toEqual({ userName: 'ops', systemCode: 'a b' });
    expect(JSON.parse(credentialsOf(several, { userName: 'ops' }))).toEqual({ userName: 'ops' });
  });

  it('sends nothing when nothing is typed, so an edit keeps the stored credentials', () => {
    expect(credentialsOf(several, {})).toBe('');
    expect(credentialsOf(one, { apiKey: '  ' })).toBe('');
  });
});

describe('vendorLabel', () => {
  it('names a vendor by its brand, and by its key while the list loads', () => {
    expect(vendorLabel([{ name: 'solaredge', label: 'SolarEdge', defaultBudget: 300, fields: [] }], 'solaredge')).toBe('SolarEdge');
    expect(vendorLabel(undefined, 'solaredge')).toBe('solaredge');
  });
});
