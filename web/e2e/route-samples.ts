import { type DeclaredRoute, declaredRoutes, pathParams } from './routes';
import { baseUrl, DEMO_PASSWORD } from './support';

// Concrete addresses for the route table's signed-in routes: shared by the specs that visit
// every screen (axe, layout).

interface Envelope<T> {
  code: number;
  data: T;
}

async function apiGet<T>(path: string, token: string): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await response.json()) as Envelope<T>;
  if (body.code !== 200) {
    throw new Error(`${path}: code ${body.code}`);
  }
  return body.data;
}

export async function apiToken(username = 'admin'): Promise<string> {
  const response = await fetch(`${baseUrl()}/v2/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as Envelope<{ token: string }>;
  if (body.code !== 200 || !body.data?.token) {
    throw new Error(`sign-in as ${username}: code ${body.code}`);
  }
  return body.data.token;
}

/**
 * Sample values for route parameters, by the first segment of the route's path: a station's
 * pages get a demo station, a device's pages a demo device. A parameter of an area not listed
 * here gets "1", so its page is still checked (as whatever that id shows).
 */
export async function sampleParams(): Promise<Record<string, string>> {
  const token = await apiToken();
  const stations = await apiGet<{ list: { id: number }[] }>('/v2/site/list?pageSize=1', token);
  const devices = await apiGet<{ list: { id: number }[] }>('/v2/dev/listbytype?type=inverter&pageSize=1', token);
  const station = stations.list[0];
  const device = devices.list[0];
  if (!station || !device) {
    throw new Error('the demo has no station or no inverter to open');
  }
  return { station: String(station.id), device: String(device.id) };
}

export function concretePath(route: DeclaredRoute, samples: Record<string, string>): string {
  const area = route.path.split('/')[1] ?? '';
  let path = route.path;
  for (const param of pathParams(route.path)) {
    path = path.replace(`:${param}`, samples[area] ?? '1');
  }
  return path;
}

/** The routes a signed-in user opens (the administrator may open every one). */
export const SIGNED_IN = declaredRoutes().filter((route) => route.requiresAuth);
