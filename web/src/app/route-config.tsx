import type { ComponentType } from 'react';
import { loadScreenTexts } from '@/lib/i18n';
import { type Preloadable, preloadable } from '@/lib/preloadable';

/** Role lists use '*' for every role (SPEC.md section 6). */
export type RoleList = readonly string[];

export interface AppRoute {
  /** Route name: used by the login redirect, the tab bar and the server menu. */
  name: string;
  path: string;
  /** i18n key of the route's label. */
  locale: string;
  requiresAuth: boolean;
  roles?: RoleList;
  /** Menu group the entry sits under, if any. */
  group?: 'operations';
  /** Hidden routes never appear in a menu, local or server-provided. */
  hideInMenu?: boolean;
  /** A hidden page's menu route (by name): its menu entry stays selected and leads the breadcrumb. */
  parent?: string;
  /** A hidden page of its parent's section: listed with the parent's other such pages under the breadcrumb. */
  section?: boolean;
  page: RoutePage;
}

/** A page's code, loaded when first drawn or asked for earlier (app/early-start.ts). */
export type RoutePage = Preloadable;

/** A module of a page's first server calls, kept apart from the page's code (and its libraries). */
type PrefetchModule = { prefetch: () => void };

/**
 * A lazily loaded page. It waits for the screens' texts as well as for its code (lib/i18n.ts).
 * A page module may export prefetch(), called as soon as the module arrives; a page may instead
 * name a small prefetch module of its own, started together with its code, so its first server
 * calls do not wait for the page's libraries to download.
 */
function page<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  prefetch?: () => Promise<PrefetchModule>,
): RoutePage {
  let prefetched = false;
  return preloadable(() => {
    if (!prefetched && prefetch) {
      prefetched = true;
      void prefetch()
        .then((module) => module.prefetch())
        .catch(() => undefined);
    }
    return Promise.all([load(), loadScreenTexts()]).then(([module]) => {
      (module as { prefetch?: () => void }).prefetch?.();
      return pick(module);
    });
  });
}

const ALL: RoleList = ['*'];

export const DEFAULT_ROUTE_NAME = 'monitor';
export const DEFAULT_ROUTE_PATH = '/monitor';

/** Menu groups and their label keys. */
export const MENU_GROUPS = {
  operations: { locale: 'menu.operations' },
} as const;

