import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import { IconDelete, IconImage, IconUpload } from '@arco-design/web-react/icon';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '@/lib/notify';
import { uploadCover } from './api/stations';
import { CoverError, prepareCover } from './cover-image';
import { coverUrl } from './station-list-views';
import styles from './station.module.css';

interface CoverUploadProps {
  value?: string;
  onChange?: (value: string) => void;
}

/**
 * The station cover: a chosen picture is checked (JPEG, PNG or WebP, at most 10 MB), cropped to
 * 4:3 in the browser and uploaded; the answer's address becomes the form's coverImage.
 */
export function CoverUpload({ value, onChange }: CoverUploadProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  const choose = async (file: File | undefined) => {
    if (!file) {
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      const image = await prepareCover(file);
      const { url } = await uploadCover(image);
      onChange?.(url);
      notifySuccess(t('station.cover.uploaded'));
    } catch (error) {
      if (error instanceof CoverError) {
        const message = t(`station.cover.error.${error.problem}`);
        setProblem(message);
        notifyError(message);
      }
    } finally {
      setBusy(false);
      if (input.current) {
        input.current.value = '';
      }
    }
  };

  return (
    <div className={styles.coverEditor}>
      <div className={styles.coverPreview}>
        {value ? (
          <img src={coverUrl(value)} alt={t('station.cover')} />
        ) : (
          <span className={styles.coverPlaceholder}>
            <IconImage aria-hidden />
          </span>
        )}
      </div>
      <div>
        <input
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          hidden
          aria-label={t('station.cover.choose')}
          aria-describedby={hintId}
          onChange={(event) => void choose(event.target.files?.[0])}
          data-testid="cover-input"
        />
        <Button icon={<IconUpload />} loading={busy} onClick={() => input.current?.click()}>
          {t('station.cover.choose')}
        </Button>
        {value && (
          <Button icon={<IconDelete />} style={{ marginLeft: 8 }} onClick={() => onChange?.('')}>
            {t('station.cover.remove')}
          </Button>
        )}
        <p id={hintId} className={styles.hint}>
          {t('station.cover.hint')}
        </p>
        {problem && (
          <p role="alert" className={styles.hint} style={{ color: 'rgb(var(--danger-6))' }}>
            {problem}
          </p>
        )}
      </div>
    </div>
  );
}
