import { AreaPlaceholder } from '@/components/area-placeholder';

/** Generation plans versus actual yield. Not built yet: shows the honest empty state. */
export function PlanPage() {
  return <AreaPlaceholder titleKey="menu.operations.plan" />;
}