/** Signed-in screens in menu order (SPEC.md section 2; DESIGN.md section 9 drops the template's). */
export const APP_ROUTES: AppRoute[] = [
  {
    name: 'monitor',
    path: '/monitor',
    locale: 'menu.monitor',
    requiresAuth: true,
    roles: ALL,
    page: page(
      () => import('@/features/monitor/monitor-page'),
      (m) => m.MonitorPage,
      () => import('@/features/monitor/prefetch'),
    ),
  },
  {
    name: 'station',
    path: '/station',
    locale: 'menu.station',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/station/station-page'), (m) => m.StationPage),
  },
  {
    name: 'stationDetail',
    path: '/station/detail/:id',
    locale: 'menu.station.detail',
    requiresAuth: true,
    roles: ALL,
    hideInMenu: true,
    parent: 'station',
    page: page(() => import('@/features/station/station-detail-page'), (m) => m.StationDetailPage),
  },
  {
    name: 'stationEdit',
    path: '/station/edit/:id',
    locale: 'menu.station.edit',
    requiresAuth: true,
    roles: ALL,
    hideInMenu: true,
    parent: 'station',
    page: page(() => import('@/features/station/station-edit-page'), (m) => m.StationEditPage),
  },
  {
    name: 'stationAdd',
    path: '/station/add',
    locale: 'menu.station.add',
    requiresAuth: true,
    // Creating stations is for administrators (the server enforces it too).
    roles: ['admin'],
    hideInMenu: true,
    parent: 'station',
    page: page(() => import('@/features/station/station-edit-page'), (m) => m.StationAddPage),
  },
  {
    name: 'stationTags',
    path: '/station/tags',
    locale: 'menu.station.tags',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/station/station-tags-page'), (m) => m.StationTagsPage),
  },
  {
    name: 'device',
    path: '/device',
    locale: 'menu.device',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/device/device-page'), (m) => m.DevicePage),
  },
  {
    name: 'deviceDetail',
    path: '/device/detail/:id',
    locale: 'menu.device.detail',
    requiresAuth: true,
    roles: ALL,
    hideInMenu: true,
    parent: 'device',
    page: page(() => import('@/features/device/device-detail-page'), (m) => m.DeviceDetailPage),
  },
  {
    name: 'deviceAdd',
    path: '/device/add',
    locale: 'menu.device.add',
    requiresAuth: true,
    roles: ALL,
    hideInMenu: true,
    parent: 'device',
    page: page(() => import('@/features/device/device-edit-page'), (m) => m.DeviceAddPage),
  },
  {
    name: 'deviceEdit',
    path: '/device/edit/:id',
    locale: 'menu.device.edit',
    requiresAuth: true,
    roles: ALL,
    hideInMenu: true,
    parent: 'device',
    page: page(() => import('@/features/device/device-edit-page'), (m) => m.DeviceEditPage),
  },
  {
    name: 'alarm',
    path: '/alarm',
    locale: 'menu.alarm',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/alarm/alarm-page'), (m) => m.AlarmPage),
  },
  {
    name: 'analysis',
    path: '/analysis',
    locale: 'menu.analysis',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/analysis/analysis-page'), (m) => m.AnalysisPage),
  },
  {
    name: 'debug',
    path: '/debug',
    locale: 'menu.debug',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/debug/debug-page'), (m) => m.DebugPage),
  },
  {
    name: 'workOrder',
    path: '/operations/workorder',
    locale: 'menu.operations.workorder',
    requiresAuth: true,
    roles: ALL,
    group: 'operations',
    page: page(
      () => import('@/features/operations/work-order-page'),
      (m) => m.WorkOrderPage,
      () => import('@/features/operations/prefetch-work-orders'),
    ),
  },
  {
    name: 'plan',
    path: '/operations/plan',
    locale: 'menu.operations.plan',
    requiresAuth: true,
    roles: ALL,
    group: 'operations',
    page: page(() => import('@/features/operations/plan-page'), (m) => m.PlanPage),
  },
  {
    // Checklist templates: items, photos and readings an order's crew works through on site.
    name: 'checklists',
    path: '/operations/checklists',
    locale: 'menu.operations.checklists',
    requiresAuth: true,
    roles: ['admin'],
    group: 'operations',
    page: page(() => import('@/features/checklists/checklists-page'), (m) => m.ChecklistsPage),
  },
  {
    name: 'permission',
    path: '/permission',
    locale: 'menu.permission',
    requiresAuth: true,
    // User and department management is for administrators (the server enforces it too).
    roles: ['admin'],
    page: page(() => import('@/features/permission/permission-page'), (m) => m.PermissionPage),
  },
  {
    // Ingest keys of devices and collectors (issue, rotate, revoke; the key is shown once).
    name: 'ingestKeys',
    path: '/permission/ingest-keys',
    locale: 'menu.permission.ingestKeys',
    requiresAuth: true,
    roles: ['admin'],
    hideInMenu: true,
    parent: 'permission',
    section: true,
    page: page(() => import('@/features/ingest-keys/ingest-keys-page'), (m) => m.IngestKeysPage),
  },
  {
    // InfluxDB line protocol: where collectors write, the rules, the unmapped series.
    name: 'lineIngest',
    path: '/permission/line-protocol',
    locale: 'menu.permission.lineIngest',
    requiresAuth: true,
    roles: ['admin'],
    hideInMenu: true,
    parent: 'permission',
    section: true,
    page: page(() => import('@/features/line-ingest/line-ingest-page'), (m) => m.LineIngestPage),
  },
  {
    // MQTT payload mapping: rules for collectors' own topics, presets, what arrived unmapped.
    name: 'ingestMqtt',
    path: '/permission/ingest-mqtt',
    locale: 'menu.permission.ingestMqtt',
    requiresAuth: true,
    roles: ['admin'],
    hideInMenu: true,
    parent: 'permission',
    section: true,
    page: page(() => import('@/features/ingest-mqtt/ingest-mqtt-page'), (m) => m.IngestMqttPage),
  },
  {
    // Vendor-cloud connections: connect an account, discover and confirm, state and quota.
    name: 'cloud',
    path: '/permission/cloud',
    locale: 'menu.permission.cloud',
    requiresAuth: true,
    roles: ['admin'],
    hideInMenu: true,
    parent: 'permission',
    section: true,
    page: page(() => import('@/features/cloud/cloud-page'), (m) => m.CloudPage),
  },
  {
    // Webhooks: the organisation's alarms, work orders and reports sent to its own tools.
    name: 'webhooks',
    path: '/permission/webhooks',
    locale: 'menu.permission.webhooks',
    requiresAuth: true,
    roles: ['admin'],
    hideInMenu: true,
    parent: 'permission',
    section: true,
    page: page(() => import('@/features/webhooks/webhooks-page'), (m) => m.WebhooksPage),
  },
  {
    // Escalation: rules that bring an alarm nobody deals with to the next person, the on-call rota.
    name: 'escalation',
    path: '/permission/escalation',
    locale: 'menu.permission.escalation',
    requiresAuth: true,
    roles: ['admin'],
    hideInMenu: true,
    parent: 'permission',
    section: true,
    page: page(() => import('@/features/escalation/escalation-page'), (m) => m.EscalationPage),
  },
  {
    // History import: vendor portals' CSV/XLSX exports, previewed, mapped, dry run, imported as jobs.
    name: 'historyImport',
    path: '/permission/import',
    locale: 'menu.permission.historyImport',
    requiresAuth: true,
    roles: ['admin'],
    hideInMenu: true,
    parent: 'permission',
    section: true,
    page: page(() => import('@/features/history-import/history-import-page'), (m) => m.HistoryImportPage),
  },
  {
    name: 'tools',
    path: '/tools',
    locale: 'menu.tools',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/tools/tools-page'), (m) => m.ToolsPage),
  },
  {
    name: 'assistantDocuments',
    path: '/assistant/documents',
    locale: 'menu.assistant.documents',
    requiresAuth: true,
    roles: ALL,
    // reached from the assistant panel, which every page has
    hideInMenu: true,
    page: page(() => import('@/features/assistant/documents-page'), (m) => m.DocumentsPage),
  },
  {
    name: 'workplace',
    path: '/dashboard/workplace',
    locale: 'menu.dashboard.workplace',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/workplace/workplace-page'), (m) => m.WorkplacePage),
  },
  {
    name: 'realtimeMonitor',
    path: '/realtime',
    locale: 'menu.realtimeMonitor',
    requiresAuth: true,
    roles: ALL,
    page: page(() => import('@/features/realtime/realtime-page'), (m) => m.RealtimePage),
  },
  {
    name: 'userSettings',
    path: '/user/settings',
    locale: 'menu.user.settings',
    requiresAuth: true,
    roles: ALL,
    hideInMenu: true,
    page: page(() => import('./routes/user-settings-route'), (m) => m.UserSettingsRoute),
  },
  {
    name: 'exception403',
    path: '/exception/403',
    locale: 'menu.exception.403',
    requiresAuth: true,
    roles: ALL,
    hideInMenu: true,
    page: page(() => import('@/features/exceptions/exception-page'), (m) => m.ForbiddenPage),
  },
  {
    name: 'exception500',
    path: '/exception/500',
    locale: 'menu.exception.500',
    requiresAuth: true,
    roles: ALL,
    hideInMenu: true,
    page: page(() => import('@/features/exceptions/exception-page'), (m) => m.ServerErrorPage),
  },
];

