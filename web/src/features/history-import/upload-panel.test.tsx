import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { FakeXhr } from './fake-xhr';
import { historyImportTexts } from './texts';
import { UploadPanel } from './upload-panel';

const fetchMock = vi.fn<typeof fetch>();
const ok = (data: unknown) => jsonResponse({ code: 200, msg: 'ok', data });

describe('UploadPanel', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en-US');
    await historyImportTexts.ready('en-US');
  });
  afterAll(() => void i18n.changeLanguage('zh-CN'));
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setToken('t');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('shows an upload\'s progress, then the stored file, and previews it', async () => {
    const user = userEvent.setup();
    let files: unknown[] = [];
    fetchMock.mockImplementation(async (input) => (String(input).startsWith('/v2/import/file/list') ? ok(files) : ok(null)));
    const onPreview = vi.fn();
    renderWithProviders(<UploadPanel chosen={[]} onChosen={() => undefined} previewId={null} onPreview={onPreview} onDeleted={() => undefined} />);
    expect(await screen.findByText('No files uploaded yet')).toBeInTheDocument();

    await user.upload(screen.getByLabelText('Choose files'), new File(['Time,SN\n2024-06-01 10:05,INV-1\n'], 'plant.csv', { type: 'text/csv' }));
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.url).toBe('/v2/import/file/upload?name=plant.csv');
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 3, total: 4 });
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Uploading plant.csv' })).toHaveAttribute('aria-valuenow', '75'));

    files = [{ id: 11, name: 'plant.csv', kind: 'csv', size: 32, createdAt: '2026-11-28T01:00:00Z' }];
    xhr.answer(200, { code: 200, msg: 'ok', data: files[0] });
    expect(await screen.findByText('32 B')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(onPreview).toHaveBeenCalledWith(11);
  });
});
