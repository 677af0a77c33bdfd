import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';
import { serverKey, serviceWorker } from '@/lib/service-worker';

export const FREQUENCIES = ['low', 'medium', 'high'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
/** 1 in-site (message centre and live push), 2 app push, 3 e-mail (to the verified address). */
export const NOTIFY_METHODS = [1, 2, 3] as const;
/** The digest periods offered for alarm e-mails, in minutes (0: each alarm at once). */
export const DIGEST_CHOICES = [0, 5, 15, 30, 60, 240, 1440] as const;
/** The daily limits offered when the server does not name its own (SPEC.md section 9). */
export const DEFAULT_DAILY_LIMITS = [2, 10, 20, 50] as const;
export const MAX_DAILY_LIMIT = 10_000;

/** The signed-in user's alarm notification settings (internal/alarm/notify.go). */
export interface NotifySettings {
  levels: number[];
  frequency: Frequency;
  /** the in-site (method 1) daily limit */
  dailyLimit: number;
  /** the daily limits of app push (method 2) and e-mail (method 3): each method counts its own day */
  pushLimit: number;
  emailLimit: number;
  methods: number[];
  /** 1 allow, 0 disallow */
  allowed: 0 | 1;
  timezone: string;
  /** alarm e-mails: 0 one per alarm, else one digest per that many minutes */
  digestMinutes: number;
}

export type NotifySettingsView = Schemas['SettingsView'];

export const notifySettingsQuery = queryOptions({
  queryKey: ['warn-notify', 'settings'],
  queryFn: ({ signal }) => typedApi.get('/v2/warn/notify/settings', undefined, { signal }),
});

export function useNotifySettings() {
  return useQuery(notifySettingsQuery);
}

export function useSaveNotifySettings() {
  return useMutation({
    mutationFn: (settings: NotifySettings) => typedApi.post('/v2/warn/notify/settings', { body: settings }),
    onSuccess: (view) => queryClient.setQueryData(notifySettingsQuery.queryKey, view),
  });
}

/** A threshold of a rule (internal/alarm/rules.go). */
export type ParamSpec = Schemas['ParamSpec'];

export type RuleSpec = Schemas['RuleSpec'];

export type Rule = Schemas['Rule'];

export type RulesView = Schemas['RulesView'];

export type RuleInput = Schemas['RuleInput'];

export const alarmRulesQuery = queryOptions({
  queryKey: ['warn-rules'],
  queryFn: ({ signal }) => typedApi.get('/v2/warn/rules', undefined, { signal }),
});

export function useAlarmRules(enabled: boolean) {
  return useQuery({ ...alarmRulesQuery, enabled });
}

export function useSaveAlarmRules() {
  return useMutation({
    mutationFn: (rules: RuleInput[]) => typedApi.post('/v2/warn/rules', { body: { rules } }),
    onSuccess: (view) => queryClient.setQueryData(alarmRulesQuery.queryKey, view),
  });
}

/** The signed-in user's address and whether e-mails can reach it (internal/notify/verify.go). */
export const emailStateQuery = queryOptions({
  queryKey: ['user', 'email'],
  queryFn: ({ signal }) => typedApi.get('/v2/user/email', undefined, { signal }),
});

/** Mails a verification link to the profile's address. */
export function useSendEmailLink() {
  return useMutation({
    mutationFn: () => typedApi.post('/v2/user/email/verify', {}),
    onSuccess: (state) => queryClient.setQueryData(emailStateQuery.queryKey, state),
  });
}

/** The server's VAPID key and the caller's subscribed browsers (internal/notify/pushapi.go). */
export const pushStateQuery = queryOptions({
  queryKey: ['user', 'push'],
  queryFn: ({ signal }) => typedApi.get('/v2/push/state', undefined, { signal }),
});

/** Subscribes this browser (asks for permission first) and tells the server. */
export function useSubscribePush() {
  return useMutation({
    mutationFn: async (publicKey: string) => {
      if ((await Notification.requestPermission()) !== 'granted') {
        throw new PushRefused();
      }
      const reg = await serviceWorker();
      if (!reg) throw new PushRefused();
      const sub =
        (await reg.pushManager.getSubscription()) ??
        (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey(publicKey) }));
      const json = sub.toJSON();
      return typedApi.post('/v2/push/subscribe', {
        body: { endpoint: json.endpoint ?? '', keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
      });
    },
    onSuccess: (state) => queryClient.setQueryData(pushStateQuery.queryKey, state),
  });
}

/** Unsubscribes this browser, here and on the server. */
export function useUnsubscribePush() {
  return useMutation({
    mutationFn: async () => {
      const reg = await serviceWorker();
      const sub = await reg?.pushManager.getSubscription();
      if (!sub) return typedApi.get('/v2/push/state', undefined);
      await sub.unsubscribe();
      return typedApi.post('/v2/push/unsubscribe', { body: { endpoint: sub.endpoint } });
    },
    onSuccess: (state) => queryClient.setQueryData(pushStateQuery.queryKey, state),
  });
}

/** The user (or the browser) refused notifications. */
export class PushRefused extends Error {
  constructor() {
    super('notifications refused');
  }
}
