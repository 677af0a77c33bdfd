import { fromFormValues, toFormValues } from './notify-settings';

const view = {
  levels: [2, 1],
  frequency: 'high' as const,
  dailyLimit: 20,
  pushLimit: 5,
  emailLimit: 30,
  methods: [1, 3],
  allowed: 1 as const,
  timezone: 'Asia/Shanghai',
  digestMinutes: 15,
  dailyLimitChoices: [2, 10, 20, 50],
  today: {
    date: '2026-11-28',
    held: 0,
    limit: 20,
    reached: false,
    sent: 0,
    timezone: 'Asia/Shanghai',
    methods: [{ method: 1, sent: 0, held: 0, limit: 20, reached: false }],
  },
};

describe('notification settings form values', () => {
  it('shows a listed daily limit as a choice, any other as "other"', () => {
    expect(toFormValues(view)).toEqual({
      allowed: true,
      levels: [1, 2],
      frequency: 'high',
      dailyLimit: 20,
      customLimit: undefined,
      pushLimit: 5,
      emailLimit: 30,
      methods: [1, 3],
      timezone: 'Asia/Shanghai',
      digestMinutes: 15,
    });
    expect(toFormValues({ ...view, dailyLimit: 35 })).toMatchObject({ dailyLimit: 'other', customLimit: 35 });
  });

  it('sends what the server takes, and round-trips', () => {
    expect(fromFormValues({ ...toFormValues(view), allowed: false })).toEqual({
      allowed: 0,
      levels: [1, 2],
      frequency: 'high',
      dailyLimit: 20,
      pushLimit: 5,
      emailLimit: 30,
      methods: [1, 3],
      timezone: 'Asia/Shanghai',
      digestMinutes: 15,
    });
    expect(fromFormValues({ ...toFormValues(view), dailyLimit: 'other', customLimit: 500 }).dailyLimit).toBe(500);
    const { dailyLimitChoices: _choices, today: _today, ...settings } = view;
    expect(fromFormValues(toFormValues(view))).toEqual({ ...settings, levels: [1, 2] });
  });
});
