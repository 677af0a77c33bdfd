import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Input from '@arco-design/web-react/es/Input';
import Tag from '@arco-design/web-react/es/Tag';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Checkbox/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Tag/style/css.js';
import { IconRefresh } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RangePicker } from '@/components/date-pickers';
import { ExportButtons } from '@/components/export-buttons';
import type { FitColumn } from '@/components/list/fit-columns';
import { ListTable } from '@/components/list/list-table';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { exportSysLog, type LogEntry, type LogFilters, useSysLog } from './api/org';
import styles from './permission.module.css';

function pretty(json: string): string {
  if (!json) {
    return '';
  }
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

/** Before and after of an edit, side by side. */
function Change({ entry }: { entry: LogEntry }) {
  const { t } = useTranslation();
  return (
    <div className={styles.change}>
      <div>
        <h3 className={styles.changeTitle}>{t('org.log.before')}</h3>
        <pre className={styles.json}>{pretty(entry.before) || t('org.log.none')}</pre>
      </div>
      <div>
        <h3 className={styles.changeTitle}>{t('org.log.after')}</h3>
        <pre className={styles.json}>{pretty(entry.after) || t('org.log.none')}</pre>
      </div>
    </div>
  );
}

/** The system log: every write, who made it, when and from where; searchable and exportable. */
export function SysLogPanel() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ user: '', object: '', action: '' });
  const [filters, setFilters] = useState<LogFilters>({ page: 1, pageSize: 20 });
  const list = useSysLog(filters);
  const apply = () =>
    setFilters((f) => ({
      ...f,
      user: draft.user.trim() || undefined,
      object: draft.object.trim() || undefined,
      action: draft.action.trim() || undefined,
      page: 1,
    }));

  const columns: FitColumn<LogEntry>[] = [
    { title: t('org.log.time'), dataIndex: 'time', width: 196, render: (v: string) => zonedTime(v, undefined, currentLocale()).text },
    { title: t('org.log.user'), dataIndex: 'username', width: 130 },
    { title: t('org.log.action'), dataIndex: 'action', width: 170 },
    { title: t('org.log.object'), dataIndex: 'object', width: 200, ellipsis: true, tooltip: true },
    {
      title: t('org.log.result'),
      dataIndex: 'status',
      width: 100,
      render: (s: number) => <Tag color={s < 400 ? 'green' : s < 500 ? 'orange' : 'red'}>{s}</Tag>,
    },
    { title: t('org.log.address'), dataIndex: 'address', width: 140, optional: 2 },
    { title: t('org.log.route'), dataIndex: 'route', width: 300, optional: 1, ellipsis: true, tooltip: true },
  ];
  const tableName = t('org.tab.log');
  const field = (key: keyof typeof draft) => (
    <Input
      aria-label={t(`org.log.${key}`)}
      placeholder={t(`org.log.${key}`)}
      className={styles.select}
      value={draft[key]}
      allowClear
      onChange={(value) => setDraft((d) => ({ ...d, [key]: value }))}
      onPressEnter={apply}
    />
  );
  return (
    <section aria-label={tableName}>
      <div className={styles.filters} role="search" aria-label={t('org.log.filters')}>
        {field('user')}
        {field('object')}
        {field('action')}
        <RangePicker
          showTime
          aria-label={t('org.log.time')}
          onChange={(_: unknown, dates?: { toISOString: () => string }[]) =>
            setFilters((f) => ({
              ...f,
              from: dates?.[0] ? dates[0].toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined,
              to: dates?.[1] ? dates[1].toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined,
              page: 1,
            }))
          }
        />
        <Checkbox
          checked={filters.failed === 1}
          onChange={(on: boolean) => setFilters((f) => ({ ...f, failed: on ? 1 : undefined, page: 1 }))}
        >
          {t('org.log.failedOnly')}
        </Checkbox>
        <Button type="primary" onClick={apply}>
          {t('org.search')}
        </Button>
        <span className={styles.spacer} />
        <Button icon={<IconRefresh />} aria-label={t('org.refresh')} title={t('org.refresh')} onClick={() => void list.refetch()} />
        <ExportButtons onExport={(format) => exportSysLog(filters, format)} />
      </div>
      <p className={styles.muted}>{t('org.log.help')}</p>
      <ListTable
        label={tableName}
        query={list}
        columns={columns}
        page={filters.page}
        pageSize={filters.pageSize}
        onPage={(page, pageSize) => setFilters((f) => ({ ...f, page, pageSize }))}
        emptyText={t('org.log.empty')}
        sizeOptions={[20, 50, 100]}
        expandedRowRender={(entry) => <Change entry={entry} />}
      />
    </section>
  );
}