/** The not-found page: needs no sign-in, shown inside the shell when signed in. */
export const NOT_FOUND_ROUTE: AppRoute = {
  name: 'notFound',
  path: '*',
  locale: 'menu.exception.404',
  requiresAuth: false,
  hideInMenu: true,
  page: page(() => import('@/features/exceptions/exception-page'), (m) => m.NotFoundPage),
};

/** The hidden helper that re-opens a path (used to reload a tab). */
export const REDIRECT_ROUTE_NAME = 'redirect';

/** Old wrapper paths that lead to their page (SPEC.md section 2). */
export const WRAPPER_REDIRECTS: Record<string, string> = {
  '/monitorLayout': '/monitor',
  '/stationLayout': '/station',
  '/deviceLayout': '/device',
  '/alarmLayout': '/alarm',
  '/analysisLayout': '/analysis',
  '/operationsLayout': '/operations/plan',
  '/permissionLayout': '/permission',
};

export function routeByName(name: string | null | undefined): AppRoute | undefined {
  return APP_ROUTES.find((route) => route.name === name);
}

export function routeByPath(path: string): AppRoute | undefined {
  return APP_ROUTES.find((route) => route.path === path);
}

/** Menu routes: what the local menu lists, in order. */
export function menuRoutes(): AppRoute[] {
  return APP_ROUTES.filter((route) => !route.hideInMenu);
}
