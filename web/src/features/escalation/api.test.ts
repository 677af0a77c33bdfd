import { describeFeatureTexts } from '@/testing/feature-texts';
import { minutesOf, slotProblem, stepProblems, stepText } from './api';
import enUS from './locales/en-US.json';
import jaJP from './locales/ja-JP.json';
import koKR from './locales/ko-KR.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import { escalationTexts } from './texts';

describeFeatureTexts('escalation', {
  prefix: 'escalation.',
  texts: escalationTexts,
  bundles: { 'en-US': enUS, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ko-KR': koKR, 'ja-JP': jaJP },
  sample: { key: 'escalation.rota.title', zhCN: '值班表', jaJP: '当番表' },
});

describe('escalation checks, as the server makes them', () => {
  it('takes steps whose minutes increase, each with a target', () => {
    expect(
      stepProblems([
        { afterMinutes: 5, target: 'oncall', targetId: 0 },
        { afterMinutes: 30, target: 'department', targetId: 2 },
        { afterMinutes: 1440, target: 'user', targetId: 7 },
      ]),
    ).toEqual({});
    expect(
      stepProblems([
        { afterMinutes: 30, target: 'oncall' },
        { afterMinutes: 30, target: 'user', targetId: 7 },
        { afterMinutes: 0, target: 'user', targetId: 7 },
        { afterMinutes: 60, target: 'user', targetId: 0 },
        { afterMinutes: 1441, target: 'oncall' },
        { afterMinutes: 90, target: 'pager' },
      ]),
    ).toEqual({
      1: 'escalation.form.afterOrder',
      2: 'escalation.form.afterRange',
      3: 'escalation.form.targetRequired',
      4: 'escalation.form.afterRange',
      5: 'escalation.form.afterOrder', // after 1441, as the server counts
    });
    expect(stepProblems([{ afterMinutes: 90, target: 'pager' }])).toEqual({ 0: 'escalation.form.targetRequired' });
  });

  it('reads HH:MM, with 24:00 ending a day', () => {
    expect(minutesOf('00:00')).toBe(0);
    expect(minutesOf('08:30')).toBe(510);
    expect(minutesOf('24:00')).toBe(1440);
    for (const bad of ['8:30', '24:01', '12:60', '', undefined, 'ab:cd']) {
      expect(minutesOf(bad)).toBeNaN();
    }
    expect(slotProblem({ weekday: 1, start: '08:00', end: '18:00', userId: 3 })).toBeUndefined();
    expect(slotProblem({ weekday: 7, start: '18:00', end: '24:00', userId: 3 })).toBeUndefined();
    expect(slotProblem({ weekday: 1, start: '18:00', end: '08:00', userId: 3 })).toBe('escalation.rota.endAfterStart');
    expect(slotProblem({ weekday: 1, start: '24:00', end: '24:00', userId: 3 })).toBe('escalation.rota.timeFormat');
    expect(slotProblem({ weekday: 8, start: '08:00', end: '18:00', userId: 3 })).toBe('escalation.rota.weekdayRequired');
    expect(slotProblem({ weekday: 1, start: '08:00', end: '18:00' })).toBe('escalation.rota.userRequired');
  });

  it('says a step in words', () => {
    const t = (key: string, opts?: Record<string, unknown>) => `${key}${opts ? JSON.stringify(opts) : ''}`;
    expect(stepText({ afterMinutes: 15, target: 'oncall', targetId: 0 }, t)).toBe(
      'escalation.stepText{"minutes":15,"who":"escalation.target.oncall"}',
    );
    expect(stepText({ afterMinutes: 30, target: 'department', targetId: 2, targetName: 'Operations' }, t)).toBe(
      'escalation.stepText{"minutes":30,"who":"Operations (escalation.target.department)"}',
    );
  });
});
