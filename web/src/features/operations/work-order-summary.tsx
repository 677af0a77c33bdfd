import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import statTiles from '@/components/stat-tiles.module.css';
import { formatNumber } from '@/lib/format';
import { useWorkOrderSummary, type WorkOrderFilters } from './api/work-orders';
import styles from './operations.module.css';

/** Totals of the filtered orders (whatever the status filter): by status, timed out, process ratio. */
export function WorkOrderSummary({ filters }: { filters: WorkOrderFilters }) {
  const { t } = useTranslation();
  const summary = useWorkOrderSummary(filters);
  const s = summary.data;
  const tiles = s
    ? [
        { key: 'total', label: t('ops.wo.summary.total'), value: String(s.total) },
        ...[1, 2, 3, 4, 5].map((status) => ({
          key: `s${status}`,
          label: t(`status.workOrderStatus.${status}`),
          value: String(s.byStatus[String(status)] ?? 0),
        })),
        { key: 'late', label: t('ops.wo.summary.timedOut'), value: String(s.timedOut), accent: s.timedOut > 0 },
        { key: 'ratio', label: t('ops.wo.summary.ratio'), value: `${formatNumber(s.processRatio, 1)}%` },
      ]
    : [];
  return (
    <DataState loading={summary.isPending} error={summary.isError && !s} onRetry={() => void summary.refetch()} minHeight={88}>
      <dl className={`${statTiles.tiles} ${styles.tilesSpaced}`} aria-label={t('ops.wo.summary.title')} data-testid="wo-summary">
        {tiles.map((tile) => (
          <div key={tile.key} className={statTiles.tile} data-accent={tile.accent || undefined} data-key={tile.key}>
            <dt>{tile.label}</dt>
            <dd>{tile.value}</dd>
          </div>
        ))}
      </dl>
    </DataState>
  );
}
