import { type DeclaredRoute, declaredRoutes, pathParams } from './routes';
import { apiGet, apiToken } from './support';

// Concrete addresses for the route table's signed-in routes: shared by the specs that visit
// every screen (axe, layout).

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
