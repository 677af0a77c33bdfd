import Avatar from '@arco-design/web-react/es/Avatar';
import Button from '@arco-design/web-react/es/Button';
import Modal from '@arco-design/web-react/es/Modal';
import Slider from '@arco-design/web-react/es/Slider';
import '@arco-design/web-react/es/Avatar/style/css.js';
import '@arco-design/web-react/es/Button/style/css.js';
import '@arco-design/web-react/es/Modal/style/css.js';
import '@arco-design/web-react/es/Slider/style/css.js';
import { IconCamera } from '@arco-design/web-react/icon';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@/lib/auth';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useUploadAvatar } from './api/account';
import { AVATAR_SIDE, avatarProblem, type Crop, cropSquare } from './avatar-crop';
import styles from './user-settings-page.module.css';

const PREVIEW = 240;

/** Crops the chosen PNG to a square (zoom and position) and uploads it as the avatar. */
function CropDialog({ image, onClose }: { image: HTMLImageElement; onClose: () => void }) {
  const { t } = useTranslation();
  // The dialog mounts its body after opening: draw once the canvas is there, and on each change.
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 0.5, y: 0.5 });
  const upload = useUploadAvatar();

  const draw = (target: HTMLCanvasElement, side: number) => {
    const ctx = target.getContext('2d');
    if (!ctx) {
      return;
    }
    const { sx, sy, side: from } = cropSquare(image.naturalWidth, image.naturalHeight, crop);
    ctx.clearRect(0, 0, side, side);
    ctx.drawImage(image, sx, sy, from, from, 0, 0, side, side);
  };

  useEffect(() => {
    if (canvas) {
      draw(canvas, PREVIEW);
    }
  });

  const save = async () => {
    const out = document.createElement('canvas');
    out.width = out.height = Math.min(AVATAR_SIDE, Math.round(Math.min(image.naturalWidth, image.naturalHeight) / crop.zoom));
    draw(out, out.width);
    try {
      await upload.mutateAsync(out.toDataURL('image/png'));
      notifySuccess(t('account.avatar.saved'));
      onClose();
    } catch {
      // the request layer said why
    }
  };

  const slider = (key: keyof Crop, min: number, max: number, step: number) => (
    <label className={styles.sliderRow}>
      <span>{t(`account.avatar.${key}`)}</span>
      <Slider
        min={min}
        max={max}
        step={step}
        value={crop[key]}
        onChange={(value) => setCrop((c) => ({ ...c, [key]: Number(value) }))}
        aria-label={t(`account.avatar.${key}`)}
        className={styles.slider}
      />
    </label>
  );
  return (
    <Modal
      visible
      title={t('account.avatar.crop')}
      okText={t('account.save')}
      cancelText={t('account.cancel')}
      confirmLoading={upload.isPending}
      onOk={() => void save()}
      onCancel={onClose}
      unmountOnExit
      focusLock
    >
      <div className={styles.crop}>
        <canvas ref={setCanvas} width={PREVIEW} height={PREVIEW} className={styles.cropCanvas} aria-label={t('account.avatar.preview')} />
        <div className={styles.cropControls}>
          {slider('zoom', 1, 4, 0.05)}
          {slider('x', 0, 1, 0.01)}
          {slider('y', 0, 1, 0.01)}
        </div>
      </div>
    </Modal>
  );
}

/** The avatar with a change button: PNG up to 2 MB, cropped before upload. */
export function AvatarUpload({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);

  const choose = (file: File | undefined) => {
    if (!file) {
      return;
    }
    const problem = avatarProblem(file);
    if (problem) {
      notifyError(t(`account.avatar.${problem}`));
      return;
    }
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => setImage(img);
    img.onerror = () => notifyError(t('account.avatar.type'));
    img.src = url;
  };

  return (
    <div className={styles.avatar}>
      <Avatar size={72}>
        {user.avatar ? <img src={user.avatar} alt={t('account.avatar.label')} /> : (user.name || user.username).slice(0, 1)}
      </Avatar>
      <Button size="mini" icon={<IconCamera />} onClick={() => input.current?.click()}>
        {t('account.avatar.change')}
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/png"
        hidden
        aria-label={t('account.avatar.change')}
        onChange={(event) => {
          choose(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      {image && (
        <CropDialog
          image={image}
          onClose={() => {
            URL.revokeObjectURL(image.src);
            setImage(null);
          }}
        />
      )}
    </div>
  );
}
