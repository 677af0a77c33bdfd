import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { Job, Preview, Report } from './api';
import { HistoryImportPage } from './history-import-page';
import { historyImportTexts } from './texts';

const fetchMock = vi.fn<typeof fetch>();
const ok = (data: unknown) => jsonResponse({ code: 200, msg: 'ok', data });

const file = { id: 7, name: 'plant-2024.csv', kind: 'csv', size: 2048, sha256: 'ab12', createdAt: '2026-11-28T01:00:00Z' };
const col = (c: { name: string; role: string; unit?: string; energy?: string }) => ({ unit: '', energy: '', ...c });
const report = (r: Partial<Report>): Report => ({
  rows: 0, samples: 0, stored: 0, overlapping: 0, duplicates: 0, conflicts: 0, skipped: 0, rejectedRows: 0, reasons: {}, rejects: [], ...r,
});
const preview: Preview = {
  file,
  headerRow: 0,
  header: ['Time', 'Inverter SN', 'AC Power (W)', 'Yield (Wh)', 'Irradiance (W/m2)'],
  columns: [
    col({ name: 'Time', role: 'time' }),
    col({ name: 'Inverter SN', role: 'device' }),
    col({ name: 'AC Power (W)', role: 'power', unit: 'W' }),
    col({ name: 'Yield (Wh)', role: 'energy', unit: 'Wh', energy: 'interval' }),
    col({ name: 'Irradiance (W/m2)', role: 'irradiance' }),
  ],
  rows: [
    ['01.06.2024 10:05', 'INV-1', '6120', '510', '780'],
    ['01.06.2024 10:10', 'INV-1', '6200', '517', '792'],
  ],
  timeFormat: '02.01.2006 15:04',
  timeHasOffset: false,
  timeAmbiguous: false,
  applied: '',
  appliedKey: '',
  templates: [],
  mapping: {
    headerRow: 0,
    timeColumn: 'Time',
    timeFormat: '02.01.2006 15:04',
    zone: '',
    deviceColumn: 'Inverter SN',
    match: 'serial',
    columns: [
      { name: 'AC Power (W)', field: 'power', unit: 'W', energy: '', device: '' },
      { name: 'Yield (Wh)', field: 'energy', unit: 'Wh', energy: 'interval', device: '' },
      { name: 'Irradiance (W/m2)', field: 'irradiance', unit: '', energy: '', device: '' },
    ],
  },
};
const dryRun: Job = {
  id: 3,
  dry: true,
  state: 'done',
  error: '',
  createdAt: '2026-11-28T01:05:00Z',
  updatedAt: '2026-11-28T01:05:02Z',
  progress: 1,
  files: [{ id: 7, name: file.name }],
  report: report({
    rows: 577,
    samples: 576,
    stored: 570,
    overlapping: 6,
    rejectedRows: 1,
    reasons: { unparseable_time: 1 },
    rejects: [{ file: file.name, row: 42, reason: 'unparseable_time', column: 'Time' }],
  }),
};
const importJob = (progress: number, state: string): Job => ({
  id: 4,
  dry: false,
  state,
  error: '',
  progress,
  files: [{ id: 7, name: file.name }],
  createdAt: '2026-11-28T01:10:00Z',
  updatedAt: '2026-11-28T01:10:05Z',
  report: report({ rows: Math.round(577 * progress), stored: Math.round(570 * progress), rejectedRows: 1 }),
});

