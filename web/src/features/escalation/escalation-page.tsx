import Space from '@arco-design/web-react/es/Space';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Space/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminListPage, EditDelete } from '@/components/list/admin-list';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type Rule, rulesQuery, stepText, useDeleteRule } from './api';
import styles from './escalation.module.css';
import { EscalationLog } from './log-panel';
import { RotaPanel } from './rota-panel';
import { RuleDialog } from './rule-dialog';
import { escalationTexts } from './texts';

/**
 * Escalation (administrators): the rules that bring an alarm nobody deals with to the next
 * person, the on-call rota they may name, and the steps taken.
 */
export function EscalationPage() {
  const { t } = useTranslation();
  const ready = escalationTexts.useReady();
  const rules = useQuery(rulesQuery);
  const remove = useDeleteRule();
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const failed = (err: unknown) => notifyError(t('escalation.failed', { reason: err instanceof Error ? err.message : String(err) }));

  const columns: ColumnProps<Rule>[] = [
    { title: t('escalation.col.name'), dataIndex: 'name' },
    {
      title: t('escalation.col.levels'),
      dataIndex: 'levels',
      width: 150,
      render: (v: number[]) => (v ?? []).map((l) => t(`escalation.level.${l}`)).join(', '),
    },
    {
      title: t('escalation.col.stations'),
      dataIndex: 'stationIds',
      width: 130,
      render: (v: number[]) => (v?.length ? t('escalation.stationCount', { count: v.length }) : t('escalation.allStations')),
    },
    {
      title: t('escalation.col.steps'),
      render: (_: unknown, r: Rule) => (
        <ol className={styles.steps}>
          {(r.steps ?? []).map((s, i) => (
            <li key={i}>{stepText(s, t)}</li>
          ))}
          {r.stopOnRecovery && <li className={styles.muted}>{t('escalation.stopsOnRecovery')}</li>}
        </ol>
      ),
    },
    {
      title: t('escalation.col.state'),
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean) => <Tag color={v ? 'green' : 'gray'}>{v ? t('escalation.on') : t('escalation.off')}</Tag>,
    },
    {
      title: t('escalation.col.actions'),
      width: 170,
      render: (_: unknown, r: Rule) => (
        <Space wrap>
          <EditDelete
            editLabel={t('escalation.edit')}
            deleteLabel={t('escalation.delete')}
            confirm={t('escalation.deleteConfirm', { name: r.name })}
            onEdit={() => setEditing(r)}
            onDelete={() => remove.mutateAsync(r.id).then(() => notifySuccess(t('escalation.deleted')), failed)}
          />
        </Space>
      ),
    },
  ];

  return (
    <AdminListPage
      ready={ready}
      pageTitle={t('menu.permission.escalation')}
      title={t('escalation.title')}
      intro={t('escalation.intro')}
      addLabel={t('escalation.add')}
      onAdd={() => setEditing('new')}
      query={rules}
      columns={columns}
      emptyText={t('escalation.empty')}
    >
      <RotaPanel />
      <EscalationLog />
      <RuleDialog editing={editing} onClose={() => setEditing(null)} />
    </AdminListPage>
  );
}
