import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Descriptions/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@/lib/auth';
import { showFieldErrors } from '@/lib/form-errors';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifySuccess } from '@/lib/notify';
import { type Profile, useSaveProfile } from './api/account';
import { useAccountRules } from './rules';
import styles from './user-settings-page.module.css';

const FIELDS: (keyof Profile)[] = ['name', 'email', 'country', 'area', 'address', 'introduction', 'personalWebsite', 'phone'];

/** Basic information: what users set about themselves (SPEC.md section 5), and what the organisation set. */
export function BasicInfo({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Profile>();
  const save = useSaveProfile();
  const rules = useAccountRules();
  const submit = async () => {
    let values: Profile;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    const clean = Object.fromEntries(FIELDS.map((k) => [k, String(values[k] ?? '').trim()])) as unknown as Profile;
    try {
      await save.mutateAsync({ ...clean, introduction: values.introduction ?? '' });
      notifySuccess(t('account.saved'));
    } catch (error) {
      showFieldErrors(form, error, FIELDS);
    }
  };
  const initial: Profile = {
    name: user.name,
    email: user.email,
    country: user.country ?? '',
    area: user.area ?? '',
    address: user.address ?? '',
    introduction: user.introduction,
    personalWebsite: user.personalWebsite,
    phone: user.phone,
  };
  const field = (key: keyof Profile, label: string, extra?: object) => (
    <Form.Item field={key} label={label} rules={rules[key]} required={['name', 'email', 'country', 'area'].includes(key)} {...extra}>
      <Input aria-label={label} maxLength={key === 'address' || key === 'personalWebsite' ? 200 : 100} />
    </Form.Item>
  );
  return (
    <div className={styles.columns}>
      <Form form={form} layout="vertical" initialValues={initial} onSubmit={() => void submit()} className={styles.form} autoComplete="off">
        {field('name', t('account.field.nickname'))}
        {field('email', t('user.field.email'))}
        <div className={styles.pair}>
          {field('country', t('account.field.country'))}
          {field('area', t('account.field.area'))}
        </div>
        {field('address', t('account.field.address'))}
        {field('phone', t('user.field.phone'))}
        {field('personalWebsite', t('user.field.website'))}
        <Form.Item field="introduction" label={t('account.field.profile')} rules={rules.introduction}>
          <Input.TextArea aria-label={t('account.field.profile')} maxLength={200} showWordLimit autoSize={{ minRows: 3 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('account.save')}
        </Button>
      </Form>
      <Descriptions
        column={1}
        colon=":"
        labelStyle={{ width: 140 }}
        className={styles.facts}
        data={[
          { label: t('user.field.username'), value: user.username },
          { label: t('user.field.accountId'), value: user.accountId },
          { label: t('user.field.registrationDate'), value: zonedTime(user.registrationDate, undefined, currentLocale()).text },
          { label: t('user.field.organization'), value: user.organizationName },
          { label: t('user.field.department'), value: user.departmentName || '—' },
          { label: t('user.field.job'), value: user.jobName || '—' },
          { label: t('user.field.role'), value: t(`role.${user.role}`) },
          { label: t('user.field.stationAuthority'), value: t(`user.stationAuthority.${user.stationAuthority}`) },
        ]}
      />
    </div>
  );
}
