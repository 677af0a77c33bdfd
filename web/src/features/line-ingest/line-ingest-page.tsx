import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Form/style/css.js';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DataState } from '@/components/data-state';
import { PageHeader, Panel } from '@/components/panel';
import { notifyError, notifySuccess } from '@/lib/notify';
import { guessDeviceTag, type LineRulesInput, rulesQuery, type UnknownSeries, useClearUnknown } from './api';
import styles from './line-ingest.module.css';
import { RulesForm } from './rules-form';
import { lineIngestTexts } from './texts';
import { UnknownTable } from './unknown-table';

/** An address that may wrap before a slash, a ? or a &, not inside a word (a phone's width). */
function breakable(address: string) {
  return address.split(/(?=[/?&])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/**
 * InfluxDB line protocol (administrators): where collectors write, the organisation's rules from
 * measurement and field to device and sample field, and the series that arrived without one.
 */
export function LineIngestPage() {
  const { t } = useTranslation();
  const ready = lineIngestTexts.useReady();
  const rules = useQuery(rulesQuery);
  const clear = useClearUnknown();
  const [form] = Form.useForm<LineRulesInput>();
  const origin = window.location.origin;
  // an unmapped series becomes a new row of the form, to complete and save
  const map = (s: UnknownSeries) => {
    const current = (form.getFieldValue('rules') as LineRulesInput['rules'] | undefined) ?? [];
    form.setFieldValue('rules', [...current, { measurement: s.measurement, deviceTag: guessDeviceTag(s.tags), field: s.field, target: 'powerKw', scale: 1 }]);
    notifySuccess(t('lineIngest.mapped', { name: `${s.measurement}.${s.field}` }));
  };
  if (!ready) {
    return <DataState loading minHeight={320} />;
  }
  return (
    <div className={styles.page}>
      <PageHeader title={t('menu.permission.lineIngest')} />
      <Panel title={t('lineIngest.where')}>
        <p className={styles.intro}>{t('lineIngest.intro')}</p>
        <dl className={styles.endpoints}>
          <dt>InfluxDB 2</dt>
          <dd>{breakable(`${origin}/api/v2/write?bucket=helio&precision=s`)}</dd>
          <dt>InfluxDB 1.x</dt>
          <dd>{breakable(`${origin}/write?db=helio&precision=s`)}</dd>
          <dt>{t('lineIngest.key')}</dt>
          <dd>
            <Link to="/permission/ingest-keys" className={styles.link}>
              {t('lineIngest.keyLink')}
            </Link>
          </dd>
        </dl>
      </Panel>
      <Panel title={t('lineIngest.rules')}>
        <p className={styles.hint}>{t('lineIngest.rulesHint')}</p>
        <DataState loading={rules.isPending} error={rules.isError} onRetry={() => void rules.refetch()} minHeight={160}>
          {rules.data && <RulesForm form={form} initial={rules.data} />}
        </DataState>
      </Panel>
      <Panel
        title={t('lineIngest.unknown')}
        extra={
          <Popconfirm
            title={t('lineIngest.clearConfirm')}
            onOk={() =>
              clear.mutateAsync().then(
                () => notifySuccess(t('lineIngest.cleared')),
                (err: unknown) => notifyError(err instanceof Error ? err.message : String(err)),
              )
            }
          >
            <Button size="small">{t('lineIngest.clear')}</Button>
          </Popconfirm>
        }
      >
        <p className={styles.hint}>{t('lineIngest.unknownHint')}</p>
        <UnknownTable onMap={map} />
      </Panel>
    </div>
  );
}
