import { useMatches } from 'react-router-dom';
import { type AppRoute, NOT_FOUND_ROUTE, routeByName } from '../route-config';

/** The console route the address matched (the not-found route for anything unknown). */
export function useCurrentAppRoute(): AppRoute {
  const matches = useMatches();
  const name = (matches[matches.length - 1]?.handle as { name?: string } | undefined)?.name;
  return routeByName(name) ?? NOT_FOUND_ROUTE;
}
