import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import Message from '@arco-design/web-react/es/Message';
import '@arco-design/web-react/es/Message/style/css.js';
import Select from '@arco-design/web-react/es/Select';
import '@arco-design/web-react/es/Select/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { Panel } from '@/components/panel';
import { ApiError } from '@/lib/api-client';
import { hexWords, type LiveRegister, templatesQuery, useImportMap, usePreviewMap } from './api/scada';
import styles from './debug.module.css';
import { DevicePicker } from './device-picker';
import { formatValue } from './format';

/** The map as typed, or why it is not JSON (the server judges everything else). */
export function parseMap(text: string): { map?: unknown; error?: string } {
  try {
    return { map: JSON.parse(text) as unknown };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** A refused call's field problems, each with its path (registers[3].foo: reason). */
function problems(e: unknown): string[] {
  if (!(e instanceof ApiError)) {
    return [];
  }
  const fields = Object.entries(e.fields).map(([k, v]) => `${k}: ${v}`);
  return fields.length ? fields : [e.msg];
}

/**
 * The map editor (administrators): start from a shipped map or a blank one, edit the JSON,
 * preview it against a connected device (each register raw and decoded, or why not; nothing
 * saved), then save it as a new map or the next version of the map with that name.
 */
export function MapEditor() {
  const { t } = useTranslation();
  const templates = useQuery(templatesQuery);
  const preview = usePreviewMap();
  const save = useImportMap();
  const [text, setText] = useState('{\n  "name": "",\n  "model": "",\n  "registers": []\n}');
  const [deviceId, setDeviceId] = useState<number>();
  const [errors, setErrors] = useState<string[]>([]);
  const parsed = parseMap(text);

  const onTemplate = (name: string) => {
    const m = templates.data?.find((x) => x.name === name);
    if (m) {
      setText(JSON.stringify(m, null, 2));
      setErrors([]);
      preview.reset();
    }
  };
  const onPreview = () => {
    if (deviceId === undefined || parsed.map === undefined) {
      return;
    }
    setErrors([]);
    preview.mutate({ deviceId, map: parsed.map }, { onError: (e) => setErrors(problems(e)) });
  };
  const onSave = () => {
    if (parsed.map === undefined) {
      return;
    }
    setErrors([]);
    save.mutate(parsed.map, {
      onSuccess: (m) => Message.success(t('debug.maps.imported', { name: m.name, version: m.version })),
      onError: (e) => setErrors(problems(e)),
    });
  };

  const columns: FitColumn<LiveRegister>[] = [
    { title: t('debug.register'), dataIndex: 'name', phone: 'primary' },
    { title: t('debug.registerAddress'), dataIndex: 'address', width: 100, phone: 'primary' },
    { title: t('debug.function'), dataIndex: 'function', width: 140, render: (v: string) => t(`debug.functions.${v}`) },
    { title: t('debug.raw'), dataIndex: 'raw', render: (v: number[] | null) => <code className={styles.raw}>{hexWords(v)}</code> },
    {
      title: t('debug.value'),
      dataIndex: 'value',
      render: (_: unknown, r) => (r.error ? <span className={styles.warning}>{r.error}</span> : formatValue(r)),
    },
    { title: t('debug.target'), dataIndex: 'target', width: 120, render: (v: string) => v || '—' },
  ];

  return (
    <Panel title={t('debug.editor.title')}>
      <p className={styles.meta}>{t('debug.editor.hint')}</p>
      <div className={styles.actions}>
        <Select
          aria-label={t('debug.editor.template')}
          placeholder={t('debug.editor.template')}
          style={{ width: 260 }}
          loading={templates.isPending}
          options={(templates.data ?? []).map((m) => ({ value: m.name, label: `${m.name} · ${m.model}` }))}
          onChange={onTemplate}
        />
        <DevicePicker value={deviceId} onChange={setDeviceId} />
        <Button onClick={onPreview} loading={preview.isPending} disabled={deviceId === undefined || parsed.map === undefined}>
          {t('debug.editor.preview')}
        </Button>
        <Button type="primary" onClick={onSave} loading={save.isPending} disabled={parsed.map === undefined}>
          {t('debug.editor.save')}
        </Button>
      </div>
      <Input.TextArea
        aria-label={t('debug.editor.json')}
        value={text}
        onChange={(v) => setText(v)}
        autoSize={{ minRows: 12, maxRows: 30 }}
        spellCheck={false}
        style={{ fontFamily: 'monospace', marginTop: 12 }}
      />
      {parsed.error && (
        <p className={styles.warning} role="alert">
          {t('debug.editor.notJson', { reason: parsed.error })}
        </p>
      )}
      {errors.length > 0 && (
        <ul className={styles.warning} role="alert" aria-label={t('debug.editor.problems')}>
          {errors.slice(0, 20).map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      {preview.data && (
        <>
          <p className={styles.meta}>
            {t('debug.readAt', { time: new Date(preview.data.readAt).toLocaleTimeString(), ms: preview.data.latencyMs.toFixed(1) })}
          </p>
          <CardTable label={t('debug.editor.preview')} size="small" rowKey="name" columns={columns} data={preview.data.registers} pagination={false} scroll={{ y: 420 }} />
        </>
      )}
    </Panel>
  );
}
