/**
 * Gives the focus back when a dialog closes (WCAG 2.4.3). Arco's Modal and Drawer lock the focus
 * inside while open (react-focus-lock) but leave it on <body> when they close, so a keyboard user
 * starts again from the top of the page. For every dialog the focus enters, the element that had
 * the focus before is remembered; when the dialog is gone or hidden and the focus is nowhere (on
 * <body>, or still inside the hidden dialog), it returns there. Works for every dialog of every
 * screen, nested ones included (a dialog opened from a drawer returns to the drawer).
 */

const DIALOG = '[role="dialog"], [role="alertdialog"]';

function shown(element: Element): boolean {
  return element.isConnected && element.getClientRects().length > 0;
}

let installed: (() => void) | null = null;

export function installDialogFocusReturn(): () => void {
  if (installed) {
    return installed;
  }
  const returnTo = new Map<Element, HTMLElement>();
  let last: HTMLElement | null = null;

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target as HTMLElement;
    const dialog = target.closest?.(DIALOG);
    if (dialog && !returnTo.has(dialog) && last && !dialog.contains(last)) {
      returnTo.set(dialog, last);
    }
    last = target;
  };

  const check = () => {
    for (const [dialog, back] of returnTo) {
      if (shown(dialog)) {
        continue;
      }
      returnTo.delete(dialog);
      const active = document.activeElement;
      const lost = !active || active === document.body || dialog.contains(active);
      if (lost && back.isConnected && shown(back)) {
        back.focus();
      }
    }
  };

  const observer = new MutationObserver(() => {
    if (returnTo.size > 0) {
      // After the closing animation's last style change has been laid out.
      requestAnimationFrame(check);
    }
  });
  document.addEventListener('focusin', onFocusIn);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'class'] });
  installed = () => {
    document.removeEventListener('focusin', onFocusIn);
    observer.disconnect();
    installed = null;
  };
  return installed;
}
