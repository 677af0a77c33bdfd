import Pagination from '@arco-design/web-react/es/Pagination';
import '@arco-design/web-react/es/Pagination/style/css.js';
import Table from '@arco-design/web-react/es/Table';
import type { SorterInfo } from '@arco-design/web-react/es/Table/interface';
import '@arco-design/web-react/es/Table/style/css.js';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, type TableHTMLAttributes, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { usePhone } from '@/lib/use-phone';
import { type FitColumn, useFitColumns } from './fit-columns';
import { ListCards } from './list-cards';
import styles from './list.module.css';

/** One page of a list as the server answers it (httpapi.Page). */
export interface Page<T> {
  list: T[];
  total: number;
  /** More matches than total: the server stopped counting there (a search, "mine"). */
  totalCapped?: boolean;
  page: number;
  pageSize: number;
}

export interface ListTableProps<T> {
  /** The table's accessible name. */
  label: string;
  query: UseQueryResult<Page<T>>;
  /**
   * The columns; optional ones step aside into the row's details when the table is too wide. On
   * a phone the rows are cards, laid out by each column's `phone` (see FitColumn).
   */
  columns: FitColumn<T>[];
  page: number;
  pageSize: number;
  onPage: (page: number, pageSize: number) => void;
  emptyText: ReactNode;
  sizeOptions?: number[];
  rowKey?: string;
  /** Details shown under a row the user opens. */
  expandedRowRender?: (row: T) => ReactNode;
  /** Called when a sortable column's header is clicked (see sortable and sortChange in list-sort). */
  onSort?: (sorter: SorterInfo | SorterInfo[]) => void;
}

/** What Arco's table passes to onChange: pagination, sorter, filters, what happened. */
export type TableChange = [unknown, SorterInfo | SorterInfo[], unknown, { action: string }];

/**
 * A server-paged list: loading, error and empty states, the table and its pagination. A phone
 * gets the rows as cards and a pagination of one line.
 */
export function ListTable<T>({
  label,
  query,
  columns,
  page,
  pageSize,
  onPage,
  emptyText,
  sizeOptions = [10, 20, 50, 100],
  rowKey = 'id',
  expandedRowRender,
  onSort,
}: ListTableProps<T>) {
  const { t } = useTranslation();
  const rows = query.data?.list ?? [];
  const capped = query.data?.totalCapped === true;
  const phone = usePhone();
  const fit = useFitColumns(columns, expandedRowRender);
  // Arco's table takes no aria-label; its table element does.
  const components = useMemo(
    () => ({ table: (props: TableHTMLAttributes<HTMLTableElement>) => <table {...props} aria-label={label} /> }),
    [label],
  );
  return (
    <div ref={fit.ref}>
      <DataState
        loading={query.isPending}
        error={query.isError && !query.data}
        empty={rows.length === 0}
        emptyText={emptyText}
        onRetry={() => void query.refetch()}
        minHeight={280}
      >
        {phone ? (
          <ListCards
            label={label}
            rows={rows}
            columns={columns}
            rowKey={rowKey}
            expandedRowRender={expandedRowRender}
            onSort={onSort}
          />
        ) : (
          <Table
            rowKey={rowKey}
            columns={fit.columns}
            data={rows}
            pagination={false}
            scroll={fit.scroll}
            border={false}
            components={components}
            expandedRowRender={fit.expandedRowRender}
            expandProps={fit.expandProps}
            onChange={onSort && ((...args: TableChange) => args[3].action === 'sort' && onSort(args[1]))}
          />
        )}
      </DataState>
      {query.data && query.data.total > 0 && (
        <div className={styles.pagination}>
          <Pagination
            total={query.data.total}
            current={page}
            pageSize={pageSize}
            sizeCanChange={!phone}
            simple={phone}
            // the simple pager's page box has no name: the page shows as text between the arrows
            showJumper={false}
            sizeOptions={sizeOptions}
            showTotal={capped ? () => t('list.totalCapped', { count: query.data.total }) : !phone}
            onChange={onPage}
          />
        </div>
      )}
    </div>
  );
}

/** The line above a list: a note on the left, actions (refresh, export…) on the right. */
export function ListToolbar({ note, children }: { note?: ReactNode; children?: ReactNode }) {
  return (
    <div className={styles.toolbar}>
      <span>{note}</span>
      <span className={styles.toolbarActions}>{children}</span>
    </div>
  );
}
