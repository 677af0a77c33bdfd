import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Input/style/css.js';
import { useTranslation } from 'react-i18next';
import { CardTable } from '@/components/list/card-table';
import type { FitColumn } from '@/components/list/fit-columns';
import { LabelledSelect, Option } from '@/components/select';
import { IMPORT_FIELDS, isEnergy, type Mapping, type MappingColumn, type Preview, unitsOf } from './api';
import styles from './history-import.module.css';

interface Row {
  name: string;
  detected: string;
  column: MappingColumn | undefined;
}

const IGNORE = '';

/** The file's columns: what each was detected as, and the sample field it feeds (or none). */
export function ColumnsEditor({ preview, mapping, onChange }: { preview: Preview; mapping: Mapping; onChange: (m: Mapping) => void }) {
  const { t } = useTranslation();
  const header = preview.header ?? [];
  const detected = new Map((preview.columns ?? []).map((c) => [c.name ?? '', c]));
  const mapped = new Map((mapping.columns ?? []).map((c) => [c.name ?? '', c]));
  const roleText = (c: { role?: string; unit?: string; energy?: string } | undefined): string => {
    if (!c?.role) return t('historyImport.role.unknown');
    const label = IMPORT_FIELDS[c.role] ? t(`sampleField.${IMPORT_FIELDS[c.role]}`) : t(`historyImport.role.${c.role}`);
    return [label, c.unit, c.energy ? t(`historyImport.energy.${c.energy}`) : ''].filter(Boolean).join(' · ');
  };
  const rows: Row[] = header
    .filter((name) => name !== mapping.timeColumn && name !== mapping.deviceColumn)
    .map((name) => ({ name, detected: roleText(detected.get(name)), column: mapped.get(name) }));


  const set = (name: string, change: Partial<MappingColumn> | null) => {
    const others = (mapping.columns ?? []).filter((c) => c.name !== name);
    if (change === null) {
      onChange({ ...mapping, columns: others });
      return;
    }
    const current = mapped.get(name) ?? { name, field: '', unit: '', energy: '', device: '' };
    const next = { ...current, ...change };
    // a new field brings its own units and energy kind
    if (change.field !== undefined && change.field !== current.field) {
      const units = unitsOf(next.field);
      next.unit = units.includes(next.unit ?? '') ? next.unit : (units[1] ?? '');
      next.energy = isEnergy(next.field) ? next.energy || 'counter' : '';
    }
    const order = header.filter((h) => h === name || others.some((c) => c.name === h));
    onChange({ ...mapping, columns: order.map((h) => (h === name ? next : (others.find((c) => c.name === h) as MappingColumn))) });
  };

  const columns: FitColumn<Row>[] = [
    { title: t('historyImport.col.column'), dataIndex: 'name', width: 180, render: (n: string) => <code className={styles.code}>{n}</code> },
    { title: t('historyImport.col.detected'), dataIndex: 'detected', width: 200, render: (d: string) => <span className={styles.muted}>{d}</span> },
    {
      title: t('historyImport.col.field'),
      width: 230,
      render: (_: unknown, r: Row) => (
        <LabelledSelect
          label={t('historyImport.fieldOf', { name: r.name })}
          size="small"
          value={r.column?.field ?? IGNORE}
          onChange={(v: string) => set(r.name, v === IGNORE ? null : { field: v })}
        >
          <Option value={IGNORE}>{t('historyImport.ignore')}</Option>
          {Object.entries(IMPORT_FIELDS).map(([field, sample]) => (
            <Option key={field} value={field}>
              {t(`sampleField.${sample}`)}
            </Option>
          ))}
        </LabelledSelect>
      ),
    },
    {
      title: t('historyImport.col.unit'),
      width: 120,
      render: (_: unknown, r: Row) =>
        unitsOf(r.column?.field).length === 0 ? null : (
          <LabelledSelect label={t('historyImport.unitOf', { name: r.name })} size="small" value={r.column?.unit} onChange={(v: string) => set(r.name, { unit: v })}>
            {unitsOf(r.column?.field).map((u) => (
              <Option key={u} value={u}>
                {u}
              </Option>
            ))}
          </LabelledSelect>
        ),
    },
    {
      title: t('historyImport.col.energy'),
      width: 190,
      render: (_: unknown, r: Row) =>
        !isEnergy(r.column?.field) ? null : (
          <LabelledSelect label={t('historyImport.energyOf', { name: r.name })} size="small" value={r.column?.energy} onChange={(v: string) => set(r.name, { energy: v })}>
            <Option value="counter">{t('historyImport.energy.counter')}</Option>
            <Option value="interval">{t('historyImport.energy.interval')}</Option>
          </LabelledSelect>
        ),
    },
    {
      title: t('historyImport.col.columnDevice'),
      width: 170,
      render: (_: unknown, r: Row) =>
        r.column === undefined ? null : (
          <Input
            size="small"
            value={r.column.device ?? ''}
            placeholder={t('historyImport.columnDevicePlaceholder')}
            aria-label={t('historyImport.columnDeviceOf', { name: r.name })}
            onChange={(v) => set(r.name, { device: v.trim() })}
          />
        ),
    },
  ];
  return <CardTable label={t('historyImport.columns')} rowKey="name" columns={columns} data={rows} pagination={false} border={false} scroll={{ x: 960 }} />;
}
