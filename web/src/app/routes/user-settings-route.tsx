import { Configuration } from '@/features/settings/configuration';
import { UserSettingsPage } from '@/features/user/user-settings-page';

export { prefetch } from '@/features/user/user-settings-page';

/** User settings with the settings feature's language, location and theme controls. */
export function UserSettingsRoute() {
  return <UserSettingsPage configuration={<Configuration />} />;
}
