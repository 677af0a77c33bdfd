import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconClose, IconRefresh } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DEFAULT_ROUTE_NAME } from '../route-config';
import { useTabsStore } from '../tabs-store';
import styles from './tab-bar.module.css';
import { useCurrentAppRoute } from './use-current-route';

/** Open pages as tabs: click to return, × to close, ⟳ reloads the current page. */
export function TabBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const route = useCurrentAppRoute();
  const tabs = useTabsStore((state) => state.tabs);
  const close = useTabsStore((state) => state.close);
  const current = tabs.find((tab) => tab.name === route.name);

  const closeTab = (name: string) => {
    const next = close(name);
    if (name === route.name && next) {
      navigate(next.fullPath);
    }
  };

  return (
    <div className={styles.bar}>
      <ul className={styles.tabs} aria-label={t('tabs.label')}>
        {tabs.map((tab) => {
          const active = tab.name === route.name;
          const title = t(tab.title);
          return (
            <li key={tab.name} className={`${styles.tab} ${active ? styles.active : ''}`}>
              <button
                type="button"
                className={styles.link}
                aria-current={active ? 'page' : undefined}
                onClick={() => navigate(tab.fullPath)}
              >
                {title}
              </button>
              {tab.name !== DEFAULT_ROUTE_NAME && (
                <button
                  type="button"
                  className={styles.close}
                  aria-label={t('tabs.close', { title })}
                  title={t('tabs.close', { title })}
                  onClick={() => closeTab(tab.name)}
                >
                  <IconClose />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {current && (
        <Button
          size="mini"
          type="text"
          icon={<IconRefresh />}
          aria-label={t('tabs.reload')}
          title={t('tabs.reload')}
          onClick={() => navigate(`/redirect${current.fullPath}`, { replace: true })}
        />
      )}
    </div>
  );
}
