import { useTranslation } from 'react-i18next';
import { DataState } from '@/components/data-state';
import table from '@/components/plain-table.module.css';
import type { Preview } from './api';
import styles from './history-import.module.css';

/** The file's first data rows as read, under its header (times as the file writes them). */
export function PreviewRows({ preview }: { preview: Preview }) {
  const { t } = useTranslation();
  const header = preview.header ?? [];
  const rows = preview.rows ?? [];
  const first = (preview.headerRow ?? 0) + 2; // a spreadsheet's row number of the first data row
  return (
    <DataState empty={rows.length === 0} emptyText={t('historyImport.noRows')} minHeight={80}>
      {/* scrolls sideways on a narrow screen: focusable, so the keyboard can scroll it too */}
      <div role="region" aria-label={t('historyImport.firstRows')} tabIndex={0} className={styles.scroll}>
        <table className={`${table.table} ${styles.nowrap}`}>
          <thead>
            <tr>
              <th scope="col">{t('historyImport.col.row')}</th>
              {header.map((name, c) => (
                <th key={`${c}:${name}`} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((cells, r) => (
              <tr key={first + r}>
                <td className={styles.muted}>{first + r}</td>
                {header.map((name, c) => (
                  <td key={`${c}:${name}`}>{cells[c] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </DataState>
  );
}
