import Pagination from '@arco-design/web-react/es/Pagination';
import '@arco-design/web-react/es/Pagination/style/css.js';
import Table, { type TableProps } from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Table/style/css.js';
import { type ReactNode, type TableHTMLAttributes, useMemo, useState } from 'react';
import { usePhone } from '@/lib/use-phone';
import type { FitColumn } from './fit-columns';
import { ListCards } from './list-cards';
import styles from './list.module.css';

export interface CardTableProps<T> extends Omit<TableProps<T>, 'columns' | 'data' | 'rowKey' | 'expandedRowRender'> {
  /** The table's (and on a phone the card list's) accessible name. */
  label: string;
  /** The columns; on a phone each is placed on the card by its `phone` (see FitColumn). */
  columns: FitColumn<T>[];
  data: T[];
  rowKey: string | ((row: T) => string);
  expandedRowRender?: (row: T) => ReactNode;
  /** Shown instead of the table when there are no rows (a phone shows it too). */
  noDataElement?: ReactNode;
}

/**
 * A table of rows the page already has (not paged by the server: see ListTable for those). On
 * a phone the rows are cards, as a ListTable's are, so that nothing scrolls sideways and no
 * cell is cut; a table paged by Arco pages its cards the same way.
 */
export function CardTable<T>({ label, columns, data, rowKey, expandedRowRender, noDataElement, pagination, ...table }: CardTableProps<T>) {
  const phone = usePhone();
  const [page, setPage] = useState(1);
  // Arco's table takes no aria-label; its table element does.
  const components = useMemo(
    () => ({ table: (props: TableHTMLAttributes<HTMLTableElement>) => <table {...props} aria-label={label} /> }),
    [label],
  );
  if (!phone) {
    return (
      <Table
        {...table}
        rowKey={rowKey as TableProps<T>['rowKey']}
        columns={columns}
        data={data}
        pagination={pagination}
        expandedRowRender={expandedRowRender}
        noDataElement={noDataElement}
        components={components}
      />
    );
  }
  if (data.length === 0 && noDataElement !== undefined) {
    return <>{noDataElement}</>;
  }
  const pageSize = typeof pagination === 'object' && pagination.pageSize ? pagination.pageSize : 0;
  const pages = pageSize > 0 ? Math.ceil(data.length / pageSize) : 1;
  const current = Math.min(page, pages);
  const rows = pageSize > 0 ? data.slice((current - 1) * pageSize, current * pageSize) : data;
  return (
    <>
      <ListCards label={label} rows={rows} columns={columns} rowKey={rowKey} expandedRowRender={expandedRowRender} />
      {pages > 1 && (
        <div className={styles.pagination}>
          <Pagination simple showJumper={false} total={data.length} pageSize={pageSize} current={current} onChange={setPage} />
        </div>
      )}
    </>
  );
}
