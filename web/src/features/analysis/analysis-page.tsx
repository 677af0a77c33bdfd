import { AreaPlaceholder } from '@/components/area-placeholder';

/** Data analysis: reports, comparisons and the data overview. Not built yet: shows the honest empty state. */
export function AnalysisPage() {
  return <AreaPlaceholder titleKey="menu.analysis" />;
}
