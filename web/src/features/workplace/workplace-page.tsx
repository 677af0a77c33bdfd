import Button from '@arco-design/web-react/es/Button';
import Spin from '@arco-design/web-react/es/Spin';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Spin/style/css.js';
import { IconArrowDown, IconArrowUp, IconClose, IconPlus } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { PageHeader, Panel } from '@/components/panel';
import { useUser } from '@/lib/auth';
import { currentLocale } from '@/lib/i18n';
import { notifyError } from '@/lib/notify';
import { AREAS, moved, usePendingAlarms, useSaveShortcuts, useShortcuts } from './api';
import { workplaceTexts } from './texts';
import styles from './workplace.module.css';

function greetingKey(hour: number): string {
  if (hour < 12) {
    return 'workplace.greeting.morning';
  }
  return hour < 18 ? 'workplace.greeting.afternoon' : 'workplace.greeting.evening';
}

/** The user's home: greeting, the alarms waiting, "my menu" (kept on the server) and more functions. */
export function WorkplacePage() {
  const { t } = useTranslation();
  const ready = workplaceTexts.useReady();
  const user = useUser();
  const now = new Date();
  const locale = currentLocale();
  if (!ready) {
    return <Spin />;
  }
  const name = user.data?.name || user.data?.username || '';
  return (
    <>
      <PageHeader title={t('menu.dashboard.workplace')} />
      <div className={styles.page}>
        <section className={styles.hello} aria-labelledby="workplace-greeting">
          <h2 id="workplace-greeting" className={styles.greeting}>
            {t(greetingKey(now.getHours()), { name })}
          </h2>
          <p className={styles.today}>
            {t('workplace.today', {
              weekday: now.toLocaleDateString(locale, { weekday: 'long' }),
              date: now.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' }),
            })}
          </p>
          <AlarmPrompt />
        </section>
        <MyMenu />
      </div>
    </>
  );
}

function AlarmPrompt() {
  const { t } = useTranslation();
  const counts = usePendingAlarms();
  const n = counts.data?.unprocessedAlarm ?? 0;
  if (counts.isPending || counts.isError) {
    return null;
  }
  return (
    <p className={styles.alarms} data-pending={n > 0 || undefined}>
      {n > 0 ? t('workplace.alarms.some', { count: n }) : t('workplace.alarms.none')}
      {n > 0 && (
        <Link className={styles.alarmLink} to="/alarm?dealStatus=0">
          {t('workplace.alarms.open')}
        </Link>
      )}
    </p>
  );
}

function MyMenu() {
  const { t } = useTranslation();
  const list = useShortcuts();
  const save = useSaveShortcuts();
  const [managing, setManaging] = useState(false);
  const mine = list.data?.shortcuts ?? [];
  const available = (list.data?.available ?? []).filter((name) => AREAS[name]);
  const others = available.filter((name) => !mine.includes(name));
  const label = (name: string) => t(AREAS[name]?.label ?? name);
  const change = (next: string[]) => save.mutate(next, { onError: () => notifyError(t('workplace.saveError')) });

  return (
    <>
      <Panel
        title={t('workplace.myMenu')}
        extra={
          <Button size="small" type={managing ? 'primary' : 'secondary'} onClick={() => setManaging(!managing)} aria-pressed={managing}>
            {managing ? t('workplace.done') : t('workplace.manage')}
          </Button>
        }
      >
        <DataState loading={list.isPending} error={list.isError} onRetry={() => void list.refetch()} minHeight={80}>
          {mine.length === 0 && !managing && <p className={styles.muted}>{t('workplace.emptyMenu')}</p>}
          <ul className={styles.shortcuts} aria-label={t('workplace.myMenu')}>
            {mine.map((name, i) => (
              <li key={name} className={styles.shortcut}>
                <Link to={AREAS[name]?.path ?? '/'} className={styles.shortcutLink}>
                  {label(name)}
                </Link>
                {managing && (
                  <span className={styles.tools}>
                    <Button size="mini" icon={<IconArrowUp />} disabled={i === 0 || save.isPending}
                      aria-label={t('workplace.up', { name: label(name) })} onClick={() => change(moved(mine, i, -1))} />
                    <Button size="mini" icon={<IconArrowDown />} disabled={i === mine.length - 1 || save.isPending}
                      aria-label={t('workplace.down', { name: label(name) })} onClick={() => change(moved(mine, i, 1))} />
                    <Button size="mini" status="danger" icon={<IconClose />} disabled={save.isPending}
                      aria-label={t('workplace.remove', { name: label(name) })} onClick={() => change(mine.filter((x) => x !== name))} />
                  </span>
                )}
              </li>
            ))}
          </ul>
          {managing && (
            <div className={styles.addable}>
              <h3 className={styles.subTitle}>{t('workplace.addable')}</h3>
              {others.length === 0 ? (
                <p className={styles.muted}>{t('workplace.allAdded')}</p>
              ) : (
                <div className={styles.addList}>
                  {others.map((name) => (
                    <Button key={name} size="small" icon={<IconPlus />} disabled={save.isPending || mine.length >= 12}
                      aria-label={t('workplace.add', { name: label(name) })} onClick={() => change([...mine, name])}>
                      {label(name)}
                    </Button>
                  ))}
                </div>
              )}
            </div>
          )}
        </DataState>
      </Panel>
      <Panel title={t('workplace.more')}>
        <ul className={styles.more} aria-label={t('workplace.more')}>
          {others.map((name) => (
            <li key={name}>
              <Link to={AREAS[name]?.path ?? '/'}>{label(name)}</Link>
            </li>
          ))}
        </ul>
      </Panel>
    </>
  );
}
