import { AreaPlaceholder } from '@/components/area-placeholder';

/** Work order list. Not built yet: shows the honest empty state. */
export function WorkOrderPage() {
  return <AreaPlaceholder titleKey="menu.operations.workorder" />;
}
