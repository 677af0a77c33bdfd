import Button from '@arco-design/web-react/es/Button';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import { IconPlus } from '@arco-design/web-react/icon';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DataState } from '@/components/data-state';
import { PageHeader, Panel } from '@/components/panel';
import styles from './admin-list.module.css';
import { CardTable } from './card-table';
import type { FitColumn } from './fit-columns';

export interface AdminListProps<T> {
  title: string;
  /** What the list is for, under the title. */
  intro: ReactNode;
  addLabel: string;
  onAdd: () => void;
  /** The whole list, as one call answers it (no paging). */
  query: UseQueryResult<T[]>;
  /** The columns; on a phone the rows are cards (see FitColumn's `phone`). */
  columns: FitColumn<T>[] | ColumnProps<T>[];
  emptyText: ReactNode;
}

/**
 * An administrator's short list of things the organisation connects (vendor-cloud accounts,
 * webhooks …): a panel with an add button and a word on what the list is for, its loading,
 * error and empty states, and the table (cards on a phone).
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
        <CardTable label={title} rowKey="id" columns={columns as FitColumn<T>[]} data={query.data ?? []} pagination={false} border={false} />
      </DataState>
    </Panel>
  );
}

/**
 * An administrator's screen of one such list: its title, the list, and what goes with it
 * (dialogs, drawers, further panels); a loading state until the screen's texts are ready.
 */
export function AdminListPage<T>({
  ready,
  pageTitle,
  children,
  ...list
}: AdminListProps<T> & { ready: boolean; pageTitle: string; children?: ReactNode }) {
  if (!ready) {
    return <DataState loading minHeight={320} />;
  }
  return (
    <>
      <PageHeader title={pageTitle} />
      <AdminList {...list} />
      {children}
    </>
  );
}

/** A row's edit button, and its delete button behind a confirmation. */
export function EditDelete({
  editLabel,
  deleteLabel,
  confirm,
  onEdit,
  onDelete,
}: {
  editLabel: string;
  deleteLabel: string;
  /** The confirmation's question ("Delete the webhook X?"). */
  confirm: string;
  onEdit: () => void;
  onDelete: () => Promise<unknown>;
}) {
  return (
    <>
      <Button size="mini" onClick={onEdit}>
        {editLabel}
      </Button>
      <Popconfirm title={confirm} onOk={onDelete}>
        <Button size="mini" status="danger">
          {deleteLabel}
        </Button>
      </Popconfirm>
    </>
  );
}
