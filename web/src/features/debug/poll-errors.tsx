import Table, { type ColumnProps } from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Table/style/css.js';
import { useTranslation } from 'react-i18next';
import type { PollError } from './api/scada';

/** The poller's most recent failed polls of the device. */
export function PollErrors({ errors }: { errors: PollError[] }) {
  const { t } = useTranslation();
  const columns: ColumnProps<PollError>[] = [
    { title: t('debug.errorTime'), dataIndex: 'time', width: 200, render: (v: string) => new Date(v).toLocaleString() },
    { title: t('debug.errorKind'), dataIndex: 'kind', width: 160, render: (v: string) => t(`debug.kinds.${v}`) },
    { title: t('debug.errorMessage'), dataIndex: 'message' },
  ];
  return (
    <Table
      size="small"
      rowKey={(e) => `${e.time}-${e.message}`}
      columns={columns}
      data={errors}
      pagination={false}
      noDataElement={<span>{t('debug.noErrors')}</span>}
    />
  );
}
