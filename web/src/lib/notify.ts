import Message from '@arco-design/web-react/es/Message';
import '@arco-design/web-react/es/Message/style/css.js';

/** How long an error message stays on screen (SPEC.md section 9). */
export const MESSAGE_DURATION_MS = 5000;

/** Shows an error toast; the same text shown twice in a row updates one toast instead of stacking. */
export function notifyError(content: string): void {
  Message.error({ id: `error:${content}`, content, duration: MESSAGE_DURATION_MS });
}

export function notifySuccess(content: string): void {
  Message.success({ id: `success:${content}`, content, duration: 3000 });
}

export function notifyInfo(content: string): void {
  Message.info({ id: `info:${content}`, content, duration: 3000 });
}
