import Button from '@arco-design/web-react/es/Button';
import Modal from '@arco-design/web-react/es/Modal';
import Tree from '@arco-design/web-react/es/Tree';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Tree/style/css.js';
import { IconDelete, IconEdit, IconPlus } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { notifySuccess } from '@/lib/notify';
import { type Dept, orgCalls, useDepts, useOrgWrite } from './api/org';
import { DeptDialog, type DeptDialogMode } from './dept-dialog';
import styles from './permission.module.css';

interface TreeNode {
  key: string;
  title: string;
  dept: Dept;
  children: TreeNode[];
}

function nodes(depts: readonly Dept[]): TreeNode[] {
  return depts.map((dept) => ({ key: String(dept.id), title: dept.name, dept, children: nodes(dept.children) }));
}

/** The department tree: pick one to list its members; add, rename (with grants) and delete. */
export function DeptTree({ selected, onSelect }: { selected?: number; onSelect: (id?: number) => void }) {
  const { t } = useTranslation();
  const depts = useDepts();
  const [dialog, setDialog] = useState<DeptDialogMode | null>(null);
  const remove = useOrgWrite(orgCalls.deleteDept);

  const confirmDelete = (dept: Dept) =>
    Modal.confirm({
      title: t('org.dept.deleteTitle', { name: dept.name }),
      content: t('org.dept.deleteText'),
      okText: t('org.delete'),
      cancelText: t('org.cancel'),
      okButtonProps: { status: 'danger' },
      onOk: async () => {
        await remove.mutateAsync(dept.id);
        notifySuccess(t('org.deleted'));
        if (selected === dept.id) {
          onSelect(undefined);
        }
      },
    });

  return (
    <section className={styles.deptPanel} aria-label={t('org.dept.title')}>
      <div className={styles.panelHead}>
        <h2 className={styles.panelTitle}>{t('org.dept.title')}</h2>
        <Button size="small" type="primary" icon={<IconPlus />} onClick={() => setDialog({ kind: 'add' })}>
          {t('org.dept.add')}
        </Button>
      </div>
      <Button
        long
        type={selected === undefined ? 'secondary' : 'text'}
        className={styles.allUsers}
        onClick={() => onSelect(undefined)}
      >
        {t('org.dept.all')}
      </Button>
      <DataState
        loading={depts.isPending}
        error={depts.isError}
        empty={(depts.data ?? []).length === 0}
        emptyText={t('org.dept.empty')}
        onRetry={() => void depts.refetch()}
        minHeight={160}
      >
        <Tree
          blockNode
          defaultExpandedKeys={(depts.data ?? []).map((d) => String(d.id))}
          selectedKeys={selected ? [String(selected)] : []}
          onSelect={(keys) => onSelect(keys[0] ? Number(keys[0]) : undefined)}
          treeData={nodes(depts.data ?? [])}
          renderTitle={(node) => {
            const dept = (node as unknown as TreeNode).dept;
            return (
              <span className={styles.deptRow} data-testid={`dept-${dept.name}`}>
                <span className={styles.deptName}>{dept.name}</span>
                <span className={styles.muted}>
                  {t('org.dept.counts', { members: dept.members, grants: dept.stationIds.length })}
                </span>
              </span>
            );
          }}
          renderExtra={(node) => {
            const dept = (node as unknown as TreeNode).dept;
            return (
              <span className={styles.deptActions} onClick={(event) => event.stopPropagation()}>
                <Button
                  size="mini"
                  type="text"
                  icon={<IconPlus />}
                  aria-label={t('org.dept.addChildOf', { name: dept.name })}
                  title={t('org.dept.addChildOf', { name: dept.name })}
                  onClick={() => setDialog({ kind: 'add', parent: dept })}
                />
                <Button
                  size="mini"
                  type="text"
                  icon={<IconEdit />}
                  aria-label={t('org.dept.editOf', { name: dept.name })}
                  title={t('org.dept.editOf', { name: dept.name })}
                  onClick={() => setDialog({ kind: 'edit', dept })}
                />
                <Button
                  size="mini"
                  type="text"
                  status="danger"
                  icon={<IconDelete />}
                  aria-label={t('org.dept.deleteOf', { name: dept.name })}
                  title={t('org.dept.deleteOf', { name: dept.name })}
                  onClick={() => confirmDelete(dept)}
                />
              </span>
            );
          }}
        />
      </DataState>
      {dialog && <DeptDialog mode={dialog} onClose={() => setDialog(null)} />}
    </section>
  );
}
