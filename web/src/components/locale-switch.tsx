import Button from '@arco-design/web-react/es/Button';
import Dropdown from '@arco-design/web-react/es/Dropdown';
import Menu from '@arco-design/web-react/es/Menu';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Dropdown/style/css.js';
import '@arco-design/web-react/es/Menu/style/css.js';
import { IconLanguage } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '@/lib/i18n';
import { useChooseLocale } from './use-choose-locale';

/** The navbar's language menu. */
export function LocaleSwitch() {
  const { t, i18n } = useTranslation();
  const choose = useChooseLocale();
  return (
    <Dropdown
      trigger="click"
      position="br"
      droplist={
        <Menu selectedKeys={[i18n.language]} onClickMenuItem={(value) => void choose(value)}>
          {LOCALES.map((locale) => (
            <Menu.Item key={locale.value} lang={locale.value}>
              {locale.label}
            </Menu.Item>
          ))}
        </Menu>
      }
    >
      <Button
        shape="circle"
        type="secondary"
        icon={<IconLanguage />}
        aria-label={t('navbar.language')}
        title={t('navbar.language')}
      />
    </Dropdown>
  );
}
