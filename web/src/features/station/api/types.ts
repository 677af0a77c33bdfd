/** A station tag (Arco palette colour name). */
export interface Tag {
  id: number;
  name: string;
  color: string;
}

export const STATION_TYPES = ['ground', 'rooftop', 'residential'] as const;
export const SYSTEM_TYPES = ['pv', 'pv_storage'] as const;
export const COMMUNICATION_STATUSES = [1, 2, 3, 4] as const;

/** A station as stored (internal/station/station.go). */
export interface Station {
  id: number;
  parentId: number;
  name: string;
  coverImage: string;
  location: string;
  country: string;
  region: string;
  address: string;
  lat: number;
  lng: number;
  timezone: string;
  stationType: string;
  systemType: string;
  capacityKwp: number;
  azimuth: number;
  inclination: number;
  line: string;
  buildDate: string;
  combineStatus: number;
  combineDate: string;
  gridStatus: number;
  gridDate: string;
  currency: string;
  pricePerKwh: number;
  subsidyPerKwh: number;
  totalCost: number;
  dailyRepayment: number;
  ownerName: string;
  ownerPhone: string;
  ownerCompany: string;
  managerName: string;
  managerPhone: string;
  tags: Tag[];
  createTime: string;
  updateTime: string;
}

/** What a station is doing now. */
export interface Live {
  communicationStatus: number;
  alarmExist: number;
  currentPowerKw: number;
  powerNormalization: number;
  dailyEnergyKwh: number;
  dailyEquivalentHours: number;
  totalEnergyKwh: number;
  /** Yesterday's performance ratio in the station's zone, % (the station page's). */
  performanceRatio: number;
  devicesOnline: number;
  devicesTotal: number;
  latestAlarm: string;
  lastSeen: string | null;
}

export interface StationItem extends Station, Live {
  childrenCount: number;
}

export interface Kpis {
  unit: string;
  dayEnergyKwh: number;
  monthEnergyKwh: number;
  yearEnergyKwh: number;
  totalEnergyKwh: number;
  equivalentHours: number;
  performanceRatio: number;
  co2ReductionKg: number;
  profitToday: number;
  profitTotal: number;
  currency: string;
  emissionFactorKgPerKwh: number;
}

export interface StationDetail extends Station, Live {
  kpis: Kpis;
  children: StationItem[];
  parent: { id: number; parentId: number; name: string; timezone: string } | null;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** A series: [[unix ms, value], …] with its unit. */
export interface Series {
  unit: string;
  points: [number, number][];
}

/** The body of POST /v2/site/add and /v2/site/edit/{id}. */
export type StationInput = Omit<Station, 'id' | 'tags' | 'createTime' | 'updateTime'> & { tagIds: number[] };

/** A device of a station's tree (GET /v2/dev/list/{stationId}). */
export interface DeviceItem {
  id: number;
  stationId: number;
  stationName: string;
  parentId: number;
  name: string;
  sn: string;
  type: string;
  model: string;
  state: string;
  currentPowerKw: number;
  todayKwh: number;
  totalKwh: number;
  soc: number;
  lastSeen: string | null;
}

/** An alarm as the alarm list returns it (the fields the station detail shows). */
export interface AlarmItem {
  id: number;
  stationName: string;
  deviceName: string;
  deviceSn: string;
  deviceType: string;
  type: number;
  level: number;
  alarmStatus: number;
  dealStatus: number;
  description: string;
  occurTime: string;
  /** The station's IANA zone: the time is shown in it, named. */
  timezone: string;
}
