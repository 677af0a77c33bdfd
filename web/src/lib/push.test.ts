import {
  backoffDelay,
  CLOSE_SESSION_ENDED,
  parseFrame,
  PushClient,
  type PushEvent,
  pushUrl,
  type SessionState,
  type SocketLike,
} from './push';

/** A WebSocket stand-in the test opens, feeds and closes by hand. */
class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  closedWith: number | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  open() {
    this.onopen?.({});
  }

  send(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  /** The server (or the network) ends the connection. */
  drop(code = 1006) {
    this.onclose?.({ code });
  }

  close(code = 1000) {
    this.closedWith = code;
  }
}

const last = () => FakeSocket.all[FakeSocket.all.length - 1]!;

function setup(session: SessionState = 'alive', random = 0.5) {
  const checkSession = vi.fn(async () => session);
  const client = new PushClient({
    url: (token) => `ws://test/push?token=${token}`,
    createSocket: (url) => new FakeSocket(url),
    checkSession,
    random: () => random,
    baseDelayMs: 1_000,
    maxDelayMs: 30_000,
    stableMs: 10_000,
    idleCloseMs: 1_000,
  });
  const events: PushEvent[] = [];
  return { client, checkSession, events, listen: () => client.subscribe((event) => events.push(event)) };
}

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, keeping a random half as jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, 1_000, 30_000, 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect(backoffDelay(0, 1_000, 30_000, 0)).toBe(500);
    expect(backoffDelay(3, 1_000, 30_000, 0)).toBe(4_000);
    expect(backoffDelay(20, 1_000, 30_000, 0.5)).toBe(22_500);
  });

  it('keeps a random out of range inside the bounds', () => {
    expect(backoffDelay(0, 1_000, 30_000, -1)).toBe(500);
    expect(backoffDelay(0, 1_000, 30_000, 7)).toBe(1_000);
  });
});

describe('parseFrame', () => {
  it('reads hello, counts and message frames of internal/push/hub.go', () => {
    expect(parseFrame('{"type":"hello","data":{"userId":7,"since":"2026-01-01T00:00:00Z"}}', true)).toEqual({
      type: 'hello',
      userId: 7,
      since: '2026-01-01T00:00:00Z',
      reconnected: true,
    });
    expect(parseFrame('{"type":"counts","data":{"unread":3,"unprocessedAlarm":2}}', false)).toEqual({
      type: 'counts',
      counts: { unread: 3, unprocessedAlarm: 2 },
    });
    const message = parseFrame(
      '{"type":"message","data":{"id":9,"messageType":"alarm","alarmId":4},"counts":{"unread":4,"unprocessedAlarm":3}}',
      false,
    );
    expect(message).toMatchObject({
      type: 'message',
      message: { id: 9, messageType: 'alarm', alarmId: 4 },
      counts: { unread: 4, unprocessedAlarm: 3 },
    });
    expect(parseFrame('{"type":"message","data":{"id":9}}', false)).toMatchObject({ counts: undefined });
    expect(parseFrame('{"type":"orders","data":{"at":"2026-01-01T00:00:00Z"}}', false)).toEqual({
      type: 'orders',
      at: '2026-01-01T00:00:00Z',
    });
  });

  it('ignores what it does not understand', () => {
    expect(parseFrame('not json', false)).toBeNull();
    expect(parseFrame('{"type":"other","data":{}}', false)).toBeNull();
    expect(parseFrame('{"type":"message","data":{}}', false)).toBeNull();
    expect(parseFrame(new ArrayBuffer(2), false)).toBeNull();
    expect(parseFrame('null', false)).toBeNull();
  });
});

