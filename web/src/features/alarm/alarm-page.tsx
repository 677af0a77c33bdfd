import { AreaPlaceholder } from '@/components/area-placeholder';

/** Alarm list and notification settings. Not built yet: shows the honest empty state. */
export function AlarmPage() {
  return <AreaPlaceholder titleKey="menu.alarm" />;
}
