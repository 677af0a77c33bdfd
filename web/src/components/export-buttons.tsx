import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconDownload } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';

export type ExportFormat = 'csv' | 'xlsx';

/** Export buttons: each downloads the list in its format with the filters in force. */
export function ExportButtons({ onExport }: { onExport: (format: ExportFormat) => Promise<string> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      const name = await onExport(format);
      notifySuccess(t('export.done', { name }));
    } catch {
      // the request layer already said why
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button key={format} icon={<IconDownload />} loading={busy === format} disabled={busy !== null} onClick={() => void run(format)}>
          {t(`export.${format}`)}
        </Button>
      ))}
    </>
  );
}
