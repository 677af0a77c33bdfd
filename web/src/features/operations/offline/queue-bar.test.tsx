import { act as flushAct, screen } from '@testing-library/react';
import { i18n } from '@/lib/i18n';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { act, resetQueue, useOfflineQueue } from './queue';
import { QueueBar, RETRY_MS } from './queue-bar';

const fetchMock = vi.fn<typeof fetch>();

function setOnline(online: boolean) {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
}

function Count() {
  return <span data-testid="count">{useOfflineQueue().queue.length}</span>;
}

describe('the offline queue bar', () => {
  beforeAll(() => void i18n.changeLanguage('en-US'));
  afterAll(() => void i18n.changeLanguage('zh-CN'));
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    resetQueue();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    setOnline(true);
  });

  it('tries a waiting action again while online, when the first send after "online" could not reach the server', async () => {
    setOnline(false);
    expect(await act({ orderId: 7, number: 'WO-7', route: '/v2/workorder/transition/{uid}', body: { action: 'accept' }, what: 'ops.queue.what.accept' })).toBe('queued');

    // the phone says it is online again, but the link does not carry yet
    setOnline(true);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    fetchMock.mockResolvedValue(jsonResponse({ code: 200, msg: 'ok', data: { id: 7 } }));
    renderWithProviders(
      <>
        <QueueBar />
        <Count />
      </>,
    );
    await flushAct(async () => {
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('count')).toHaveTextContent('1');

    // half a minute later it is sent, with the key it was taken with, and nothing waits
    await flushAct(async () => {
      await vi.advanceTimersByTimeAsync(RETRY_MS);
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [first, second] = fetchMock.mock.calls.map((call) => new Headers(call[1]?.headers).get('Idempotency-Key'));
    expect(second).toBe(first);
    await vi.waitFor(() => expect(screen.getByTestId('count')).toHaveTextContent('0'));

    // nothing waits: no more sends
    await flushAct(async () => {
      await vi.advanceTimersByTimeAsync(RETRY_MS * 2);
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
