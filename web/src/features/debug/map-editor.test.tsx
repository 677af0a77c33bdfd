import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { queryClient } from '@/lib/query-client';
import { setToken } from '@/lib/storage';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { MapEditor, parseMap } from './map-editor';
import { debugTexts } from './texts';

const fetchMock = vi.fn<typeof fetch>();

describe('MapEditor', () => {
  beforeAll(() => debugTexts.ready('zh-CN'));
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    setToken('t');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    queryClient.clear();
  });

  it('tells JSON it cannot read from a map', () => {
    expect(parseMap('{"name":"x"}').map).toEqual({ name: 'x' });
    expect(parseMap('{"name":').error).toBeTruthy();
  });

  it('saves the map as typed and lists every problem the server names, by register', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation((url) =>
      Promise.resolve(
        String(url).includes('/register/config/add')
          ? jsonResponse(
              {
                code: 400,
                msg: 'Invalid input',
                data: { fields: { 'registers[0].foo': 'Not a register field', 'registers[0].values.0xZZ': 'Use a whole number' } },
              },
              400,
            )
          : jsonResponse({ code: 200, msg: 'ok', data: String(url).includes('/v2/dev/listbytype') ? { list: [], total: 0 } : [] }),
      ),
    );
    renderWithProviders(<MapEditor />);
    const json = await screen.findByRole('textbox', { name: '点表（JSON）' });
    await user.clear(json);
    await user.click(json);
    await user.paste('{"name":"draft",');
    expect(await screen.findByText(/不是有效的 JSON/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '保存点表' })).toBeDisabled();
    await user.paste('"registers":[{"name":"s","foo":1}]}');
    await user.click(screen.getByRole('button', { name: '保存点表' }));
    const problems = await screen.findByRole('alert', { name: '点表中的问题' });
    expect(problems).toHaveTextContent('registers[0].foo: Not a register field');
    expect(problems).toHaveTextContent('registers[0].values.0xZZ: Use a whole number');
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith('/v1/scada/register/config/add'))).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/v1/scada/register/config/add'))!;
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'draft', registers: [{ name: 's', foo: 1 }] });
    // the preview needs a device first
    expect(screen.getByRole('button', { name: '在设备上预览' })).toBeDisabled();
  });
});
