import { AreaPlaceholder } from '@/components/area-placeholder';

/** Tools: expected-yield estimator and CSV import. Not built yet: shows the honest empty state. */
export function ToolsPage() {
  return <AreaPlaceholder titleKey="menu.tools" />;
}
