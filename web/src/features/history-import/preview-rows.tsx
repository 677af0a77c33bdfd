import Table, { type ColumnProps } from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Table/style/css.js';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import type { Preview } from './api';
import styles from './history-import.module.css';

type Row = Record<string, string> & { key: string };

/** The file's first data rows as read, under its header (times as the file writes them). */
export function PreviewRows({ preview }: { preview: Preview }) {
  const { t } = useTranslation();
  const header = preview.header ?? [];
  const first = (preview.headerRow ?? 0) + 2; // a spreadsheet's row number of the first data row
  const data: Row[] = (preview.rows ?? []).map((cells, i) => ({
    key: String(first + i),
    ...Object.fromEntries(header.map((_, c) => [`c${c}`, cells[c] ?? ''])),
  }));
  const columns: ColumnProps<Row>[] = [
    { title: t('historyImport.col.row'), dataIndex: 'key', width: 64, render: (k: string) => <span className={styles.muted}>{k}</span> },
    ...header.map((name, c) => ({ title: name, dataIndex: `c${c}`, width: 150, ellipsis: true })),
  ];
  return (
    <DataState empty={data.length === 0} emptyText={t('historyImport.noRows')} minHeight={80}>
      <div role="region" aria-label={t('historyImport.firstRows')}>
      <Table
        rowKey="key"
        columns={columns}
        data={data}
        pagination={false}
        border={false}
        size="small"
        scroll={{ x: 64 + header.length * 150 }}
      />
      </div>
    </DataState>
  );
}
