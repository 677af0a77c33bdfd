import { useTranslation } from 'react-i18next';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import type { PollError } from './api/scada';

/** The poller's most recent failed polls of the device. */
export function PollErrors({ errors }: { errors: PollError[] }) {
  const { t } = useTranslation();
  const columns: FitColumn<PollError>[] = [
    { title: t('debug.errorTime'), dataIndex: 'time', width: 200, render: (v: string) => new Date(v).toLocaleString() },
    { title: t('debug.errorKind'), dataIndex: 'kind', width: 160, render: (v: string) => t(`debug.kinds.${v}`) },
    { title: t('debug.errorMessage'), dataIndex: 'message', width: 240 },
  ];
  return (
    <CardTable
      label={t('debug.errors')}
      size="small"
      rowKey={(e) => `${e.time}-${e.message}`}
      columns={columns}
      data={errors}
      pagination={false}
      noDataElement={<span>{t('debug.noErrors')}</span>}
    />
  );
}
