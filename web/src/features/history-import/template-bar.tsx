import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Popconfirm/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { type TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { notifyError, notifySuccess } from '@/lib/notify';
import { type Mapping, type Template, templatesQuery, useDeleteTemplate, useSaveTemplate } from './api';
import styles from './history-import.module.css';

/** A template's name in the reader's language: a shipped one by its key, the organisation's as saved. */
export function templateName(t: TFunction, name: string | undefined, key?: string): string {
  return key ? t(`historyImport.builtIn.${key}`, { defaultValue: name ?? key }) : (name ?? '');
}

const keyOf = (tpl: Template) => `${tpl.builtIn ? 'b' : 'o'}${tpl.id ?? 0}:${tpl.name ?? ''}`;

/** Load a saved template into the mapping, or save the mapping as one (name and vendor format). */
export function TemplateBar({ mapping, fits, onLoad }: { mapping: Mapping; fits: string[]; onLoad: (m: Mapping) => void }) {
  const { t } = useTranslation();
  const templates = useQuery(templatesQuery);
  const save = useSaveTemplate();
  const remove = useDeleteTemplate();
  const [picked, setPicked] = useState<string | undefined>();
  const [name, setName] = useState('');
  const [vendor, setVendor] = useState('');
  const list = templates.data ?? [];
  const chosen = list.find((tpl) => keyOf(tpl) === picked);
  const fail = (err: unknown) => notifyError(err instanceof Error ? err.message : String(err));

  const load = () => {
    if (chosen?.mapping) {
      onLoad(chosen.mapping);
      notifySuccess(t('historyImport.templateLoaded', { name: templateName(t, chosen.name, chosen.key) }));
    }
  };
  const submit = () =>
    save.mutateAsync({ name: name.trim(), vendor: vendor.trim(), mapping, templateId: list.find((tpl) => !tpl.builtIn && tpl.name === name.trim())?.id ?? 0 }).then(
      (tpl) => {
        notifySuccess(t('historyImport.templateSaved', { name: tpl.name }));
        setPicked(keyOf(tpl));
      },
      fail,
    );

  return (
    <div className={styles.templates}>
      <div className={styles.toolbar}>
        <LabelledSelect
          label={t('historyImport.template')}
          placeholder={templates.isError ? t('state.error') : list.length === 0 ? t('historyImport.noTemplates') : t('historyImport.template')}
          loading={templates.isPending}
          disabled={list.length === 0}
          value={picked}
          onChange={(v: string) => setPicked(v)}
          className={styles.templateSelect}
        >
          {list.map((tpl) => (
            <Option key={keyOf(tpl)} value={keyOf(tpl)}>
              {[templateName(t, tpl.name, tpl.key), tpl.vendor, fits.includes(tpl.name ?? '') ? t('historyImport.fits') : ''].filter(Boolean).join(' · ')}
            </Option>
          ))}
        </LabelledSelect>
        <Button size="small" disabled={!chosen} onClick={load}>
          {t('historyImport.loadTemplate')}
        </Button>
        {chosen && !chosen.builtIn && (
          <Popconfirm
            title={t('historyImport.deleteTemplateConfirm', { name: chosen.name })}
            onOk={() =>
              remove.mutateAsync(chosen.id ?? 0).then(() => {
                setPicked(undefined);
                notifySuccess(t('historyImport.deleted'));
              }, fail)
            }
          >
            <Button size="small" status="danger">
              {t('historyImport.deleteTemplate')}
            </Button>
          </Popconfirm>
        )}
      </div>
      <div className={styles.toolbar}>
        <Input
          size="small"
          className={styles.templateName}
          value={name}
          onChange={setName}
          placeholder={t('historyImport.templateName')}
          aria-label={t('historyImport.templateName')}
          maxLength={100}
        />
        <Input
          size="small"
          className={styles.templateName}
          value={vendor}
          onChange={setVendor}
          placeholder={t('historyImport.vendor')}
          aria-label={t('historyImport.vendor')}
          maxLength={100}
        />
        <Button size="small" type="outline" disabled={name.trim() === ''} loading={save.isPending} onClick={() => void submit()}>
          {t('historyImport.saveTemplate')}
        </Button>
      </div>
    </div>
  );
}
