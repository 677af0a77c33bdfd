/**
 * What an order will look like once its queued actions are applied: the console shows it so
 * while offline, so that a crew member can accept, start, check in, answer the checklist and
 * finish in a row without the network. The server decides when the actions arrive; its answer
 * replaces this view.
 */
import type { ChecklistTemplate, WorkOrderDetail } from '../api/work-orders';
import type { QueuedAction } from './queue';

/** The statuses a transition leads to, and what the processor may do next in each. */
const TO: Record<string, number> = { accept: 2, start: 3, finish: 4, reject: 5, close: 4 };
const NEXT: Record<number, string[]> = { 1: ['accept', 'reject'], 2: ['start', 'reject'], 3: ['finish'], 4: [], 5: [] };

function missing(c: NonNullable<WorkOrderDetail['checklist']>): number {
  return c.items.filter((i) => i.required && !i.done).length;
}

/**
 * Applies one queued action to an order's view. templates names the checklist templates (to
 * take one offline); user is who acts.
 */
/** The bytes a base64 data URL holds (a photo waiting offline is shown with its size). */
export function dataUrlBytes(url: string): number {
  const b64 = url.slice(url.indexOf(',') + 1).replace(/\s/g, '');
  if (b64 === '') return 0;
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - padding;
}

export function applyAction(order: WorkOrderDetail, a: QueuedAction, templates: readonly ChecklistTemplate[] = []): WorkOrderDetail {
  const o: WorkOrderDetail = { ...order };
  const at = new Date(a.queuedAt).toISOString();
  const body = (a.body ?? {}) as Record<string, unknown>;
  switch (a.route) {
    case '/v2/workorder/transition/{uid}': {
      const to = TO[String(body.action)];
      if (to === undefined) return o;
      o.events = [...o.events, { id: -a.queuedAt, action: String(body.action), fromStatus: o.status, toStatus: to, userId: 0, userName: a.user, comment: String(body.comment ?? ''), time: at }];
      o.status = to;
      o.actions = NEXT[to] ?? [];
      o.onSite = to === 2 || to === 3;
      if (to === 3 && !o.actualStart) o.actualStart = at;
      if (to === 4) o.actualEnd = at;
      return o;
    }
    case '/v2/workorder/comment/{uid}':
      o.comments = [...o.comments, { id: -a.queuedAt, body: String(body.body ?? ''), time: at, userId: 0, userName: a.user }];
      return o;
    case '/v2/workorder/attachment/{uid}':
      o.attachments = [
        ...o.attachments,
        { id: a.ref ?? -a.queuedAt, name: String(body.name ?? ''), contentType: /^data:([^;]+);/.exec(String(body.data ?? ''))?.[1] ?? '', size: dataUrlBytes(String(body.data ?? '')), time: at, userName: a.user },
      ];
      return o;
    case '/v2/workorder/checkin/{uid}':
      o.checkIns = [
        ...o.checkIns,
        { id: -a.queuedAt, kind: String(body.kind), at: a.queuedAt, userName: a.user, lat: (body.lat as number) ?? null, lng: (body.lng as number) ?? null, accuracyM: null, distanceM: null },
      ];
      return o;
    case '/v2/workorder/checklist/{uid}': {
      const tpl = templates.find((t) => t.id === body.templateId);
      if (!tpl) return o;
      const c = { templateId: tpl.id, name: tpl.name, missing: 0, items: tpl.items.map((i) => ({ ...i, done: false, value: null, note: '', attachmentId: 0, answeredBy: '', answeredAt: 0 })) };
      c.missing = missing(c);
      o.checklist = c;
      return o;
    }
    case '/v2/workorder/checklist/answer/{uid}': {
      if (!o.checklist) return o;
      const items = o.checklist.items.map((i) =>
        i.key === body.key
          ? { ...i, done: Boolean(body.done), value: (body.value as number | undefined) ?? i.value, attachmentId: (body.attachmentId as number | undefined) ?? i.attachmentId, answeredBy: a.user, answeredAt: a.queuedAt }
          : i,
      );
      const c = { ...o.checklist, items };
      c.missing = missing(c);
      o.checklist = c;
      return o;
    }
  }
  return o;
}

/** An order's view with every queued action of it applied, in the order taken. */
export function withQueued(order: WorkOrderDetail, queue: readonly QueuedAction[], templates: readonly ChecklistTemplate[] = []): WorkOrderDetail {
  return queue.filter((a) => a.orderId === order.id).reduce((o, a) => applyAction(o, a, templates), order);
}
