import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { type Schemas, typedApi } from '@/lib/api-typed';
import { userQuery } from '@/lib/auth';
import { showFieldErrors } from '@/lib/form-errors';
import { notifySuccess } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';
import { ORG_KEY, useOrgWrite } from './api/org';
import styles from './permission.module.css';

/** The organisation's own settings (GET and POST /v2/org/settings). */
export type OrgSettings = Schemas['Settings'];

const FIELDS: (keyof OrgSettings)[] = ['name', 'timezone'];

/** The organisation's name and time zone: the zone scheduled reports keep unless a schedule names another. */
export function SettingsPanel() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: [ORG_KEY, 'settings'], queryFn: ({ signal }) => typedApi.get('/v2/org/settings', undefined, { signal }) });
  const [form] = Form.useForm<OrgSettings>();
  const save = useOrgWrite((input: Schemas['SettingsInput']) => typedApi.post('/v2/org/settings', { body: input }));
  const submit = async () => {
    let values: OrgSettings;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    try {
      await save.mutateAsync({ name: values.name.trim(), timezone: values.timezone });
      // every member's profile carries the organisation's name and zone
      void queryClient.invalidateQueries({ queryKey: userQuery.queryKey });
      notifySuccess(t('org.settings.saved'));
    } catch (error) {
      showFieldErrors(form, error, FIELDS);
    }
  };
  const required = { required: true, message: t('org.rule.required') };
  return (
    <DataState loading={settings.isPending} error={settings.isError} onRetry={() => void settings.refetch()} minHeight={160}>
      {settings.data && (
        <Form
          form={form}
          layout="vertical"
          initialValues={settings.data}
          onSubmit={() => void submit()}
          className={styles.settings}
          aria-label={t('org.tab.settings')}
          autoComplete="off"
        >
          <Form.Item field="name" label={t('org.settings.name')} rules={[required, { maxLength: 100, message: t('org.settings.nameTooLong') }]}>
            <Input aria-label={t('org.settings.name')} maxLength={100} />
          </Form.Item>
          <Form.Item field="timezone" label={t('org.settings.timezone')} rules={[required]} extra={t('org.settings.timezoneHint')}>
            <TimeZoneSelect label={t('org.settings.timezone')} placeholder={t('org.settings.timezonePick')} />
          </Form.Item>
          <div>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('org.settings.save')}
            </Button>
          </div>
        </Form>
      )}
    </DataState>
  );
}
