import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import '@arco-design/web-react/es/Input/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { notifyInfo, notifySuccess } from '@/lib/notify';
import { COMMENT_REQUIRED, useMoveWorkOrder, type WorkOrderAction } from './api/work-orders';

const MAX_COMMENT = 1000;

/** Confirms a transition with its comment (required to reject and to finish). */
export function ActionDialog({
  order,
  action,
  onClose,
}: {
  order: { id: number; number: string };
  action: WorkOrderAction | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const move = useMoveWorkOrder(order);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState('');
  const required = action !== null && COMMENT_REQUIRED.includes(action);
  const close = () => {
    setComment('');
    setProblem('');
    onClose();
  };
  const submit = async () => {
    if (!action) {
      return;
    }
    if (required && comment.trim() === '') {
      setProblem(t('ops.wo.commentRequired'));
      return;
    }
    try {
      const answer = await move.mutateAsync({ action, comment: comment.trim() });
      if (answer === 'queued') {
        notifyInfo(t('ops.queue.queued'));
      } else {
        notifySuccess(t(`ops.wo.done.${action}`));
      }
      close();
    } catch (error) {
      if (error instanceof ApiError && error.fields.comment) {
        setProblem(error.fields.comment);
      }
    }
  };
  const label = required ? t('ops.wo.commentRequiredLabel') : t('ops.wo.commentOptional');
  return (
    <Modal
      title={action ? t(`ops.wo.action.${action}`) : ''}
      visible={action !== null}
      onOk={() => void submit()}
      onCancel={close}
      okText={action ? t(`ops.wo.action.${action}`) : ''}
      cancelText={t('common.cancel')}
      confirmLoading={move.isPending}
      unmountOnExit
      autoFocus
      focusLock
    >
      <label htmlFor="wo-action-comment">{label}</label>
      <Input.TextArea
        id="wo-action-comment"
        aria-label={label}
        aria-invalid={problem !== '' || undefined}
        value={comment}
        onChange={(value) => {
          setComment(value);
          setProblem('');
        }}
        maxLength={{ length: MAX_COMMENT, errorOnly: true }}
        showWordLimit
        autoSize={{ minRows: 3, maxRows: 6 }}
        style={{ marginTop: 8 }}
      />
      {problem && (
        <p role="alert" style={{ color: 'rgb(var(--danger-6))', margin: '8px 0 0' }}>
          {problem}
        </p>
      )}
    </Modal>
  );
}
