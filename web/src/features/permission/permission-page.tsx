import { AreaPlaceholder } from '@/components/area-placeholder';

/** Organisation users, departments and roles. Not built yet: shows the honest empty state. */
export function PermissionPage() {
  return <AreaPlaceholder titleKey="menu.permission" />;
}