describe('HistoryImportPage', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en-US');
    await historyImportTexts.ready('en-US');
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

  it('previews a file, edits its mapping, shows the dry run report and follows a running import', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const posts: [string, unknown][] = [];
    let jobs: Job[] = [];
    let polls = 0;
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body ?? 'null')) as unknown;
        posts.push([url, body]);
        if (url === '/v2/import/preview') return ok(preview);
        if (url === '/v2/import/dryrun') {
          jobs = [{ ...dryRun, state: 'queued', progress: 0 }];
          return ok(jobs[0]);
        }
        if (url === '/v2/import/job/start') {
          jobs = [importJob(0.1, 'running'), dryRun];
          return ok(jobs[0]);
        }
        return ok(null);
      }
      if (url.startsWith('/v2/import/file/list')) return ok([file]);
      if (url.startsWith('/v2/import/template/list')) return ok([]);
      if (url.startsWith('/v2/import/job/list')) return ok(jobs);
      if (url === '/v2/import/job/3') return ok(dryRun);
      if (url === '/v2/import/job/4') {
        polls += 1;
        if (polls > 1) jobs = [importJob(1, 'done'), dryRun];
        return ok(polls === 1 ? importJob(0.4, 'running') : jobs[0]);
      }
      return jsonResponse({ code: 404, msg: 'not found', data: null }, 404);
    });
    renderWithProviders(<HistoryImportPage />);

    // the uploaded file, its size and zoned upload time
    expect(await screen.findByText('plant-2024.csv')).toBeInTheDocument();
    expect(screen.getByText('2.0 KiB')).toBeInTheDocument();
    expect(screen.getByText('No imports or dry runs yet')).toBeInTheDocument();

    // preview: detected time format, columns and the first rows
    await user.click(screen.getByRole('button', { name: 'Preview plant-2024.csv' }));
    expect(await screen.findByText('02.01.2006 15:04')).toBeInTheDocument();
    expect(screen.getByText('no offset in the file: the zone below applies')).toBeInTheDocument();
    expect(screen.getByText('Energy counter (kWh) · Wh · Per interval')).toBeInTheDocument();
    const rows = screen.getByRole('region', { name: 'First rows' });
    expect(within(rows).getByText('01.06.2024 10:10')).toBeInTheDocument();
    expect(within(rows).getByText('6200')).toBeInTheDocument();

    // mapping: irradiance ignored
    await user.click(screen.getByRole('combobox', { name: 'Sample field of Irradiance (W/m2)' }));
    await user.click(await screen.findByRole('option', { name: 'Ignore' }));

    // dry run and its report
    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    await waitFor(() => expect(posts.some(([u]) => u === '/v2/import/dryrun')).toBe(true));
    const [, body] = posts.find(([u]) => u === '/v2/import/dryrun') ?? [];
    expect(body).toEqual({
      files: [{ fileId: 7, device: '' }],
      mapping: { ...preview.mapping, columns: preview.mapping?.columns?.slice(0, 2) },
    });
    const report = await screen.findByLabelText('Report of job 3');
    expect(await within(report).findByText('570')).toBeInTheDocument();
    expect(within(report).getByText('Duplicate or overlapping')).toBeInTheDocument();
    expect(within(report).getByText('42')).toBeInTheDocument();
    expect(within(report).getAllByText('The time does not read in the format')).toHaveLength(2);

    // the import, followed while it runs
    await user.click(screen.getByRole('button', { name: 'Start import' }));
    await waitFor(() => expect(posts.some(([u]) => u === '/v2/import/job/start')).toBe(true));
    const row = (await screen.findByRole('button', { name: 'Pause job 4' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('Running')).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByRole('progressbar', { name: 'Progress of job 4' })).toHaveAttribute('aria-valuenow', '40'));
    expect(within(row).getByText('40%')).toBeInTheDocument();
    // the next poll, 2 s on, finds it done
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Pause job 4' })).toBeNull(), { timeout: 5000 });
    const done = screen.getByRole('button', { name: 'Show the report of job 4' }).closest('tr') as HTMLElement;
    expect(within(done).getByText('Done')).toBeInTheDocument();
    expect(within(done).getByRole('progressbar', { name: 'Progress of job 4' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(done).getByText('577')).toBeInTheDocument();
    expect(screen.getByLabelText('Report of job 4')).toHaveTextContent('Import #4 · Done');
  }, 20_000);

  it('names each file\'s device without a device column and saves the mapping as a template', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const posts: [string, unknown][] = [];
    const single: Preview = {
      ...preview,
      header: ['Time', 'AC Power (W)'],
      columns: [col({ name: 'Time', role: 'time' }), col({ name: 'AC Power (W)', role: 'power', unit: 'W' })],
      rows: [['01.06.2024 10:05', '6120']],
      templates: ['Portal A'],
      mapping: { headerRow: 0, timeColumn: 'Time', timeFormat: '02.01.2006 15:04', zone: '', deviceColumn: '', match: 'serial', columns: [{ name: 'AC Power (W)', field: 'power', unit: 'W', energy: '', device: '' }] },
    };
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body ?? 'null')) as unknown;
        posts.push([url, body]);
        if (url === '/v2/import/preview') return ok(single);
        if (url === '/v2/import/template/save') return ok({ id: 5, name: 'Portal B', vendor: 'SMA', mapping: single.mapping });
        if (url === '/v2/import/dryrun') return ok({ ...dryRun, id: 9, state: 'queued' });
        return ok(null);
      }
      if (url.startsWith('/v2/import/file/list')) return ok([file]);
      if (url.startsWith('/v2/import/template/list')) return ok([{ id: 2, name: 'Portal A', vendor: 'SolarEdge', mapping: preview.mapping }]);
      if (url.startsWith('/v2/import/job/list')) return ok([]);
      if (url === '/v2/import/job/9') return ok({ ...dryRun, id: 9 });
      return jsonResponse({ code: 404, msg: 'not found', data: null }, 404);
    });
    renderWithProviders(<HistoryImportPage />);
    await user.click(await screen.findByRole('button', { name: 'Preview plant-2024.csv' }));
    await user.type(await screen.findByRole('textbox', { name: 'Device of plant-2024.csv' }), 'INV-7');

    await user.type(screen.getByRole('textbox', { name: 'Template name' }), 'Portal B');
    await user.type(screen.getByRole('textbox', { name: 'Vendor format' }), 'SMA');
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    await waitFor(() => expect(posts.some(([u]) => u === '/v2/import/template/save')).toBe(true));
    expect(posts.find(([u]) => u === '/v2/import/template/save')?.[1]).toEqual({ name: 'Portal B', vendor: 'SMA', mapping: single.mapping, templateId: 0 });

    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    await waitFor(() => expect(posts.some(([u]) => u === '/v2/import/dryrun')).toBe(true));
    expect(posts.find(([u]) => u === '/v2/import/dryrun')?.[1]).toEqual({ files: [{ fileId: 7, device: 'INV-7' }], mapping: single.mapping });
  });

  it('names the shipped template a vendor export is read with', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const sunny = 'SMA Sunny Explorer, energy and power (CSV)';
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (init?.method === 'POST') return ok({ ...preview, templates: [sunny], applied: sunny, appliedKey: 'sunnyExplorerPower' });
      if (url.startsWith('/v2/import/file/list')) return ok([file]);
      return ok([]);
    });
    renderWithProviders(<HistoryImportPage />);
    await user.click(await screen.findByRole('button', { name: 'Preview plant-2024.csv' }));
    const term = await screen.findByText('Template applied');
    expect(term.nextElementSibling).toHaveTextContent(sunny);
    // in another language, by its key
    await i18n.changeLanguage('zh-CN');
    await historyImportTexts.ready('zh-CN');
    expect(await screen.findByText('SMA Sunny Explorer：发电量与功率（CSV）')).toBeInTheDocument();
    await i18n.changeLanguage('en-US');
  });

  it('offers a retry when the preview fails', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (init?.method === 'POST') return jsonResponse({ code: 400, msg: 'The file cannot be read', data: null }, 400);
      if (url.startsWith('/v2/import/file/list')) return ok([file]);
      return ok([]);
    });
    renderWithProviders(<HistoryImportPage />);
    expect(await screen.findByText('Upload a file or choose Preview on one to see its columns')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Preview plant-2024.csv' }));
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dry run' })).toBeDisabled();
  });
});
