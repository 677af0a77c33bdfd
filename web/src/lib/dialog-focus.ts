/**
 * Gives the focus back when a dialog closes (WCAG 2.4.3). Arco's Modal and Drawer lock the focus
 * inside while open (react-focus-lock) but leave it on <body> when they close, so a keyboard user
 * starts again from the top of the page. For every dialog the focus enters, the element that had
 * the focus before is remembered; when the dialog is gone or hidden and the focus is nowhere (on
 * <body>, or still inside the hidden dialog), it returns there. Works for every dialog of every
 * screen, nested ones included (a dialog opened from a drawer returns to the drawer). When that
 * element was drawn again meanwhile (a live list refreshed its rows under the dialog), the focus
 * goes to the element drawn in its place: the same kind with the same accessible name.
 */

const DIALOG = '[role="dialog"], [role="alertdialog"]';

function shown(element: Element): boolean {
  return element.isConnected && element.getClientRects().length > 0;
}

/** An element's accessible name as far as it is written in the page (label, else its text). */
function nameOf(element: Element): string {
  return (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
}

/** back itself, or what was drawn in its place: the same tag and name, shown, outside any dialog. */
function stillThere(back: HTMLElement): HTMLElement | null {
  if (back.isConnected) {
    return shown(back) ? back : null;
  }
  const name = nameOf(back);
  if (name === '') {
    return null;
  }
  const again = Array.from(document.querySelectorAll<HTMLElement>(back.tagName)).find(
    (element) => nameOf(element) === name && shown(element) && !element.closest(DIALOG),
  );
  return again ?? null;
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
      const target = lost ? stillThere(back) : null;
      if (target) {
        target.focus();
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
