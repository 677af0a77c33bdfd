import { DEAL_METHODS } from './api/alarms';
import { FREQUENCIES, MAX_DAILY_LIMIT, NOTIFY_METHODS } from './api/notify';

/** Most characters a deal's reason may have (the server's limit). */
export const MAX_REASON_LENGTH = 200;

/** A field's problem: a text key and its values. */
export interface FieldProblem {
  key: string;
  values?: Record<string, string | number>;
}

export type FieldProblems<F extends string> = Partial<Record<F, FieldProblem>>;

export interface DealValues {
  reason?: string;
  dealMethod?: number;
}

/** Checks the deal form as the server will: reason required and at most 200 characters, a known method. */
export function dealProblems(values: DealValues): FieldProblems<'reason' | 'dealMethod'> {
  const problems: FieldProblems<'reason' | 'dealMethod'> = {};
  const reason = (values.reason ?? '').trim();
  if (reason === '') {
    problems.reason = { key: 'alarm.deal.reasonRequired' };
  } else if ([...reason].length > MAX_REASON_LENGTH) {
    problems.reason = { key: 'alarm.deal.reasonTooLong', values: { max: MAX_REASON_LENGTH } };
  }
  if (!DEAL_METHODS.includes(values.dealMethod as (typeof DEAL_METHODS)[number])) {
    problems.dealMethod = { key: 'alarm.deal.methodRequired' };
  }
  return problems;
}

export interface SettingsValues {
  levels?: number[];
  frequency?: string;
  /** A listed limit, or "other" with customLimit. */
  dailyLimit?: number | 'other';
  customLimit?: number;
  pushLimit?: number;
  emailLimit?: number;
  methods?: number[];
}

type SettingsField = 'levels' | 'frequency' | 'customLimit' | 'pushLimit' | 'emailLimit' | 'methods';

function badLimit(limit: number | undefined): boolean {
  return limit === undefined || limit === null || !Number.isInteger(limit) || limit < 1 || limit > MAX_DAILY_LIMIT;
}

/** Checks the notification settings: at least one level and one method, a known frequency, a limit of 1-10000. */
export function settingsProblems(values: SettingsValues): FieldProblems<SettingsField> {
  const problems: FieldProblems<SettingsField> = {};
  if (!values.levels || values.levels.length === 0) {
    problems.levels = { key: 'alarm.notify.levelsRequired' };
  }
  if (!FREQUENCIES.includes(values.frequency as (typeof FREQUENCIES)[number])) {
    problems.frequency = { key: 'alarm.notify.frequencyRequired' };
  }
  if (values.dailyLimit === 'other' || values.dailyLimit === undefined) {
    if (badLimit(values.customLimit)) {
      problems.customLimit = { key: 'alarm.notify.dailyLimitRange', values: { max: MAX_DAILY_LIMIT } };
    }
  }
  const methods = values.methods ?? [];
  // a method's own limit is checked when the method is chosen (it is kept, not sent, otherwise)
  if (methods.includes(2) && badLimit(values.pushLimit)) {
    problems.pushLimit = { key: 'alarm.notify.dailyLimitRange', values: { max: MAX_DAILY_LIMIT } };
  }
  if (methods.includes(3) && badLimit(values.emailLimit)) {
    problems.emailLimit = { key: 'alarm.notify.dailyLimitRange', values: { max: MAX_DAILY_LIMIT } };
  }
  if (methods.length === 0 || methods.some((method) => !NOTIFY_METHODS.includes(method as 1 | 2 | 3))) {
    problems.methods = { key: 'alarm.notify.methodsRequired' };
  }
  return problems;
}
