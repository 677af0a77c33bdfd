import Alert from '@arco-design/web-react/es/Alert';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import '@arco-design/web-react/es/Alert/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import { LabelledSelect, Option } from '@/components/select';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { filesQuery, type Mapping, previewQuery } from './api';
import { ColumnsEditor } from './columns-editor';
import styles from './history-import.module.css';
import { PreviewRows } from './preview-rows';
import { TemplateBar, templateName } from './template-bar';

const NO_COLUMN = '';

export interface MappingPanelProps {
  previewId: number;
  mapping: Mapping | null;
  onMapping: (m: Mapping) => void;
  /** The files of the import and, without a device column, each one's device. */
  chosen: number[];
  devices: Record<number, string>;
  onDevices: (d: Record<number, string>) => void;
}

/** A file's preview (detected columns, time format and zone, first rows) and the mapping to edit. */
export function MappingPanel({ previewId, mapping, onMapping, chosen, devices, onDevices }: MappingPanelProps) {
  const { t } = useTranslation();
  const preview = useQuery(previewQuery(previewId));
  const files = useQuery(filesQuery);
  const suggested = preview.data?.mapping;
  // a newly previewed file starts from its suggested mapping
  useEffect(() => {
    if (suggested && mapping === null) onMapping(suggested);
  }, [suggested, mapping, onMapping]);

  return (
    <DataState loading={preview.isPending} error={preview.isError} onRetry={() => void preview.refetch()} minHeight={160}>
      {preview.data && mapping && (
        <div className={styles.mapping}>
          <dl className={styles.facts}>
            <dt>{t('historyImport.detectedFormat')}</dt>
            <dd>
              <code className={styles.code}>{preview.data.timeFormat || t('historyImport.noTime')}</code>
            </dd>
            <dt>{t('historyImport.detectedZone')}</dt>
            <dd>{preview.data.timeHasOffset ? t('historyImport.zoneInFile') : t('historyImport.zoneNone')}</dd>
            <dt>{t('historyImport.headerRowIs')}</dt>
            <dd>{(preview.data.headerRow ?? 0) + 1}</dd>
            {preview.data.applied && (
              <>
                <dt>{t('historyImport.appliedTemplate')}</dt>
                <dd>{templateName(t, preview.data.applied, preview.data.appliedKey)}</dd>
              </>
            )}
          </dl>
          {preview.data.timeAmbiguous && <Alert type="warning" content={t('historyImport.ambiguous')} className={styles.alert} />}
          <TemplateBar mapping={mapping} fits={preview.data.templates ?? []} onLoad={onMapping} />
          <div className={styles.settings}>
            <label className={styles.setting}>
              <span>{t('historyImport.headerRow')}</span>
              <InputNumber
                size="small"
                min={1}
                value={(mapping.headerRow ?? 0) + 1}
                onChange={(v) => onMapping({ ...mapping, headerRow: Math.max(0, Number(v ?? 1) - 1) })}
              />
            </label>
            <label className={styles.setting}>
              <span>{t('historyImport.timeColumn')}</span>
              <LabelledSelect label={t('historyImport.timeColumn')} size="small" value={mapping.timeColumn} onChange={(v: string) => onMapping({ ...mapping, timeColumn: v })}>
                {(preview.data.header ?? []).map((h) => (
                  <Option key={h} value={h}>
                    {h}
                  </Option>
                ))}
              </LabelledSelect>
            </label>
            <label className={styles.setting}>
              <span>{t('historyImport.timeFormat')}</span>
              <Input size="small" value={mapping.timeFormat} onChange={(v) => onMapping({ ...mapping, timeFormat: v })} aria-label={t('historyImport.timeFormat')} />
            </label>
            <label className={styles.setting}>
              <span>{t('historyImport.zone')}</span>
              <TimeZoneSelect
                label={t('historyImport.zone')}
                size="small"
                allowClear
                placeholder={t('historyImport.stationZone')}
                value={mapping.zone || undefined}
                onChange={(v?: string) => onMapping({ ...mapping, zone: v ?? '' })}
              />
            </label>
            <label className={styles.setting}>
              <span>{t('historyImport.deviceColumn')}</span>
              <LabelledSelect
                label={t('historyImport.deviceColumn')}
                size="small"
                value={mapping.deviceColumn ?? NO_COLUMN}
                onChange={(v: string) => onMapping({ ...mapping, deviceColumn: v })}
              >
                <Option value={NO_COLUMN}>{t('historyImport.fixedDevice')}</Option>
                {(preview.data.header ?? []).map((h) => (
                  <Option key={h} value={h}>
                    {h}
                  </Option>
                ))}
              </LabelledSelect>
            </label>
            <label className={styles.setting}>
              <span>{t('historyImport.match')}</span>
              <LabelledSelect label={t('historyImport.match')} size="small" value={mapping.match || 'serial'} onChange={(v: string) => onMapping({ ...mapping, match: v })}>
                <Option value="serial">{t('historyImport.matchSerial')}</Option>
                <Option value="name">{t('historyImport.matchName')}</Option>
              </LabelledSelect>
            </label>
          </div>
          {!mapping.deviceColumn && (
            <div className={styles.devices}>
              <p className={styles.hint}>{t('historyImport.fixedDeviceHint')}</p>
              {chosen.map((id) => {
                const name = files.data?.find((f) => f.id === id)?.name ?? String(id);
                return (
                  <label key={id} className={styles.setting}>
                    <span className={styles.fileName}>{name}</span>
                    <Input
                      size="small"
                      value={devices[id] ?? ''}
                      placeholder={mapping.match === 'name' ? t('historyImport.deviceName') : t('historyImport.deviceSerial')}
                      aria-label={t('historyImport.deviceOf', { name })}
                      onChange={(v) => onDevices({ ...devices, [id]: v.trim() })}
                    />
                  </label>
                );
              })}
            </div>
          )}
          <h3 className={styles.subhead}>{t('historyImport.columns')}</h3>
          <ColumnsEditor preview={preview.data} mapping={mapping} onChange={onMapping} />
          <h3 className={styles.subhead}>{t('historyImport.firstRows')}</h3>
          <PreviewRows preview={preview.data} />
        </div>
      )}
    </DataState>
  );
}
