import type { ChecklistTemplate, WorkOrderDetail } from '../api/work-orders';
import { dataUrlBytes, withQueued } from './optimistic';
import type { QueuedAction } from './queue';

const order = {
  id: 7,
  number: 'WO-7',
  status: 1,
  actions: ['accept', 'reject'],
  onSite: false,
  events: [],
  comments: [],
  attachments: [],
  checkIns: [],
  checklist: null,
  actualStart: null,
  actualEnd: null,
} as unknown as WorkOrderDetail;

const template = {
  id: 3,
  name: 'Inverter service',
  items: [
    { key: 'filters', label: 'Clean the filters', kind: 'check', required: true },
    { key: 'voc', label: 'Voc', kind: 'reading', unit: 'V', required: true },
    { key: 'cabinet', label: 'Cabinet', kind: 'photo', required: true },
  ],
} as unknown as ChecklistTemplate;

let at = 1_000;
function queued(route: QueuedAction['route'], body: unknown, extra: Partial<QueuedAction> = {}): QueuedAction {
  at += 1;
  return { key: `k${at}`, orderId: 7, number: 'WO-7', route, body, what: 'x', user: 'operator', queuedAt: at, ...extra };
}

describe('an order with its queued actions applied', () => {
  it('accepts, starts, checks in, answers the checklist and finishes in a row', () => {
    const photo = -42;
    const queue = [
      queued('/v2/workorder/transition/{uid}', { action: 'accept', comment: '' }),
      queued('/v2/workorder/checklist/{uid}', { templateId: 3 }),
      queued('/v2/workorder/transition/{uid}', { action: 'start', comment: '' }),
      queued('/v2/workorder/checkin/{uid}', { kind: 'in', lat: 36.4, lng: 94.9 }),
      queued('/v2/workorder/checklist/answer/{uid}', { key: 'filters', done: true }),
      queued('/v2/workorder/checklist/answer/{uid}', { key: 'voc', done: true, value: 812 }),
      queued('/v2/workorder/attachment/{uid}', { name: 'cabinet.jpg', data: 'data:image/jpeg;base64,AAAA' }, { ref: photo }),
    ];
    let o = withQueued(order, queue, [template]);
    expect(o.status).toBe(3);
    expect(o.onSite).toBe(true);
    expect(o.actions).toEqual(['finish']);
    expect(o.checkIns).toHaveLength(1);
    expect(o.checklist?.missing).toBe(1); // the photo
    expect(o.attachments.map((a) => [a.id, a.contentType])).toEqual([[photo, 'image/jpeg']]);
    queue.push(queued('/v2/workorder/checklist/answer/{uid}', { key: 'cabinet', done: true, attachmentId: photo }));
    queue.push(queued('/v2/workorder/transition/{uid}', { action: 'finish', comment: 'done' }));
    o = withQueued(order, queue, [template]);
    expect(o.checklist?.missing).toBe(0);
    expect(o.status).toBe(4);
    expect(o.onSite).toBe(false);
    expect(o.events.map((e) => e.action)).toEqual(['accept', 'start', 'finish']);
    // another order's actions do not touch it, and the server's copy is left as it was
    expect(withQueued({ ...order, id: 8 }, queue, [template]).status).toBe(1);
    expect(order.status).toBe(1);
  });
});

describe('a photo waiting offline', () => {
  it('is shown with the size of the bytes it holds', () => {
    expect(dataUrlBytes('data:image/png;base64,')).toBe(0);
    expect(dataUrlBytes(`data:image/png;base64,${btoa('abc')}`)).toBe(3);
    expect(dataUrlBytes(`data:image/png;base64,${btoa('abcd')}`)).toBe(4);
    expect(dataUrlBytes(`data:image/jpeg;base64,${btoa('x'.repeat(1000))}`)).toBe(1000);
  });
});
