import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { Proposal } from './api/plans';
import { editorKey, PlanEditor } from './plan-editor';
import { opsTexts } from './texts';

const fetchMock = vi.fn<typeof fetch>();

const approved: Proposal = {
  id: 4,
  stationId: 1,
  stationName: 'Lisbon',
  year: 2026,
  months: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
  totalKwh: 1200,
  status: 3,
  submitterId: 2,
  submitter: 'Otto Operator',
  approverId: 1,
  approver: 'Ada Admin',
  refusalReason: '',
  submittedAt: '2026-01-05 10:00:00',
  decidedAt: '2026-01-06 10:00:00',
  updatedAt: '2026-01-06 10:00:00',
};

describe('PlanEditor', () => {
  beforeAll(() => opsTexts.ready('zh-CN'));
  beforeEach(() => {
    fetchMock.mockReset();
    fetchMock.mockImplementation(async () => jsonResponse({ code: 200, msg: 'ok', data: { list: [], total: 0 } }));
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('keeps the total being typed when the same proposal arrives again', async () => {
    const user = userEvent.setup();
    const view = renderWithProviders(<PlanEditor key={editorKey(1, 2026, approved)} stationId={1} year={2026} proposal={approved} />);
    const total = screen.getByRole('spinbutton', { name: '年度计划 (kWh)' });
    expect(total).toHaveValue('1200');
    await user.clear(total);
    await user.type(total, '12345');
    await user.tab();
    // a refetch answers the same proposal in new objects
    const again = { ...approved, months: [...approved.months] };
    view.rerender(<PlanEditor key={editorKey(1, 2026, again)} stationId={1} year={2026} proposal={again} />);
    expect(screen.getByRole('spinbutton', { name: '年度计划 (kWh)' })).toHaveValue('12345');
  });

  it('sends nothing while a spread is on its way, then shows the spread months', async () => {
    const user = userEvent.setup();
    let answer: (r: Response) => void = () => undefined;
    fetchMock.mockImplementation(async (input) =>
      String(input).includes('/v2/plan/proposal/spread')
        ? new Promise<Response>((done) => {
            answer = done;
          })
        : jsonResponse({ code: 200, msg: 'ok', data: { list: [], total: 0 } }),
    );
    renderWithProviders(<PlanEditor key={editorKey(1, 2026, approved)} stationId={1} year={2026} proposal={approved} />);
    const total = screen.getByRole('spinbutton', { name: '年度计划 (kWh)' });
    await user.clear(total);
    await user.type(total, '2400');
    await user.click(screen.getByRole('button', { name: '按月分配' }));
    // the months shown (the plan in force) are about to be replaced: neither button sends them
    expect(screen.getByRole('button', { name: '保存草稿' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '提交审批' })).toBeDisabled();
    expect(screen.getByRole('spinbutton', { name: '6 月计划电量 (kWh)' })).toBeDisabled();
    answer(jsonResponse({ code: 200, msg: 'ok', data: { months: Array(12).fill(200), weights: Array(12).fill(1 / 12) } }));
    expect(await screen.findByText('全年合计：2,400 kWh')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '保存草稿' })).toBeEnabled();
  });

  it('starts a new editor from a proposal that changed', () => {
    expect(editorKey(1, 2026, approved)).toBe(editorKey(1, 2026, { ...approved, months: [...approved.months] }));
    expect(editorKey(1, 2026, { ...approved, updatedAt: '2026-02-01 09:00:00' })).not.toBe(editorKey(1, 2026, approved));
    expect(editorKey(2, 2026, approved)).not.toBe(editorKey(1, 2026, approved));
    expect(editorKey(1, 2026)).not.toBe(editorKey(1, 2026, approved));
  });
});
