/**
 * Calls typed from the API description: the route is the document's path template
 * ('/v2/site/detail/{stationId}'), and its path parameters, query, body and answer are the
 * types src/api/schema.d.ts generates from the Go routes. A field renamed in Go fails tsc
 * wherever the console reads it.
 */
import type { components, paths } from '@/api/schema';
import { type QueryValue, type RequestOptions, request } from './api-client';

/** The API's named schemas: Schemas['Station'], Schemas['Alarm'] … */
export type Schemas = components['schemas'];

type Method = 'get' | 'post' | 'delete';

/** The routes that take a method. */
export type RoutesOf<M extends Method> = {
  [P in keyof paths]-?: paths[P][M] extends undefined ? never : P;
}[keyof paths];

type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

type JsonOf<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/** The data of a route's envelope. */
export type ApiData<P extends keyof paths, M extends Method> = JsonOf<Operation<P, M>> extends { data: infer D } ? D : never;

type ParamsOf<O> = O extends { parameters: infer Pm } ? Pm : never;
type PathOf<O> = ParamsOf<O> extends { path: infer X } ? X : never;
type QueryOf<O> = ParamsOf<O> extends { query?: infer X } ? X : never;
/** The query a GET route takes, as the document declares it (its enums are literal types). */
export type ApiQuery<P extends RoutesOf<'get'>> = NonNullable<QueryOf<Operation<P, 'get'>>>;
/** The JSON body a route takes. */
export type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** A route's path parameters, query and body, each required only when the route has them. */
export type CallArgs<O> = ([PathOf<O>] extends [never] ? { path?: undefined } : { path: { [K in keyof PathOf<O>]: string | number } }) &
  ([QueryOf<O>] extends [never] ? { query?: undefined } : { query?: QueryOf<O> }) &
  ([BodyOf<O>] extends [never] ? { body?: undefined } : { body: BodyOf<O> });

type Extra = Omit<RequestOptions, 'method' | 'body' | 'query'>;

/** The arguments after the route: required when the route has path parameters or a body. */
type ArgList<O> = object extends CallArgs<O> ? [args?: CallArgs<O>, extra?: Extra] : [args: CallArgs<O>, extra?: Extra];

/** Fills a path template: ('/v2/dev/detail/{deviceId}', {deviceId: 3}) → '/v2/dev/detail/3'. */
export function fillPath(template: string, params?: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined) {
      throw new Error(`${template}: no value for {${name}}`);
    }
    return encodeURIComponent(String(v));
  });
}

function call<P extends keyof paths, M extends Method>(method: M, route: P, args: CallArgs<Operation<P, M>> | undefined, extra?: Extra) {
  const a = (args ?? {}) as { path?: Record<string, string | number>; query?: Record<string, QueryValue>; body?: unknown };
  return request<ApiData<P, M>>(fillPath(route as string, a.path), {
    ...extra,
    method: method.toUpperCase() as RequestOptions['method'],
    query: a.query,
    body: a.body,
  });
}

/** The typed API: typedApi.get('/v2/warn/detail/{uid}', { path: { uid } }) resolves with the alarm. */
export const typedApi = {
  get: <P extends RoutesOf<'get'>>(route: P, ...rest: ArgList<Operation<P, 'get'>>) => call('get', route, rest[0], rest[1]),
  post: <P extends RoutesOf<'post'>>(route: P, ...rest: ArgList<Operation<P, 'post'>>) => call('post', route, rest[0], rest[1]),
  delete: <P extends RoutesOf<'delete'>>(route: P, ...rest: ArgList<Operation<P, 'delete'>>) =>
    call('delete', route, rest[0], rest[1]),
};
