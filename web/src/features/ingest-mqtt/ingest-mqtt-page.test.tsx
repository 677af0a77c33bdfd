import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { ArrivedList, MapPreset, MapPresetApplied, MapRule, MapRuleList } from './api';
import { IngestMqttPage } from './ingest-mqtt-page';
import { ingestMqttTexts } from './texts';

const fetchMock = vi.fn<typeof fetch>();
const ok = (data: unknown) => jsonResponse({ code: 200, msg: 'ok', data });

const acPower: MapRule = {
  id: 3,
  name: 'OpenDTU AC power',
  topic: 'solar/{serial}/0/power',
  device: '{serial}',
  fields: [{ path: '', field: 'powerKw', scale: 0.001 }],
};
const rules: MapRuleList = { root: 'helio/map/7/', rules: [acPower] };
const presets: MapPreset[] = [
  { key: 'opendtu', title: 'OpenDTU (Hoymiles microinverters)', root: 'solar', rules: [] },
  { key: 'tasmota', title: 'Tasmota energy meter', root: 'tele', rules: [] },
];
const arrived: ArrivedList = {
  root: 'helio/map/7/',
  topics: [
    { topic: 'solar/dtu/ip', reason: 'no_rule', device: '', detail: '', count: 4, last: '2026-11-28T01:00:00Z', payload: '192.168.1.20', trimmed: false },
  ],
};

/** Answers the page's reads; posts answer `post`. */
function serve(post: (url: string, body: unknown) => Response) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (init?.method === 'POST') {
      return post(url, JSON.parse(String(init.body ?? 'null')));
    }
    if (url.startsWith('/v2/ingest/mqtt/rule/list')) return ok(rules);
    if (url.startsWith('/v2/ingest/mqtt/preset/list')) return ok(presets);
    if (url.startsWith('/v2/ingest/mqtt/arrived')) return ok(arrived);
    return jsonResponse({ code: 404, msg: 'not found', data: null }, 404);
  });
}

describe('IngestMqttPage', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en-US');
    await ingestMqttTexts.ready('en-US');
  });
  afterAll(() => void i18n.changeLanguage('zh-CN'));
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('lists the rules, the root and what arrived without a sample', async () => {
    serve(() => ok(null));
    renderWithProviders(<IngestMqttPage />);
    expect(await screen.findByText('solar/{serial}/0/power')).toBeInTheDocument();
    expect(screen.getByText('(number) → powerKw ×0.001')).toBeInTheDocument();
    expect(screen.getByText(/under helio\/map\/7\//)).toBeInTheDocument();
    expect(await screen.findByText('solar/dtu/ip')).toBeInTheDocument();
    expect(screen.getByText('No rule')).toBeInTheDocument();
    expect(screen.getByText('192.168.1.20')).toBeInTheDocument();
  });

  it('applies the chosen preset under the base topic given', async () => {
    const user = userEvent.setup();
    const posts: [string, unknown][] = [];
    serve((url, body) => {
      posts.push([url, body]);
      const applied: MapPresetApplied = { added: [{ ...acPower, id: 9, topic: 'site-a/dtu/{serial}/0/power' }], skipped: 7 };
      return ok(applied);
    });
    renderWithProviders(<IngestMqttPage />);
    await screen.findByText('solar/{serial}/0/power');
    await user.type(screen.getByRole('textbox', { name: 'Base topic' }), 'site-a/dtu');
    await user.click(screen.getByRole('button', { name: 'Add preset rules' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual(['/v2/ingest/mqtt/preset/apply', { preset: 'opendtu', root: 'site-a/dtu' }]);
    expect(await screen.findByText('1 rules added, 7 already mapped')).toBeInTheDocument();
  });

  it('shows the server\'s field errors in the rule dialog and stays open', async () => {
    const user = userEvent.setup();
    serve(() => jsonResponse({ code: 400, msg: 'Invalid input', data: { fields: { topic: 'Level 2 is not valid' } } }, 400));
    renderWithProviders(<IngestMqttPage />);
    await screen.findByText('solar/{serial}/0/power');
    await user.click(screen.getByRole('button', { name: /Add rule/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByPlaceholderText('solar/{serial}/0/power'), 'solar/#/x');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Level 2 is not valid')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/v2/ingest/mqtt/rule/add')).toBe(true);
  });
});
