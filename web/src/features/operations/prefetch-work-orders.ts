import { queryClient } from '@/lib/query-client';
import { stationOptionsQuery } from '@/lib/stations';
import { parseWorkOrderFilters, peopleQuery, workOrderListQuery, workOrderSummaryQuery } from './api/work-orders';
import { opsTexts } from './texts';

/**
 * The work-order screen's first calls, in the state the address asks for: started with the
 * page's code (route-config), small and apart from it, so that on a phone the list does not
 * wait for the page's libraries to arrive and run before it is asked for.
 */
export function prefetch(): void {
  const hash = window.location.hash;
  const at = hash.indexOf('?');
  const filters = parseWorkOrderFilters(new URLSearchParams(at >= 0 ? hash.slice(at + 1) : ''));
  for (const query of [workOrderListQuery(filters), workOrderSummaryQuery(filters), peopleQuery, stationOptionsQuery]) {
    void queryClient.prefetchQuery(query as Parameters<typeof queryClient.prefetchQuery>[0]);
  }
  void opsTexts.ready().catch(() => undefined);
}
