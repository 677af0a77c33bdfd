import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { type UnknownSeries, unknownQuery } from './api';
import styles from './line-ingest.module.css';

/** The series that arrived without a rule or a device, most recent first; each can become a rule. */
export function UnknownTable({ onMap }: { onMap: (series: UnknownSeries) => void }) {
  const { t } = useTranslation();
  const unknown = useQuery(unknownQuery);
  const columns: FitColumn<UnknownSeries>[] = [
    { title: t('lineIngest.col.measurement'), dataIndex: 'measurement', width: 130 },
    { title: t('lineIngest.col.field'), dataIndex: 'field', width: 120 },
    { title: t('lineIngest.col.reason'), dataIndex: 'reason', width: 190, render: (r: string) => t(`lineIngest.reason.${r}`) },
    { title: t('lineIngest.col.sample'), dataIndex: 'sample', render: (s: string) => <code className={styles.sample}>{s}</code> },
    { title: t('lineIngest.col.points'), dataIndex: 'points', width: 90, align: 'right' },
    {
      title: t('lineIngest.col.lastAt'),
      dataIndex: 'lastAt',
      width: 190,
      render: (v: string) => zonedTime(v, undefined, currentLocale()).text,
    },
    {
      title: t('lineIngest.col.actions'), phone: 'actions',
      width: 110,
      render: (_: unknown, s: UnknownSeries) =>
        s.reason === 'more_series' ? null : (
          <Button size="mini" onClick={() => onMap(s)} aria-label={t('lineIngest.mapNamed', { name: `${s.measurement}.${s.field}` })}>
            {t('lineIngest.map')}
          </Button>
        ),
    },
  ];
  return (
    <DataState
      loading={unknown.isPending}
      error={unknown.isError}
      onRetry={() => void unknown.refetch()}
      empty={unknown.data?.length === 0}
      emptyText={t('lineIngest.noUnknown')}
      minHeight={160}
    >
      <CardTable label={t('lineIngest.unknown')}
        rowKey={(s: UnknownSeries) => `${s.measurement}\u0000${s.field}\u0000${s.reason}`}
        columns={columns}
        data={unknown.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        border={false}
        scroll={{ x: 960 }}
      />
    </DataState>
  );
}
