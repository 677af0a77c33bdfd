import { AreaPlaceholder } from '@/components/area-placeholder';

/** Station tags: create, rename, colour and assign them. Not built yet: shows the honest empty state. */
export function StationTagsPage() {
  return <AreaPlaceholder titleKey="menu.station.tags" />;
}
