import { queryOptions, useMutation } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** Types generated from the API description (src/api/schema.d.ts). */
export type Rule = components['schemas']['EscalationRule'];
export type RuleInput = components['schemas']['EscalationRuleInput'];
export type Step = components['schemas']['EscalationStep'];
export type Slot = components['schemas']['OnCallSlot'];
export type Rota = components['schemas']['OnCallRota'];
export type Taken = components['schemas']['EscalationTaken'];

/** What a step may notify (internal/escalate). */
export const TARGETS = ['oncall', 'user', 'department'] as const;
export type Target = (typeof TARGETS)[number];
/** Weekdays as the server counts them: 1 Monday … 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** The server's bounds. */
export const MAX_STEPS = 10;
export const MAX_AFTER = 1440;
export const MAX_SLOTS = 500;

export const rulesQuery = queryOptions({
  queryKey: ['escalation', 'rules'],
  queryFn: ({ signal }) => typedApi.get('/v2/escalation/rules', undefined, { signal }),
});

export const rotaQuery = queryOptions({
  queryKey: ['escalation', 'rota'],
  queryFn: ({ signal }) => typedApi.get('/v2/escalation/rota', undefined, { signal }),
  // "on call now" moves with the clock
  refetchInterval: 60_000,
});

export const logQuery = queryOptions({
  queryKey: ['escalation', 'log'],
  queryFn: ({ signal }) => typedApi.get('/v2/escalation/log', undefined, { signal }),
  refetchInterval: 30_000,
});

const refresh = () => queryClient.invalidateQueries({ queryKey: ['escalation'] });

export function useAddRule() {
  return useMutation({ mutationFn: (r: RuleInput) => typedApi.post('/v2/escalation/rules/add', { body: r }), onSuccess: refresh });
}

export function useEditRule() {
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: RuleInput }) =>
      typedApi.post('/v2/escalation/rules/edit/{id}', { path: { id }, body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteRule() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/escalation/rules/delete/{id}', { path: { id } }),
    onSuccess: refresh,
  });
}

export function useSaveRota() {
  return useMutation({
    mutationFn: (slots: Slot[]) => typedApi.post('/v2/escalation/rota', { body: { slots } }),
    onSuccess: (rota) => {
      queryClient.setQueryData(rotaQuery.queryKey, rota);
    },
  });
}

/** A step in words: "after 15 min: on call", "after 30 min: Operations (department)". */
export function stepText(step: Step, t: (key: string, opts?: Record<string, unknown>) => string): string {
  const who = step.target === 'oncall' ? t('escalation.target.oncall') : `${step.targetName || `#${step.targetId}`} (${t(`escalation.target.${step.target}`)})`;
  return t('escalation.stepText', { minutes: step.afterMinutes, who });
}

/** Checks the steps as the server will: 1-10 steps, minutes 1-1440 increasing, a target for each. */
export function stepProblems(steps: Partial<Step>[]): Record<number, string> {
  const out: Record<number, string> = {};
  let prev = 0;
  steps.forEach((s, i) => {
    const m = s.afterMinutes;
    if (m === undefined || !Number.isInteger(m) || m < 1 || m > MAX_AFTER) {
      out[i] = 'escalation.form.afterRange';
    } else if (m <= prev) {
      out[i] = 'escalation.form.afterOrder';
    } else if (!TARGETS.includes(s.target as Target)) {
      out[i] = 'escalation.form.targetRequired';
    } else if (s.target !== 'oncall' && !s.targetId) {
      out[i] = 'escalation.form.targetRequired';
    }
    if (m !== undefined && m > prev) prev = m;
  });
  return out;
}

/** "HH:MM" as minutes; "24:00" ends a day. NaN when not a time. */
export function minutesOf(hhmm: string | undefined): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm ?? '');
  if (!m) return Number.NaN;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || min > 59 || (h === 24 && min !== 0)) return Number.NaN;
  return h * 60 + min;
}

/** Checks a slot as the server will; the text key of its problem, or undefined. */
export function slotProblem(s: Partial<Slot>): string | undefined {
  const start = minutesOf(s.start);
  const end = minutesOf(s.end);
  if (!s.weekday || s.weekday < 1 || s.weekday > 7) return 'escalation.rota.weekdayRequired';
  if (Number.isNaN(start) || start >= 1440 || Number.isNaN(end)) return 'escalation.rota.timeFormat';
  if (end <= start) return 'escalation.rota.endAfterStart';
  if (!s.userId) return 'escalation.rota.userRequired';
  return undefined;
}
