import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Input/style/css.js';
import Select from '@arco-design/web-react/es/Select';
import { IconAttachment, IconDownload } from '@arco-design/web-react/icon';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledSelect, Option } from '@/components/select';
import { ZonedTime } from '@/components/zoned-time';

import { notifyError, notifyInfo, notifySuccess } from '@/lib/notify';
import {
  downloadAttachment,
  useAssignWorkOrder,
  useAttachToWorkOrder,
  useCommentWorkOrder,
  usePeople,
  type WorkOrderDetail,
} from './api/work-orders';
import styles from './operations.module.css';

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const FILE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'];

/** Why a file cannot be attached (a text key), or null. The server judges the content again. */
export function fileProblem(file: { size: number; type: string }): string | null {
  if (!FILE_TYPES.includes(file.type)) {
    return 'ops.wo.file.type';
  }
  if (file.size > MAX_FILE_BYTES) {
    return 'ops.wo.file.tooLarge';
  }
  return null;
}

/** The longest side a photo is sent at: a phone's 12-megapixel photo becomes a few hundred kB. */
export const PHOTO_MAX_SIDE = 1600;

/**
 * A file as a data URL; a large photo (JPEG, PNG or WebP) is first resized on the phone to
 * PHOTO_MAX_SIDE and sent as JPEG, so that a queue of photos fits the phone's storage and a
 * slow link.
 */
async function photoData(file: File): Promise<string> {
  const url = await readAsDataURL(file);
  if (!file.type.startsWith('image/') || typeof document === 'undefined') return url;
  const img = new Image();
  const loaded = new Promise<boolean>((resolve) => {
    img.onload = () => resolve(true);
    img.onerror = () => resolve(false);
  });
  img.src = url;
  if (!(await loaded)) return url;
  const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(img.naturalWidth, img.naturalHeight));
  if (scale >= 1) return url;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(img.naturalWidth * scale);
  canvas.height = Math.round(img.naturalHeight * scale);
  canvas.getContext('2d')?.drawImage(img, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/jpeg', 0.85);
}

function readAsDataURL(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The order's files: download each, attach photos or PDFs. */
export function Attachments({ order }: { order: WorkOrderDetail }) {
  const { t } = useTranslation();
  const attach = useAttachToWorkOrder(order);
  const input = useRef<HTMLInputElement>(null);
  const pick = async (file: File | undefined) => {
    if (!file) {
      return;
    }
    const problem = fileProblem(file);
    if (problem) {
      notifyError(t(problem));
      return;
    }
    try {
      const answer = await attach.mutateAsync({ name: file.name, data: await photoData(file) });
      if (answer === 'queued') {
        notifyInfo(t('ops.queue.queued'));
      } else {
        notifySuccess(t('ops.wo.file.attached', { name: file.name }));
      }
    } catch {
      // the request layer already said why
    } finally {
      if (input.current) {
        input.current.value = '';
      }
    }
  };
  return (
    <>
      <h3 className={styles.subTitle}>{t('ops.wo.attachments')}</h3>
      {order.attachments.length === 0 ? (
        <p className={styles.muted}>{t('ops.wo.noAttachments')}</p>
      ) : (
        <ul className={styles.files} aria-label={t('ops.wo.attachments')}>
          {order.attachments.map((file) => (
            <li key={file.id}>
              <Button
                type="text"
                size="mini"
                icon={<IconDownload />}
                onClick={() => void downloadAttachment(order.id, file).catch(() => undefined)}
              >
                {file.name}
              </Button>
              <span className={styles.muted}>
                {' '}
                {Math.ceil(file.size / 1024)} KB · {file.userName}
              </span>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={input}
        type="file"
        accept={FILE_TYPES.join(',')}
        hidden
        aria-label={t('ops.wo.file.choose')}
        onChange={(event) => void pick(event.target.files?.[0])}
      />
      <Button size="small" icon={<IconAttachment />} loading={attach.isPending} onClick={() => input.current?.click()}>
        {t('ops.wo.file.add')}
      </Button>
      <span className={styles.muted}> {t('ops.wo.file.limits')}</span>
    </>
  );
}

/** Comments: read them, add one. */
export function Comments({ order }: { order: WorkOrderDetail }) {
  const { t } = useTranslation();
  const send = useCommentWorkOrder(order);
  const [body, setBody] = useState('');
  const submit = async () => {
    if (body.trim() === '') {
      return;
    }
    try {
      const answer = await send.mutateAsync({ body: body.trim() });
      setBody('');
      if (answer === 'queued') notifyInfo(t('ops.queue.queued'));
    } catch {
      // the request layer already said why
    }
  };
  return (
    <>
      <h3 className={styles.subTitle}>{t('ops.wo.comments')}</h3>
      {order.comments.length > 0 && (
        <ol className={styles.timeline} aria-label={t('ops.wo.comments')}>
          {order.comments.map((c) => (
            <li key={c.id}>
              <div className={styles.meta}>
                <ZonedTime value={c.time} timeZone={order.timezone} />
                <span>{c.userName}</span>
              </div>
              <p className={styles.body}>{c.body}</p>
            </li>
          ))}
        </ol>
      )}
      <div className={styles.row} style={{ marginTop: 8 }}>
        <Input.TextArea
          aria-label={t('ops.wo.commentAdd')}
          placeholder={t('ops.wo.commentAdd')}
          value={body}
          onChange={setBody}
          maxLength={1000}
          autoSize={{ minRows: 1, maxRows: 4 }}
        />
        <Button onClick={() => void submit()} loading={send.isPending} disabled={body.trim() === ''}>
          {t('ops.wo.send')}
        </Button>
      </div>
    </>
  );
}

/** Gives an open order to a user or a department (administrator or submitter). */
export function Assign({ order }: { order: WorkOrderDetail }) {
  const { t } = useTranslation();
  const people = usePeople();
  const assign = useAssignWorkOrder(order.id);
  const [choice, setChoice] = useState<string | undefined>();
  const submit = async () => {
    if (!choice) {
      return;
    }
    const [kind, id] = choice.split(':');
    try {
      await assign.mutateAsync(kind === 'u' ? { assigneeUserId: Number(id) } : { assigneeDeptId: Number(id) });
      notifySuccess(t('ops.wo.assigned'));
      setChoice(undefined);
    } catch {
      // the request layer already said why
    }
  };
  return (
    <div className={styles.row} style={{ marginTop: 8 }}>
      <LabelledSelect
        label={t('ops.wo.assignTo')}
        placeholder={t('ops.wo.assignTo')}
        style={{ width: 260 }}
        showSearch
        value={choice}
        onChange={setChoice}
        loading={people.isPending}
      >
        <Select.OptGroup label={t('ops.wo.users')}>
          {(people.data?.users ?? []).map((u) => (
            <Option key={`u${u.id}`} value={`u:${u.id}`}>
              {u.name}
            </Option>
          ))}
        </Select.OptGroup>
        <Select.OptGroup label={t('ops.wo.depts')}>
          {(people.data?.depts ?? []).map((d) => (
            <Option key={`d${d.id}`} value={`d:${d.id}`}>
              {d.name}
            </Option>
          ))}
        </Select.OptGroup>
      </LabelledSelect>
      <Button onClick={() => void submit()} loading={assign.isPending} disabled={!choice}>
        {t('ops.wo.assign')}
      </Button>
    </div>
  );
}
