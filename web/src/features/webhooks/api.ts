import { queryOptions, useMutation } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { typedApi } from '@/lib/api-typed';
import { queryClient } from '@/lib/query-client';

/** Types generated from the API description (src/api/schema.d.ts). */
export type Webhook = components['schemas']['Webhook'];
export type WebhookInput = components['schemas']['WebhookInput'];
export type Attempt = components['schemas']['Attempt'];

/** The events a webhook may subscribe to, in the server's order (internal/notify). */
export const EVENTS = [
  'alarm.raised',
  'alarm.recovered',
  'alarm.dealt',
  'alarm.escalated',
  'workorder.created',
  'workorder.transitioned',
  'report.ready',
] as const;
/** The shapes of a delivery's body. */
export const FORMATS = ['helio', 'teams', 'slack'] as const;

/** Brand names, the same in every language; Helio's own format is named in the user's. */
const BRANDS: Record<string, string> = { teams: 'Microsoft Teams', slack: 'Slack' };

/** A format's label: the brand, or the translation of webhook.format.<format>. */
export function formatLabel(format: string | undefined, t: (key: string, opts?: { defaultValue: string }) => string): string {
  return BRANDS[format ?? ''] ?? t(`webhook.format.${format ?? ''}`, { defaultValue: format ?? '' });
}

const STATE_COLORS: Record<string, string> = { pending: 'orange', sent: 'green', failed: 'red' };

/** The tag colour of a delivery state; gray for none or one the console does not know. */
export function deliveryColor(state: string | undefined): string {
  return STATE_COLORS[state ?? ''] ?? 'gray';
}

/** Whether a time the server sends is set (Go's zero time reads as year 1). */
export function isSet(time: string | undefined): time is string {
  return !!time && new Date(time).getTime() > 0;
}

export const webhooksQuery = queryOptions({
  queryKey: ['webhook', 'list'],
  queryFn: ({ signal }) => typedApi.get('/v2/webhook/list', undefined, { signal }),
  // deliveries move on their own: follow them while the screen is open
  refetchInterval: 10_000,
});

export function logQuery(id: number) {
  return queryOptions({
    queryKey: ['webhook', 'log', id],
    queryFn: ({ signal }) => typedApi.get('/v2/webhook/log/{id}', { path: { id } }, { signal }),
    refetchInterval: 5_000,
  });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhook'] });

export function useAddWebhook() {
  return useMutation({
    mutationFn: (w: WebhookInput) => typedApi.post('/v2/webhook/add', { body: w }),
    onSuccess: refresh,
  });
}

export function useEditWebhook() {
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: WebhookInput }) => typedApi.post('/v2/webhook/edit/{id}', { path: { id }, body: input }),
    onSuccess: refresh,
  });
}

export function useDeleteWebhook() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/webhook/delete/{id}', { path: { id } }),
    onSuccess: refresh,
  });
}

export function useSendTest() {
  return useMutation({
    mutationFn: (id: number) => typedApi.post('/v2/webhook/test/{id}', { path: { id } }),
    onSuccess: refresh,
  });
}
