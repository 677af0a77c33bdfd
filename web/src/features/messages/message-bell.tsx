import Badge from '@arco-design/web-react/es/Badge';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Popover from '@arco-design/web-react/es/Popover';
import Spin from '@arco-design/web-react/es/Spin';
import Tabs from '@arco-design/web-react/es/Tabs';
import '@arco-design/web-react/es/Badge/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Empty/style/css.js';
import '@arco-design/web-react/es/Popover/style/css.js';
import '@arco-design/web-react/es/Spin/style/css.js';
import '@arco-design/web-react/es/Tabs/style/css.js';
import { IconDownload, IconNotification } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ZonedTime } from '@/components/zoned-time';
import { formatNumber, zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { usePushStatus } from '@/lib/push';
import { queryClient } from '@/lib/query-client';
import { useToken } from '@/lib/storage';
import { MESSAGE_PAGE_SIZE, MESSAGES_KEY, messageCountsQuery, messageListQuery, notifyTodayQuery, useMarkRead } from './api';
import styles from './message-bell.module.css';
import {
  type ConsoleMessage,
  isUnprocessedAlarm,
  type MessageKind,
  selectUnprocessedAlarmCount,
  selectUnreadCount,
  useMessageStore,
} from './message-store';
import { expired, type ReportLink, reportLink } from './report-link';
import { messageTexts } from './texts';
import { useMessagePush } from './use-message-push';

const KINDS: MessageKind[] = ['alarm', 'workOrder', 'system'];

/** Where an alarm message leads: the alarm list with that alarm's details open. */
export function alarmHref(alarmId: number): string {
  return `/alarm?detail=${alarmId}`;
}

/** A scheduled report's file: a download link while it works, a note once it has expired. */
function ReportDownload({ link, title }: { link: ReportLink; title: string }) {
  const { t } = useTranslation();
  const when = link.expires ? zonedTime(link.expires.toISOString(), undefined, currentLocale()).text : '';
  if (expired(link, new Date())) {
    return (
      <p className={styles.download} data-expired="">
        {t('messages.report.expired', { time: when })}
      </p>
    );
  }
  return (
    <p className={styles.download}>
      <a href={link.href} download aria-label={t('messages.report.downloadName', { title })}>
        <IconDownload aria-hidden /> {t('messages.report.download')}
      </a>
      {when && <span className={styles.itemTime}>{t('messages.report.until', { time: when })}</span>}
    </p>
  );
}

function MessageItem({ item, onOpen }: { item: ConsoleMessage; onOpen: (item: ConsoleMessage) => void }) {
  const { t } = useTranslation();
  const opensAlarm = item.kind === 'alarm' && item.alarmId > 0;
  const label = opensAlarm ? t('messages.openAlarm', { title: item.title }) : t('messages.markRead', { title: item.title });
  const link = item.kind === 'system' ? reportLink(item.content) : null;
  const content = link ? link.text : item.content;
  return (
    <li>
      <button
        type="button"
        className={`${styles.item} ${item.isRead ? styles.read : ''}`}
        onClick={() => onOpen(item)}
        aria-label={label}
        aria-describedby={`message-${item.id}-content`}
      >
        <span className={styles.itemHead}>
          {!item.isRead && <span className={styles.unreadDot} title={t('messages.unreadDot')} />}
          <span className={styles.itemTitle}>{item.title}</span>
          {item.priority > 0 && (
            <span className={styles.priority} data-priority={item.priority}>
              {t(`messages.priority.${item.priority}`)}
            </span>
          )}
        </span>
        <span id={`message-${item.id}-content`} className={styles.itemContent}>
          {[item.subTitle, content].filter(Boolean).join(' · ')}
        </span>
        <span className={styles.itemFoot}>
          <span className={styles.itemTime}>
            <ZonedTime value={item.eventTime ?? item.time} timeZone={item.timezone} />
          </span>
          {item.processStatus && (
            <span className={styles.process} data-pending={isUnprocessedAlarm(item) || undefined}>
              {t(`messages.process.${item.processStatus}`, { defaultValue: item.processStatus })}
            </span>
          )}
        </span>
      </button>
      {link && <ReportDownload link={link} title={item.title} />}
    </li>
  );
}

function MessageList({ kind, onOpen }: { kind: MessageKind; onOpen: (item: ConsoleMessage) => void }) {
  const { t } = useTranslation();
  const messages = useMessageStore((state) => state.messages);
  const list = useQuery(messageListQuery);
  const items = messages.filter((item) => item.kind === kind);
  if (items.length === 0) {
    if (list.isPending) {
      return (
        <div className={styles.state} role="status">
          <Spin size={16} />
          <span>{t('messages.loading')}</span>
        </div>
      );
    }
    if (list.isError) {
      return (
        <div className={styles.state} role="alert">
          <span>{t('messages.loadError')}</span>
          <Button size="mini" onClick={() => void list.refetch()}>
            {t('messages.retry')}
          </Button>
        </div>
      );
    }
    return <Empty className={styles.empty} description={t('messages.empty')} />;
  }
  return (
    <ul className={styles.list} aria-label={t(`messages.tab.${kind}`)}>
      {items.map((item) => (
        <MessageItem key={item.id} item={item} onOpen={onOpen} />
      ))}
    </ul>
  );
}

/** Says so when the daily notification limit held alarms back today. */
function LimitNote() {
  const { t } = useTranslation();
  const today = useQuery(notifyTodayQuery).data;
  if (!today || today.held === 0) {
    return null;
  }
  return (
    <p role="status" className={styles.limit}>
      {t('messages.limitHeld', { limit: formatNumber(today.limit, 0), held: formatNumber(today.held, 0) })}
    </p>
  );
}

function MessageBox({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  const unreadId = useId();
  const unprocessedId = useId();
  const ready = messageTexts.useReady();
  const messages = useMessageStore((state) => state.messages);
  const unread = useMessageStore(selectUnreadCount);
  const unprocessed = useMessageStore(selectUnprocessedAlarmCount);
  const total = useQuery(messageListQuery).data?.total ?? 0;
  const status = usePushStatus();
  const markRead = useMarkRead();
  const [tab, setTab] = useState<MessageKind>('alarm');
  // The popover lives at the end of the page: move focus into it so the keyboard can reach it.
  useEffect(() => {
    if (ready) {
      box.current?.focus();
    }
  }, [ready]);

  if (!ready) {
    return (
      <div className={`${styles.box} ${styles.state}`}>
        <Spin size={16} />
      </div>
    );
  }

  const open = (item: ConsoleMessage) => {
    if (!item.isRead) {
      markRead.mutate({ ids: [item.id] });
    }
    if (item.kind === 'alarm' && item.alarmId > 0) {
      onClose();
      navigate(alarmHref(item.alarmId));
    }
  };
  const go = (path: string) => {
    onClose();
    navigate(path);
  };

  return (
    <div
      ref={box}
      className={styles.box}
      role="dialog"
      aria-label={t('messages.title')}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          onClose();
        }
      }}
    >
      <div className={styles.head}>
        <h2 className={styles.title}>{t('messages.title')}</h2>
        <span className={styles.live} data-status={status} role="status">
          <span className={styles.liveDot} aria-hidden />
          {t(`messages.live.${status}`)}
        </span>
      </div>
      <div className={styles.counters}>
        {/* Live counters: a change is announced, named by its label. */}
        <p role="status" aria-labelledby={unreadId} className={styles.counter}>
          <span id={unreadId}>{t('messages.unread')}</span>
          <strong>{unread}</strong>
        </p>
        <p role="status" aria-labelledby={unprocessedId} className={styles.counter}>
          <span id={unprocessedId}>{t('messages.unprocessedAlarms')}</span>
          <strong>{unprocessed}</strong>
        </p>
        <Button
          size="mini"
          type="text"
          className={styles.markAll}
          disabled={unread === 0 || markRead.isPending}
          onClick={() => markRead.mutate({ all: true }, { onSuccess: () => notifySuccess(t('messages.markedAllRead')) })}
        >
          {t('messages.markAllRead')}
        </Button>
      </div>
      <LimitNote />
      <Tabs activeTab={tab} onChange={(key) => setTab(key as MessageKind)} size="small">
        {KINDS.map((kind) => {
          const count = messages.filter((item) => item.kind === kind && !item.isRead).length;
          return (
            <Tabs.TabPane
              key={kind}
              title={
                <span>
                  {t(`messages.tab.${kind}`)}
                  {count > 0 && <span className={styles.tabCount}>{count}</span>}
                </span>
              }
            >
              <MessageList kind={kind} onOpen={open} />
            </Tabs.TabPane>
          );
        })}
      </Tabs>
      {total > MESSAGE_PAGE_SIZE && (
        <p className={styles.more}>{t('messages.more', { shown: MESSAGE_PAGE_SIZE, total })}</p>
      )}
      <div className={styles.foot}>
        <Button size="small" type="text" onClick={() => go('/alarm?tab=settings')}>
          {t('messages.notifySettings')}
        </Button>
        <Button size="small" type="text" onClick={() => go('/alarm')}>
          {t('messages.allAlarms')}
        </Button>
      </div>
    </div>
  );
}

