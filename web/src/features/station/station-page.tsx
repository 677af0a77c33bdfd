import { AreaPlaceholder } from '@/components/area-placeholder';

/** Station list and details. Not built yet: shows the honest empty state. */
export function StationPage() {
  return <AreaPlaceholder titleKey="menu.station" />;
}
