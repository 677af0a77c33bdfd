import Badge from '@arco-design/web-react/es/Badge';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Popover from '@arco-design/web-react/es/Popover';
import Tabs from '@arco-design/web-react/es/Tabs';
import '@arco-design/web-react/es/Badge/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Empty/style/css.js';
import '@arco-design/web-react/es/Popover/style/css.js';
import '@arco-design/web-react/es/Tabs/style/css.js';
import { IconNotification } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import styles from './message-bell.module.css';
import { type MessageKind, selectUnreadCount, useMessageStore } from './message-store';

const KINDS: MessageKind[] = ['alarm', 'workOrder', 'system'];

function MessageList({ kind }: { kind: MessageKind }) {
  const { t } = useTranslation();
  const messages = useMessageStore((state) => state.messages);
  const markRead = useMessageStore((state) => state.markRead);
  const items = messages.filter((item) => item.kind === kind);
  if (items.length === 0) {
    return <Empty className={styles.empty} description={t('messages.empty')} />;
  }
  return (
    <ul className={styles.list}>
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className={`${styles.item} ${item.isRead ? styles.read : ''}`}
            onClick={() => markRead(item.id)}
          >
            <span className={styles.itemTitle}>{item.title}</span>
            {item.content && <span className={styles.itemContent}>{item.content}</span>}
            <span className={styles.itemTime}>{formatDateTime(item.time)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function MessageBox() {
  const { t } = useTranslation();
  return (
    <div className={styles.box}>
      <Tabs defaultActiveTab="alarm" size="small">
        {KINDS.map((kind) => (
          <Tabs.TabPane key={kind} title={t(`messages.tab.${kind}`)}>
            <MessageList kind={kind} />
          </Tabs.TabPane>
        ))}
      </Tabs>
    </div>
  );
}

/** The navbar bell: unread count, and the message centre in a popover. */
export function MessageBell() {
  const { t } = useTranslation();
  const unread = useMessageStore(selectUnreadCount);
  return (
    <Popover trigger="click" position="br" title={t('messages.title')} content={<MessageBox />}>
      <Badge count={unread} dot={false} offset={[2, -2]}>
        <Button
          shape="circle"
          type="secondary"
          icon={<IconNotification />}
          aria-label={t('navbar.messages')}
          title={t('navbar.messages')}
          data-unread={unread}
        />
      </Badge>
    </Popover>
  );
}
