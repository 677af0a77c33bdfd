import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useTranslation } from 'react-i18next';

const COLORS: Record<number, string> = { 1: 'arcoblue', 2: 'orange', 3: 'green', 4: 'red' };

/** A plan's workflow status: commit, in approval, finished, or refused. */
export function PlanStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return <Tag color={COLORS[status] ?? 'gray'}>{t(`ops.plan.status.${status}`)}</Tag>;
}
