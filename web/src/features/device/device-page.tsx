import { AreaPlaceholder } from '@/components/area-placeholder';

/** Devices: inverters, batteries, all-in-one storage and meters. Not built yet: shows the honest empty state. */
export function DevicePage() {
  return <AreaPlaceholder titleKey="menu.device" />;
}
