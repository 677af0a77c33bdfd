import { jsonResponse } from '@/testing/test-utils';
import { type ApiData, fillPath, type Schemas, typedApi } from './api-typed';
import { setToken } from './storage';

const fetchMock = vi.fn<typeof fetch>();

describe('typed api', () => {
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    setToken('secret');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('fills path templates, encoding each value, and refuses a missing one', () => {
    expect(fillPath('/v2/dev/detail/{deviceId}', { deviceId: 3 })).toBe('/v2/dev/detail/3');
    expect(fillPath('/v2/site/cover/{file}', { file: 'a b/c.png' })).toBe('/v2/site/cover/a%20b%2Fc.png');
    expect(() => fillPath('/v2/warn/detail/{uid}', {})).toThrow('{uid}');
  });

  it('sends the filled path, the query and the body, and resolves with the data', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 200, msg: 'ok', data: { id: 9, reason: 'fixed' } }));
    const got = await typedApi.post('/v2/warn/deal/{uid}', { path: { uid: 9 }, body: { reason: 'fixed', dealMethod: 1 } });
    expect(got).toEqual({ id: 9, reason: 'fixed' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(/\/v2\/warn\/deal\/9$/);
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ reason: 'fixed', dealMethod: 1 });

    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 200, msg: 'ok', data: { total: 1 } }));
    await typedApi.get('/v2/warn/dailyinfo', { query: { stationId: 4 } });
    expect(String(fetchMock.mock.calls[1]![0])).toMatch(/\/v2\/warn\/dailyinfo\?stationId=4$/);
  });

  it('types the answer, the path parameters and the body from the API description', () => {
    expectTypeOf<ApiData<'/v2/warn/detail/{uid}', 'get'>>().toEqualTypeOf<Schemas['AlarmDetail']>();
    expectTypeOf<Schemas['Alarm']['recoveryTime']>().toEqualTypeOf<string | null>();
    const typeOnly = () => {
      // @ts-expect-error the route names its alarm
      void typedApi.get('/v2/warn/detail/{uid}');
      // @ts-expect-error a body the route does not take
      void typedApi.post('/v2/warn/deal/{uid}', { path: { uid: 1 }, body: { reason: 1 } });
      // @ts-expect-error no such route
      void typedApi.get('/v2/warn/nowhere');
    };
    expect(typeOnly).toBeTypeOf('function');
  });
});
