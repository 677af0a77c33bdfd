import type { Schemas } from '@/lib/api-typed';

/** A station tag (Arco palette colour name). */
export type Tag = Schemas['Tag'];

export const STATION_TYPES = ['ground', 'rooftop', 'residential'] as const;
export const SYSTEM_TYPES = ['pv', 'pv_storage'] as const;
export const COMMUNICATION_STATUSES = [1, 2, 3, 4] as const;

/** A station as stored (internal/station/station.go). */
export type Station = Schemas['Station'];
/** A station of the list, with what it is doing now. */
export type StationItem = Schemas['ListItem'];
export type Kpis = Schemas['StationDetail']['kpis'];
export type StationDetail = Schemas['StationDetail'];

/** A series: [[unix ms, value], …] with its unit. */
export type Series = Schemas['Series'];

/** The body of POST /v2/site/add and /v2/site/edit/{id}. */
export type StationInput = Schemas['StationInput'];

/** A device of a station's tree (GET /v2/dev/list/{stationId}). */
export type DeviceItem = Schemas['Item'];

/** An alarm as the alarm list returns it. */
export type AlarmItem = Schemas['Alarm'];
