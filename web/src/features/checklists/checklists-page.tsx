import Space from '@arco-design/web-react/es/Space';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Space/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminListPage, EditDelete } from '@/components/list/admin-list';
import type { FitColumn } from '@/components/list/fit-columns';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type Template, templatesQuery, useDeleteTemplate } from './api';
import styles from './checklists.module.css';
import { TemplateDialog } from './template-dialog';
import { checklistTexts } from './texts';

/**
 * Checklist templates (administrators): what a crew does on site — items to tick, photos to
 * take, readings with their unit. An order takes a copy of one; a template changed later
 * leaves the orders' copies as they are.
 */
export function ChecklistsPage() {
  const { t } = useTranslation();
  const ready = checklistTexts.useReady();
  const templates = useQuery(templatesQuery);
  const remove = useDeleteTemplate();
  const [editing, setEditing] = useState<Template | 'new' | null>(null);
  const failed = (err: unknown) => notifyError(t('checklist.failed', { reason: err instanceof Error ? err.message : String(err) }));

  const columns: FitColumn<Template>[] = [
    { title: t('checklist.col.name'), dataIndex: 'name', phone: 'primary' },
    {
      title: t('checklist.col.items'),
      phone: 'primary',
      render: (_: unknown, tpl: Template) => (
        <ol className={styles.items}>
          {tpl.items.map((item) => (
            <li key={item.key}>
              {item.label}
              <span className={styles.muted}>
                {' · '}
                {t(`checklist.kind.${item.kind}`)}
                {item.kind === 'reading' && item.unit ? ` (${item.unit})` : ''}
              </span>
              {item.required && (
                <Tag size="small" className={styles.required}>
                  {t('checklist.required')}
                </Tag>
              )}
            </li>
          ))}
        </ol>
      ),
    },
    {
      title: t('checklist.col.required'),
      width: 120,
      render: (_: unknown, tpl: Template) =>
        t('checklist.requiredOf', { required: tpl.items.filter((item) => item.required).length, count: tpl.items.length }),
    },
    {
      title: t('checklist.col.actions'),
      width: 170,
      phone: 'actions',
      render: (_: unknown, tpl: Template) => (
        <Space wrap>
          <EditDelete
            editLabel={t('checklist.edit')}
            deleteLabel={t('checklist.delete')}
            confirm={t('checklist.deleteConfirm', { name: tpl.name })}
            onEdit={() => setEditing(tpl)}
            onDelete={() => remove.mutateAsync(tpl.id).then(() => notifySuccess(t('checklist.deleted')), failed)}
          />
        </Space>
      ),
    },
  ];

  return (
    <AdminListPage
      ready={ready}
      pageTitle={t('menu.operations.checklists')}
      title={t('checklist.title')}
      intro={t('checklist.intro')}
      addLabel={t('checklist.add')}
      onAdd={() => setEditing('new')}
      query={templates}
      columns={columns}
      emptyText={t('checklist.empty')}
    >
      <TemplateDialog editing={editing} onClose={() => setEditing(null)} />
    </AdminListPage>
  );
}
