import { i18n } from './i18n';

let open = false;

/**
 * The blocking "Confirm logout" dialog for a session ended elsewhere (code 50012). Cancel keeps
 * the page; Re-Login runs onRelogin (sign out and reload). Only one dialog is shown at a time,
 * however many requests fail together. The dialog's code loads on first use.
 */
export function confirmLogout(onRelogin: () => void | Promise<void>): Promise<void> {
  if (open) {
    return Promise.resolve();
  }
  open = true;
  return Promise.all([
    import('@arco-design/web-react/es/Modal'),
    import('@arco-design/web-react/es/Modal/style/css.js'),
  ]).then(
    ([{ default: Modal }]) => {
      Modal.confirm({
        title: i18n.t('request.sessionEnded.title'),
        content: i18n.t('request.sessionEnded.content'),
        okText: i18n.t('request.sessionEnded.relogin'),
        cancelText: i18n.t('common.cancel'),
        maskClosable: false,
        escToExit: false,
        closable: false,
        onOk: async () => {
          await onRelogin();
        },
        afterClose: () => {
          open = false;
        },
      });
    },
    () => {
      open = false;
    },
  );
}
