import { AreaPlaceholder } from '@/components/area-placeholder';

/** Monitoring centre: the default landing page. Not built yet: shows the honest empty state. */
export function MonitorPage() {
  return <AreaPlaceholder titleKey="menu.monitor" />;
}
