import { dealProblems, MAX_REASON_LENGTH, settingsProblems } from './form-rules';

describe('deal form rules', () => {
  it('requires a reason and a deal method', () => {
    expect(dealProblems({})).toEqual({
      reason: { key: 'alarm.deal.reasonRequired' },
      dealMethod: { key: 'alarm.deal.methodRequired' },
    });
    expect(dealProblems({ reason: '   ', dealMethod: 2 })).toEqual({ reason: { key: 'alarm.deal.reasonRequired' } });
  });

  it('allows at most 200 characters, counted as characters rather than UTF-16 units', () => {
    expect(dealProblems({ reason: 'x'.repeat(MAX_REASON_LENGTH), dealMethod: 1 })).toEqual({});
    expect(dealProblems({ reason: '故'.repeat(200), dealMethod: 1 })).toEqual({});
    expect(dealProblems({ reason: '🔧'.repeat(200), dealMethod: 1 })).toEqual({});
    expect(dealProblems({ reason: 'x'.repeat(201), dealMethod: 1 })).toEqual({
      reason: { key: 'alarm.deal.reasonTooLong', values: { max: 200 } },
    });
    // Spaces around the text do not count (the server trims them too).
    expect(dealProblems({ reason: ` ${'x'.repeat(200)} `, dealMethod: 1 })).toEqual({});
  });

  it('knows the five deal methods', () => {
    for (const method of [1, 2, 3, 4, 5]) {
      expect(dealProblems({ reason: 'reset', dealMethod: method })).toEqual({});
    }
    expect(dealProblems({ reason: 'reset', dealMethod: 6 }).dealMethod).toBeDefined();
    expect(dealProblems({ reason: 'reset', dealMethod: 0 }).dealMethod).toBeDefined();
  });
});

describe('notification settings rules', () => {
  const valid = { levels: [1, 2], frequency: 'high', dailyLimit: 20, methods: [1] } as const;

  it('accepts the defaults', () => {
    expect(settingsProblems({ ...valid, levels: [...valid.levels], methods: [...valid.methods] })).toEqual({});
  });

  it('requires at least one level and one method', () => {
    expect(settingsProblems({ ...valid, levels: [], methods: [] })).toEqual({
      levels: { key: 'alarm.notify.levelsRequired' },
      methods: { key: 'alarm.notify.methodsRequired' },
    });
    expect(settingsProblems({ ...valid, levels: undefined, methods: [4] })).toMatchObject({
      levels: { key: 'alarm.notify.levelsRequired' },
      methods: { key: 'alarm.notify.methodsRequired' },
    });
  });

  it('knows the three frequencies', () => {
    for (const frequency of ['low', 'medium', 'high']) {
      expect(settingsProblems({ ...valid, levels: [0], methods: [2], pushLimit: 5, frequency })).toEqual({});
    }
    expect(settingsProblems({ ...valid, levels: [0], methods: [2], pushLimit: 5, frequency: 'hourly' }).frequency).toBeDefined();
  });

  it("checks a chosen method's own daily limit, and only a chosen one's", () => {
    const range = { key: 'alarm.notify.dailyLimitRange', values: { max: 10_000 } };
    expect(settingsProblems({ ...valid, levels: [1, 2], methods: [1, 2, 3], pushLimit: 1, emailLimit: 10_000 })).toEqual({});
    expect(settingsProblems({ ...valid, levels: [1, 2], methods: [1, 2, 3], pushLimit: 0, emailLimit: 10_001 })).toEqual({
      pushLimit: range,
      emailLimit: range,
    });
    expect(settingsProblems({ ...valid, levels: [1, 2], methods: [1, 3], pushLimit: 0, emailLimit: 2.5 })).toEqual({ emailLimit: range });
    expect(settingsProblems({ ...valid, levels: [1, 2], methods: [1], pushLimit: 0, emailLimit: undefined })).toEqual({});
  });

  it('takes another daily limit from 1 to 10000, whole numbers only', () => {
    const other = { ...valid, levels: [1], methods: [1], dailyLimit: 'other' as const };
    expect(settingsProblems({ ...other, customLimit: 1 })).toEqual({});
    expect(settingsProblems({ ...other, customLimit: 10_000 })).toEqual({});
    for (const customLimit of [undefined, 0, 10_001, 2.5]) {
      expect(settingsProblems({ ...other, customLimit })).toEqual({
        customLimit: { key: 'alarm.notify.dailyLimitRange', values: { max: 10_000 } },
      });
    }
  });
});
