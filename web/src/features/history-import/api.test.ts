import { setToken } from '@/lib/storage';
import { uploadFile, uploadType } from './api';
import { FakeXhr } from './fake-xhr';

describe('uploadFile', () => {
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setToken('session-token');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the file as the body with its name, type and the session token, reporting progress', async () => {
    const progress: number[] = [];
    const file = new File(['Time,SN\n'], 'plant 2024.csv', { type: 'text/csv' });
    const done = uploadFile(file, (f) => progress.push(f));
    const xhr = FakeXhr.last as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/v2/import/file/upload?name=plant+2024.csv');
    expect(xhr.headers).toMatchObject({ 'Content-Type': 'text/csv', Authorization: 'Bearer session-token' });
    expect(xhr.body).toBe(file);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 4, total: 8 });
    xhr.answer(200, { code: 200, msg: 'ok', data: { id: 7, name: 'plant 2024.csv', kind: 'csv', size: 8 } });
    await expect(done).resolves.toMatchObject({ id: 7 });
    expect(progress).toEqual([0.5, 1]);
  });

  it('rejects with the server\'s message', async () => {
    const done = uploadFile(new File(['x'], 'big.xlsx'), () => undefined);
    (FakeXhr.last as FakeXhr).answer(413, { code: 413, msg: 'The import files hold at most 1 GiB', data: null });
    await expect(done).rejects.toMatchObject({ code: 413, msg: 'The import files hold at most 1 GiB' });
  });

  it('names XLSX files by their type', () => {
    expect(uploadType('Report.XLSX')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(uploadType('export.txt')).toBe('text/csv');
  });
});
