import Breadcrumb from '@arco-design/web-react/es/Breadcrumb';
import '@arco-design/web-react/es/Breadcrumb/style/css.js';
import { IconHome } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { MENU_GROUPS, routeByName } from '../route-config';
import styles from './breadcrumb.module.css';
import { useCurrentAppRoute } from './use-current-route';

/** A home icon followed by the translated labels of the current page (SPEC.md section 2). */
export function PageBreadcrumb() {
  const { t } = useTranslation();
  const route = useCurrentAppRoute();
  const parent = routeByName(route.parent);
  const labels = [
    ...(route.group ? [t(MENU_GROUPS[route.group].locale)] : []),
    ...(parent ? [t(parent.locale)] : []),
    t(route.locale),
  ];
  return (
    <nav aria-label={t('breadcrumb.label')} className={styles.wrap}>
      <Breadcrumb>
        <Breadcrumb.Item>
          <IconHome aria-label={t('menu.home')} role="img" />
        </Breadcrumb.Item>
        {labels.map((label) => (
          <Breadcrumb.Item key={label}>{label}</Breadcrumb.Item>
        ))}
      </Breadcrumb>
    </nav>
  );
}
