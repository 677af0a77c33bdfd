import { queryClient } from '@/lib/query-client';
import { stationOptionsQuery, stationTree } from '@/lib/stations';
import { dailyAlarmsQuery, faultTrendQuery } from './api/alarms';
import { planQuery } from './api/plan';
import { powerDataQuery } from './api/power-data';
import { maintenanceRankingQuery, projectRankingQuery, topDevicesQuery } from './api/rankings';
import { fleetSummaryQuery } from './api/summary';
import { weatherQuery } from './api/weather';

type Prefetchable = Parameters<typeof queryClient.prefetchQuery>[0];

/**
 * Every call the landing page makes at first, in the state its panels open in: started with the
 * page's code (route-config), small and apart from it, so the figures are in by the time the page
 * is drawn. The weather waits only for the station list, to know the first station.
 */
export function prefetch() {
  const queries = [
    fleetSummaryQuery,
    dailyAlarmsQuery,
    topDevicesQuery,
    powerDataQuery('day'),
    faultTrendQuery('day'),
    planQuery(new Date().getFullYear()),
    maintenanceRankingQuery,
    projectRankingQuery,
  ];
  for (const query of queries) {
    void queryClient.prefetchQuery(query as Prefetchable);
  }
  void queryClient
    .fetchQuery(stationOptionsQuery)
    .then((options) => {
      const first = stationTree(options)[0];
      return first && queryClient.prefetchQuery(weatherQuery(first.id));
    })
    .catch(() => undefined);
}
