import Button from '@arco-design/web-react/es/Button';
import '@arco-design/web-react/es/Button/style/css.js';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import '@arco-design/web-react/es/InputNumber/style/css.js';
import Message from '@arco-design/web-react/es/Message';
import '@arco-design/web-react/es/Message/style/css.js';
import Modal from '@arco-design/web-react/es/Modal';
import '@arco-design/web-react/es/Modal/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { type LiveRegister, useWriteRegister } from './api/scada';
import styles from './debug.module.css';
import { formatValue } from './format';

/**
 * Writes one register: the value first, then an explicit confirmation naming the register, its
 * address and the value; the server records the write in the system log.
 */
export function WriteDialog({ deviceId, register, onClose }: { deviceId: number; register: LiveRegister; onClose: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState<number | undefined>(register.value ?? undefined);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const write = useWriteRegister();

  const submit = () => {
    if (value === undefined) {
      return;
    }
    write.mutate(
      { deviceId, register: register.name, value },
      {
        onSuccess: () => {
          Message.success(t('debug.written', { name: register.name }));
          onClose();
        },
        onError: (e) => {
          setConfirming(false);
          setError(e instanceof ApiError ? Object.values(e.fields)[0] ?? e.msg : String(e));
        },
      },
    );
  };

  return (
    <Modal
      visible
      title={t('debug.writeTitle', { name: register.name })}
      onCancel={onClose}
      footer={
        confirming ? (
          <>
            <Button onClick={() => setConfirming(false)}>{t('debug.back')}</Button>
            <Button type="primary" status="danger" loading={write.isPending} onClick={submit}>
              {t('debug.confirmWrite')}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={onClose}>{t('debug.cancel')}</Button>
            <Button type="primary" disabled={value === undefined} onClick={() => setConfirming(true)}>
              {t('debug.write')}
            </Button>
          </>
        )
      }
    >
      <p>{t('debug.current', { value: formatValue(register) })}</p>
      <label className={styles.field}>
        <span>{t('debug.newValue', { unit: register.unit || '—' })}</span>
        <InputNumber
          aria-label={t('debug.newValue', { unit: register.unit || '—' })}
          value={value}
          onChange={(v) => {
            setValue(v ?? undefined);
            setError(undefined);
          }}
          disabled={confirming}
        />
      </label>
      {confirming && (
        <p className={styles.warning} role="alert">
          {t('debug.confirmText', { name: register.name, address: register.address, value, unit: register.unit })}
        </p>
      )}
      {error && (
        <p className={styles.warning} role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