describe('PushClient', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens one connection for every listener, and passes the frames on', () => {
    const { client, events, listen } = setup();
    client.setToken('t1');
    expect(FakeSocket.all).toHaveLength(0);
    listen();
    const other: PushEvent[] = [];
    client.subscribe((event) => other.push(event));
    expect(FakeSocket.all).toHaveLength(1);
    expect(last().url).toBe('ws://test/push?token=t1');
    last().open();
    last().send({ type: 'hello', data: { userId: 1, since: 's' } });
    last().send({ type: 'counts', data: { unread: 1, unprocessedAlarm: 1 } });
    expect(events.filter((event) => event.type !== 'status')).toEqual([
      { type: 'hello', userId: 1, since: 's', reconnected: false },
      { type: 'counts', counts: { unread: 1, unprocessedAlarm: 1 } },
    ]);
    const frames = (list: PushEvent[]) => list.filter((event) => event.type !== 'status');
    expect(frames(other)).toEqual(frames(events));
    expect(client.status).toBe('open');
  });

  it('reconnects a dropped connection with growing, capped delays and starts over once it held', async () => {
    const { client, checkSession, listen } = setup('alive', 1);
    client.setToken('t');
    listen();
    last().open();
    last().send({ type: 'hello', data: { userId: 1, since: 's' } });
    last().drop();
    expect(client.status).toBe('waiting');
    expect(checkSession).not.toHaveBeenCalled();

    // Each attempt fails before opening: the session is checked, then the wait doubles.
    const waits: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const before = FakeSocket.all.length;
      let waited = 0;
      while (FakeSocket.all.length === before) {
        await vi.advanceTimersByTimeAsync(500);
        waited += 500;
      }
      waits.push(waited);
      last().drop();
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(checkSession).toHaveBeenCalledTimes(7);

    // A connection that stays up longer than stableMs resets the backoff.
    await vi.advanceTimersByTimeAsync(30_000);
    const socket = last();
    socket.open();
    await vi.advanceTimersByTimeAsync(10_000);
    socket.drop();
    const before = FakeSocket.all.length;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.all.length).toBe(before + 1);
  });

  it('marks the hello of a later connection as a reconnection', async () => {
    const { client, events, listen } = setup();
    client.setToken('t');
    listen();
    last().open();
    last().send({ type: 'hello', data: { userId: 1, since: 's' } });
    last().drop();
    await vi.advanceTimersByTimeAsync(1_000);
    last().open();
    last().send({ type: 'hello', data: { userId: 1, since: 's' } });
    const hellos = events.filter((event) => event.type === 'hello');
    expect(hellos.map((event) => event.type === 'hello' && event.reconnected)).toEqual([false, true]);
  });

  it('adds jitter: the same attempt waits differently with another random', async () => {
    const early = setup('alive', 0);
    early.client.setToken('t');
    early.listen();
    last().open();
    last().drop();
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('stops for good after a 4001 close and lets the session check speak', async () => {
    const { client, checkSession, listen } = setup('ended');
    client.setToken('t');
    listen();
    last().open();
    last().drop(CLOSE_SESSION_ENDED);
    expect(client.status).toBe('stopped');
    expect(checkSession).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('stops when a refused connection turns out to be an ended session (401, 50012)', async () => {
    const { client, checkSession, listen } = setup('ended');
    client.setToken('t');
    listen();
    last().drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(checkSession).toHaveBeenCalledTimes(1);
    expect(client.status).toBe('stopped');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('keeps trying while the server cannot be reached', async () => {
    const { client, listen } = setup('unknown');
    client.setToken('t');
    listen();
    last().drop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('closes on sign-out and does not come back; a new sign-in connects again', async () => {
    const { client, listen } = setup();
    client.setToken('t');
    listen();
    const first = last();
    first.open();
    client.setToken(null);
    expect(first.closedWith).toBe(1000);
    expect(client.status).toBe('stopped');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    client.setToken('t2');
    expect(FakeSocket.all).toHaveLength(2);
    expect(last().url).toContain('token=t2');
  });

  it('cancels a pending retry on sign-out', async () => {
    const { client, listen } = setup();
    client.setToken('t');
    listen();
    last().open();
    last().drop();
    client.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('closes a while after the last listener leaves, unless another arrives', async () => {
    const { client, listen } = setup();
    client.setToken('t');
    const stop = listen();
    const socket = last();
    socket.open();
    stop();
    await vi.advanceTimersByTimeAsync(500);
    const again = listen();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(socket.closedWith).toBeNull();
    again();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(socket.closedWith).toBe(1000);
    expect(client.status).toBe('idle');
  });
});

describe('pushUrl', () => {
  it('follows the page scheme on the same origin and carries the token and language', () => {
    expect(pushUrl('a b', '', { protocol: 'https:', host: 'helio.example:8443' })).toMatch(
      /^wss:\/\/helio\.example:8443\/v2\/webpush\/message\?token=a\+b&lang=/,
    );
    expect(pushUrl('t', '', { protocol: 'http:', host: 'localhost:8080' })).toMatch(/^ws:\/\/localhost:8080\/v2\/webpush\/message\?/);
    expect(pushUrl('t', '/console', { protocol: 'http:', host: 'h' })).toMatch(/^ws:\/\/h\/console\/v2\/webpush\/message\?/);
    expect(pushUrl('t', 'https://api.example/', { protocol: 'http:', host: 'h' })).toMatch(
      /^wss:\/\/api\.example\/v2\/webpush\/message\?/,
    );
  });
});
