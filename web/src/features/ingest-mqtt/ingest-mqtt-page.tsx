import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import Select from '@arco-design/web-react/es/Select';
import Space from '@arco-design/web-react/es/Space';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import '@arco-design/web-react/es/Select/style/css.js';
import '@arco-design/web-react/es/Space/style/css.js';
import { IconPlus } from '@arco-design/web-react/icon';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { PageHeader, Panel } from '@/components/panel';
import { zonedTime } from '@/lib/format';
import { currentLocale } from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type ArrivedTopic, type MapRule, useApplyPreset, useArrived, useDeleteRule, usePresets, useRules } from './api';
import styles from './ingest-mqtt.module.css';
import { RuleDialog } from './rule-dialog';
import { ingestMqttTexts } from './texts';

/**
 * MQTT payload mapping of the organisation (administrators): the rules that turn collectors'
 * own topics into samples, the shipped presets, and what arrived under the organisation's
 * root without giving a sample (docs/ingest.md, "MQTT topics of their own shape").
 */
export function IngestMqttPage() {
  const { t } = useTranslation();
  const ready = ingestMqttTexts.useReady();
  const rules = useRules();
  const presets = usePresets();
  const arrived = useArrived();
  const remove = useDeleteRule();
  const apply = useApplyPreset();
  const [editing, setEditing] = useState<MapRule | null>(null);
  const [dialog, setDialog] = useState(false);
  const [preset, setPreset] = useState('opendtu');
  const [root, setRoot] = useState('');
  const failed = (err: unknown) => notifyError(t('ingestMqtt.failed', { reason: err instanceof Error ? err.message : String(err) }));
  const when = (v: string) => zonedTime(v, undefined, currentLocale()).text;
  const chosen = presets.data?.find((p) => p.key === preset);

  const ruleColumns: FitColumn<MapRule>[] = [
    { title: t('ingestMqtt.col.name'), dataIndex: 'name', width: 200 },
    { title: t('ingestMqtt.col.topic'), dataIndex: 'topic', render: (v: string) => <Topic topic={v} /> },
    { title: t('ingestMqtt.col.device'), dataIndex: 'device', width: 220, render: (v: string) => <Topic topic={v} /> },
    {
      title: t('ingestMqtt.col.fields'),
      dataIndex: 'fields',
      render: (_: unknown, r: MapRule) =>
        r.fields.map((f) => `${f.path || t('ingestMqtt.plainNumber')} → ${f.field}${f.scale && f.scale !== 1 ? ` ×${f.scale}` : ''}`).join(', '),
    },
    {
      title: t('ingestMqtt.col.actions'), phone: 'actions',
      width: 170,
      render: (_: unknown, r: MapRule) => (
        <Space>
          <Button
            size="mini"
            onClick={() => {
              setEditing(r);
              setDialog(true);
            }}
          >
            {t('ingestMqtt.edit')}
          </Button>
          <Popconfirm
            title={t('ingestMqtt.confirm.delete', { topic: r.topic })}
            onOk={() => remove.mutateAsync(r.id).then(() => notifySuccess(t('ingestMqtt.deleted')), failed)}
          >
            <Button size="mini" status="danger">
              {t('ingestMqtt.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const arrivedColumns: FitColumn<ArrivedTopic>[] = [
    { title: t('ingestMqtt.col.topic'), dataIndex: 'topic', render: (v: string) => <Topic topic={v} /> },
    {
      title: t('ingestMqtt.col.reason'),
      dataIndex: 'reason',
      width: 220,
      render: (v: string, a: ArrivedTopic) =>
        [t(`ingestMqtt.reason.${v}`), a.device, a.detail].filter(Boolean).join(' · '),
    },
    { title: t('ingestMqtt.col.count'), dataIndex: 'count', width: 90 },
    { title: t('ingestMqtt.col.last'), dataIndex: 'last', width: 180, render: when },
    {
      title: t('ingestMqtt.col.payload'),
      dataIndex: 'payload',
      render: (v: string, a: ArrivedTopic) => <span className={styles.payload}>{a.trimmed ? `${v}…` : v}</span>,
    },
  ];

  const applyPreset = () =>
    apply.mutateAsync({ preset, root: root.trim() }).then(
      (r) => notifySuccess(t('ingestMqtt.applied', { added: r.added.length, skipped: r.skipped })),
      failed,
    );

  return (
    <>
      <PageHeader title={t('menu.permission.ingestMqtt')} />
      {!ready ? (
        <DataState loading minHeight={320} />
      ) : (
        <>
          <Panel
            title={t('ingestMqtt.rules')}
            extra={
              <Button
                type="primary"
                icon={<IconPlus />}
                onClick={() => {
                  setEditing(null);
                  setDialog(true);
                }}
              >
                {t('ingestMqtt.rule.add')}
              </Button>
            }
          >
            <p className={styles.intro}>{t('ingestMqtt.intro', { root: rules.data?.root ?? 'helio/map/…/' })}</p>
            <div className={styles.presetBar}>
              <span>{t('ingestMqtt.preset')}</span>
              <Select
                aria-label={t('ingestMqtt.preset')}
                style={{ width: 300 }}
                value={preset}
                onChange={setPreset}
                options={(presets.data ?? []).map((p) => ({ label: p.title, value: p.key }))}
              />
              <Input
                aria-label={t('ingestMqtt.root')}
                style={{ width: 220 }}
                value={root}
                onChange={setRoot}
                placeholder={t('ingestMqtt.rootPlaceholder', { root: chosen?.root ?? '' })}
              />
              <Button loading={apply.isPending} onClick={() => void applyPreset()}>
                {t('ingestMqtt.apply')}
              </Button>
            </div>
            <DataState
              loading={rules.isPending}
              error={rules.isError}
              onRetry={() => void rules.refetch()}
              empty={rules.data?.rules.length === 0}
              emptyText={t('ingestMqtt.empty')}
              minHeight={200}
            >
              <CardTable label={t('ingestMqtt.rules')} rowKey="id" columns={ruleColumns} data={rules.data?.rules ?? []} pagination={false} border={false} />
            </DataState>
          </Panel>
          <Panel title={t('ingestMqtt.arrived')}>
            <p className={styles.intro}>{t('ingestMqtt.arrivedIntro')}</p>
            <DataState
              loading={arrived.isPending}
              error={arrived.isError}
              onRetry={() => void arrived.refetch()}
              empty={arrived.data?.topics.length === 0}
              emptyText={t('ingestMqtt.arrivedEmpty')}
              minHeight={160}
            >
              <CardTable label={t('ingestMqtt.arrived')} rowKey="topic" columns={arrivedColumns} data={arrived.data?.topics ?? []} pagination={{ pageSize: 20 }} border={false} />
            </DataState>
          </Panel>
        </>
      )}
      <RuleDialog rule={editing} visible={dialog} onClose={() => setDialog(false)} />
    </>
  );
}

/** A topic that wraps only between its levels, never inside a word. */
function Topic({ topic }: { topic: string }) {
  const levels = topic.split('/');
  return (
    <span className={styles.topic}>
      {levels.map((level, i) => (
        <Fragment key={i}>
          {level}
          {i < levels.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </Fragment>
      ))}
    </span>
  );
}
