import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Table from '@arco-design/web-react/es/Table';
import '@arco-design/web-react/es/Table/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { Panel } from '@/components/panel';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { usePhone } from '@/lib/use-phone';
import { logQuery, type Taken } from './api';
import styles from './escalation.module.css';

/** The latest steps taken, newest first: the alarm, its station, the rule's step and who was told. */
export function EscalationLog() {
  const { t } = useTranslation();
  const log = useQuery(logQuery);
  const phone = usePhone();
  const time = (r: Taken) => zonedTime(r.at, r.timeZone, currentLocale()).text;
  const who = (r: Taken) => (r.users.length > 0 ? r.users.map((u) => u.name).join(', ') : t('escalation.log.nobody'));
  const alarm = (r: Taken) => (
    <Link to={`/alarm?detail=${r.alarmId}`} aria-label={t('escalation.log.open', { id: r.alarmId })}>
      #{r.alarmId} · {t(`escalation.level.${r.level}`)}
    </Link>
  );
  const columns: ColumnProps<Taken>[] = [
    { title: t('escalation.log.col.time'), width: 210, render: (_: unknown, r: Taken) => time(r) },
    { title: t('escalation.log.col.alarm'), width: 150, render: (_: unknown, r: Taken) => alarm(r) },
    { title: t('escalation.log.col.station'), dataIndex: 'stationName' },
    { title: t('escalation.log.col.rule'), dataIndex: 'ruleName' },
    { title: t('escalation.log.col.step'), dataIndex: 'step', width: 70 },
    { title: t('escalation.log.col.notified'), render: (_: unknown, r: Taken) => who(r) },
  ];
  return (
    <Panel title={t('escalation.log.title')} className={styles.panelGap}>
      <p className={styles.intro}>{t('escalation.log.intro')}</p>
      <DataState
        loading={log.isPending}
        error={log.isError}
        onRetry={() => void log.refetch()}
        empty={log.data?.length === 0}
        emptyText={t('escalation.log.empty')}
        minHeight={160}
      >
        {phone ? (
          <ul className={styles.cards} aria-label={t('escalation.log.title')}>
            {(log.data ?? []).map((r) => (
              <li key={`${r.alarmId}-${r.ruleId}-${r.step}`} className={styles.card}>
                <div>{alarm(r)} · {r.stationName}</div>
                <div className={styles.muted}>{time(r)}</div>
                <div>
                  {r.ruleName} · {t('escalation.log.col.step')} {r.step}: {who(r)}
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <Table
            rowKey={(r: Taken) => `${r.alarmId}-${r.ruleId}-${r.step}`}
            columns={columns}
            data={log.data ?? []}
            pagination={false}
            border={false}
          />
        )}
      </DataState>
    </Panel>
  );
}
