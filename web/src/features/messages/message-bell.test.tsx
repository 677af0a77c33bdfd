import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import type { PushMessage } from '@/lib/push';
import { queryClient } from '@/lib/query-client';
import { clearSessionStorage, setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { MessageBell } from './message-bell';
import { useMessageStore } from './message-store';
import { messageTexts } from './texts';

/** The browser's WebSocket, played by the test. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {}
  send(frame: unknown) {
    act(() => this.onmessage?.({ data: JSON.stringify(frame) }));
  }
}

const fetchMock = vi.fn<typeof fetch>();
/** What the server holds; the test changes it as the story goes. */
let server: { list: PushMessage[]; counts: { unread: number; unprocessedAlarm: number } };

const alarmMessage = (id: number, title: string): PushMessage => ({
  id,
  type: 'notice',
  title,
  subTitle: 'Sunny Hill',
  avatar: '',
  content: 'INV-07 · 逆变器故障',
  time: new Date().toISOString(),
  messageType: 'alarm',
  status: 0,
  priority: 3,
  updateTime: '',
  timeoutStatus: 0,
  processStatus: 'pending',
  alarmId: 500 + id,
  refId: 0,
  timezone: 'Asia/Shanghai',
});

function Where() {
  const location = useLocation();
  return <output aria-label="where">{`${location.pathname}${location.search}`}</output>;
}

describe('MessageBell', () => {
  beforeAll(() => messageTexts.ready('zh-CN'));
  beforeEach(() => {
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (input) => {
      const path = String(input).split('?')[0];
      if (path === '/v2/message/list') {
        return jsonResponse({ code: 200, msg: 'ok', data: { list: server.list, total: server.list.length, page: 1, pageSize: 200 } });
      }
      if (path === '/v2/message/counts') {
        return jsonResponse({ code: 200, msg: 'ok', data: server.counts });
      }
      if (path === '/v2/message/read') {
        server.counts = { ...server.counts, unread: server.counts.unread - 1 };
        return jsonResponse({ code: 200, msg: 'ok', data: { changed: 1, counts: server.counts } });
      }
      return jsonResponse({ code: 404, msg: 'not found', data: null }, 404);
    });
    server = { list: [alarmMessage(1, '逆变器故障')], counts: { unread: 1, unprocessedAlarm: 1 } };
    act(() => useMessageStore.getState().clear());
    setToken('t');
  });
  afterEach(() => {
    // Signing out closes the tab's push connection; the next test signs in afresh.
    clearSessionStorage();
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('shows the counters, lists the messages and takes new ones from the push without a reload', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <MessageBell />
        <Where />
      </>,
    );
    const bell = await screen.findByRole('button', { name: '消息中心，1 条未读，1 条告警待处理' });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    expect(FakeSocket.all[0]!.url).toMatch(/\/v2\/webpush\/message\?token=t&lang=zh-CN$/);

    const socket = FakeSocket.all[0]!;
    act(() => socket.onopen?.({}));
    socket.send({ type: 'hello', data: { userId: 2, since: new Date().toISOString() } });
    server.list = [alarmMessage(2, '电池故障'), ...server.list];
    server.counts = { unread: 2, unprocessedAlarm: 2 };
    socket.send({ type: 'message', data: server.list[0], counts: server.counts });
    expect(await screen.findByRole('button', { name: '消息中心，2 条未读，2 条告警待处理' })).toBe(bell);
    // both counters show on the bell
    expect(bell).toHaveAttribute('data-unprocessed', '2');
    expect(screen.getByTitle('待处理告警')).toHaveTextContent('2');

    await user.click(bell);
    const centre = await screen.findByRole('dialog', { name: '消息中心' });
    expect(within(centre).getByText('实时')).toBeInTheDocument();
    expect(within(centre).getByRole('status', { name: '未处理告警' })).toHaveTextContent(/2$/);
    expect(within(centre).getByRole('status', { name: '未读' })).toHaveTextContent(/2$/);
    const items = within(centre).getAllByRole('button', { name: /^打开告警：/ });
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['打开告警：电池故障', '打开告警：逆变器故障']);

    // Opening an alarm message (from the keyboard) marks it read and leads to that alarm.
    act(() => items[0]!.focus());
    await user.keyboard('{Enter}');
    expect(screen.getByRole('status', { name: 'where' })).toHaveTextContent('/alarm?detail=502');
    const read = fetchMock.mock.calls.find(([url]) => String(url) === '/v2/message/read');
    expect(JSON.parse(String(read?.[1]?.body))).toEqual({ ids: [2] });
    await waitFor(() => expect(bell).toHaveAccessibleName('消息中心，1 条未读，2 条告警待处理'));
  });

  it('says how many alarms the daily limit held back today', async () => {
    const user = userEvent.setup();
    const settings = (held: number) =>
      jsonResponse({
        code: 200,
        msg: 'ok',
        data: { today: { date: '2026-11-27', sent: 20, held, limit: 20, reached: true, timezone: 'Asia/Shanghai' } },
      });
    let held = 0;
    const base = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).split('?')[0] === '/v2/warn/notify/settings' ? settings(held) : base(input, init),
    );
    renderWithProviders(<MessageBell />);
    const bell = await screen.findByRole('button', { name: '消息中心，1 条未读，1 条告警待处理' });
    await user.click(bell);
    const centre = await screen.findByRole('dialog', { name: '消息中心' });
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/v2/warn/notify/settings'))).toBe(true));
    expect(within(centre).queryByText(/通知上限/)).not.toBeInTheDocument();

    held = 7;
    await act(() => queryClient.invalidateQueries({ queryKey: ['warn-notify'] }));
    expect(await within(centre).findByText('已达到每日 20 条的通知上限：今天有 7 条告警未通知。所有告警均在告警列表中；可在通知设置中提高上限。')).toBeInTheDocument();
  });

  it('follows the counters the push sends when an alarm is dealt elsewhere', async () => {
    renderWithProviders(<MessageBell />);
    await screen.findByRole('button', { name: '消息中心，1 条未读，1 条告警待处理' });
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    server.counts = { unread: 0, unprocessedAlarm: 0 };
    FakeSocket.all[0]!.send({ type: 'counts', data: server.counts });
    expect(await screen.findByRole('button', { name: '消息中心，0 条未读，0 条告警待处理' })).toBeInTheDocument();
    expect(screen.queryByTitle('待处理告警')).not.toBeInTheDocument();
  });

  it('offers a scheduled report as a download link, and says when the link has expired', async () => {
    const token = 'cd'.repeat(24);
    const report = (id: number, until: string): PushMessage => ({
      ...alarmMessage(id, `报表已生成：日报 ${id}`),
      messageType: 'system',
      subTitle: '',
      alarmId: 0,
      processStatus: '',
      content: `下载 日报.xlsx（链接有效期至 UTC ${until}）：/v2/report/file/${token}`,
    });
    server = { list: [report(1, '2999-01-01 00:00'), report(2, '2001-01-01 00:00')], counts: { unread: 2, unprocessedAlarm: 0 } };
    // the popover's tabs are still fading in (pointer-events: none) when clicked
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    renderWithProviders(<MessageBell />);
    await user.click(await screen.findByRole('button', { name: /^消息中心/ }));
    const centre = await screen.findByRole('dialog', { name: '消息中心' });
    await user.click(within(centre).getByRole('tab', { name: /系统/ }));
    const link = await within(centre).findByRole('link', { name: '下载报表：报表已生成：日报 1' });
    expect(link).toHaveAttribute('href', `/v2/report/file/${token}`);
    expect(link).toHaveAttribute('download');
    // the bare address is no longer part of the text
    expect(centre.textContent).not.toContain('/v2/report/file/');
    expect(within(centre).getAllByRole('link')).toHaveLength(1);
    expect(within(centre).getByText(/下载链接已于 .+ 过期/)).toBeInTheDocument();
  });
});
