import { describeFeatureTexts } from '@/testing/feature-texts';
import { itemProblems, KINDS, keyFor, templateInput } from './api';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { checklistTexts } from './texts';

describeFeatureTexts('checklists', {
  prefix: 'checklist.',
  texts: checklistTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'checklist.kind.reading', zhCN: '读数', jaJP: '測定値' },
});

describe('checklist items', () => {
  it('names every kind in every language', () => {
    for (const bundle of [enUS, zhCN, zhTW, koKR, jaJP] as Record<string, string>[]) {
      for (const kind of KINDS) {
        expect(bundle[`checklist.kind.${kind}`]).toBeTruthy();
      }
    }
  });

  it('makes a key from a label, unique in the list', () => {
    expect(keyFor('Inverter display: no fault', [])).toBe('inverter-display-no-fault');
    expect(keyFor('Meter reading', ['meter-reading'])).toBe('meter-reading-2');
    expect(keyFor('Meter reading', ['meter-reading', 'meter-reading-2'])).toBe('meter-reading-3');
    // a label with no Latin letters still gets a key the server takes
    expect(keyFor('逆变器显示', [])).toBe('item');
    expect(keyFor('逆变器显示', ['item'])).toBe('item-2');
    expect(keyFor('x'.repeat(100), []).length).toBeLessThanOrEqual(40);
  });

  it('finds what the server would refuse, item by item', () => {
    expect(
      itemProblems([
        { key: 'a', label: 'Tick', kind: 'check' },
        { key: 'b', label: '  ', kind: 'check' },
        { key: 'c', label: 'No kind' },
        { key: 'a', label: 'Same key', kind: 'photo' },
        { key: 'bad key', label: 'Space in key', kind: 'check' },
        { key: 'd', label: 'Long unit', kind: 'reading', unit: 'x'.repeat(21) },
        { key: 'e', label: 'x'.repeat(201), kind: 'check' },
        { key: 'f', label: 'Reading', kind: 'reading', unit: 'kWh' },
      ]),
    ).toEqual({
      1: 'checklist.form.labelRequired',
      2: 'checklist.form.kindRequired',
      3: 'checklist.form.keyTaken',
      4: 'checklist.form.keyFormat',
      5: 'checklist.form.unitLong',
      6: 'checklist.form.labelLong',
    });
  });

  it('sends trimmed items, a unit only on a reading', () => {
    expect(
      templateInput('  Quarterly  ', [
        { key: ' a ', label: ' Tick ', kind: 'check', unit: 'kWh', required: true },
        { key: 'b', label: 'Meter', kind: 'reading', unit: ' kWh ' },
        { key: 'c', label: 'Photo', kind: 'photo' },
      ]),
    ).toEqual({
      name: 'Quarterly',
      items: [
        { key: 'a', label: 'Tick', kind: 'check', required: true },
        { key: 'b', label: 'Meter', kind: 'reading', required: false, unit: 'kWh' },
        { key: 'c', label: 'Photo', kind: 'photo', required: false },
      ],
    });
  });
});
