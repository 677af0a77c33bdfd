import { AreaPlaceholder } from '@/components/area-placeholder';

/** Remote debugging: live register reads of a field device. Not built yet: shows the honest empty state. */
export function DebugPage() {
  return <AreaPlaceholder titleKey="menu.debug" />;
}
