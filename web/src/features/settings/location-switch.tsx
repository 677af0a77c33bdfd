import Button from '@arco-design/web-react/es/Button';
import Dropdown from '@arco-design/web-react/es/Dropdown';
import Menu from '@arco-design/web-react/es/Menu';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Dropdown/style/css.js';
import '@arco-design/web-react/es/Menu/style/css.js';
import { IconLocation } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { type Location, LOCATIONS, useLocationStore } from './location-store';

/** Picks the user's location; confirms only a real change. */
export function LocationSwitch() {
  const { t } = useTranslation();
  const location = useLocationStore((state) => state.location);
  const setLocation = useLocationStore((state) => state.setLocation);
  const choose = (value: string) => {
    if (setLocation(value as Location)) {
      notifySuccess(t('navbar.location.switched', { name: t(`location.${value}`) }));
    }
  };
  return (
    <Dropdown
      trigger="click"
      position="br"
      droplist={
        <Menu selectedKeys={[location]} onClickMenuItem={choose}>
          {LOCATIONS.map((code) => (
            <Menu.Item key={code}>{t(`location.${code}`)}</Menu.Item>
          ))}
        </Menu>
      }
    >
      <Button
        shape="circle"
        type="secondary"
        icon={<IconLocation />}
        aria-label={`${t('navbar.location')}: ${t(`location.${location}`)}`}
        title={t('navbar.location')}
      />
    </Dropdown>
  );
}