/**
 * The navbar bell: the unread count, and the message centre in a popover. It keeps the tab's push
 * connection open, so new messages and counters arrive without a reload.
 */
export function MessageBell() {
  const { t } = useTranslation();
  const ready = messageTexts.useReady();
  const signedIn = Boolean(useToken());
  const unread = useMessageStore(selectUnreadCount);
  const unprocessed = useMessageStore(selectUnprocessedAlarmCount);
  const [visible, setVisible] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  useMessagePush();
  useQuery({ ...messageListQuery, enabled: signedIn });
  useQuery({ ...messageCountsQuery, enabled: signedIn });

  const onVisibleChange = (next: boolean) => {
    setVisible(next);
    if (next) {
      void queryClient.invalidateQueries({ queryKey: [MESSAGES_KEY] });
    }
  };
  const label = ready ? t('messages.bellLabel', { count: unread, alarms: unprocessed }) : t('navbar.messages');

  return (
    <span className={styles.bellWrap}>
      <Popover
        trigger="click"
        position="br"
        popupVisible={visible}
        onVisibleChange={onVisibleChange}
        style={{ maxWidth: 'none' }}
        content={
          <MessageBox
            onClose={() => {
              setVisible(false);
              bell.current?.focus();
            }}
          />
        }
      >
        <Badge count={unread} maxCount={99} dot={false} offset={[2, -2]}>
          <Button
            ref={bell}
            shape="circle"
            type="secondary"
            icon={<IconNotification />}
            aria-label={label}
            title={label}
            aria-haspopup="dialog"
            aria-expanded={visible}
            data-unread={unread}
            data-unprocessed={unprocessed}
          />
        </Badge>
      </Popover>
      {/* the second counter: alarms waiting to be processed, whoever was told of them */}
      {unprocessed > 0 && (
        <span className={styles.alarmBadge} title={ready ? t('messages.alarmBadge') : undefined} aria-hidden>
          {unprocessed > 99 ? '99+' : unprocessed}
        </span>
      )}
    </span>
  );
}
