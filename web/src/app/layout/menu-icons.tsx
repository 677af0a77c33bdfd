import {
  IconApps,
  IconCode,
  IconDashboard,
  IconDesktop,
  IconExclamationCircle,
  IconFile,
  IconHome,
  IconSchedule,
  IconTags,
  IconThunderbolt,
  IconTool,
  IconUserGroup,
} from '@arco-design/web-react/icon';
import type { ReactElement } from 'react';

/** Menu icons by route or group name; kept with the shell so the login bundle carries none. */
export const MENU_ICONS: Record<string, ReactElement> = {
  monitor: <IconDashboard />,
  station: <IconHome />,
  stationTags: <IconTags />,
  device: <IconThunderbolt />,
  alarm: <IconExclamationCircle />,
  analysis: <IconFile />,
  debug: <IconCode />,
  operations: <IconSchedule />,
  permission: <IconUserGroup />,
  tools: <IconTool />,
  realtimeMonitor: <IconDesktop />,
  workplace: <IconApps />,
};
