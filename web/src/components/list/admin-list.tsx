import Button from '@arco-design/web-react/es/Button';
import Table, { type ColumnProps } from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Table/style/css.js';
import { IconPlus } from '@arco-design/web-react/icon';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import styles from './admin-list.module.css';

export interface AdminListProps<T> {
  title: string;
  /** What the list is for, under the title. */
  intro: ReactNode;
  addLabel: string;
  onAdd: () => void;
  /** The whole list, as one call answers it (no paging). */
  query: UseQueryResult<T[]>;
  columns: ColumnProps<T>[];
  emptyText: ReactNode;
}

/**
 * An administrator's short list of things the organisation connects (vendor-cloud accounts,
 * webhooks …): a panel with an add button and a word on what the list is for, its loading,
 * error and empty states, and the table.
 */
export function AdminList<T>({ title, intro, addLabel, onAdd, query, columns, emptyText }: AdminListProps<T>) {
  return (
    <Panel
      title={title}
      extra={
        <Button type="primary" icon={<IconPlus />} onClick={onAdd}>
          {addLabel}
        </Button>
      }
    >
      <p className={styles.intro}>{intro}</p>
      <DataState
        loading={query.isPending}
        error={query.isError}
        onRetry={() => void query.refetch()}
        empty={query.data?.length === 0}
        emptyText={emptyText}
        minHeight={240}
      >
        <Table rowKey="id" columns={columns} data={query.data ?? []} pagination={false} border={false} />
      </DataState>
    </Panel>
  );
}
