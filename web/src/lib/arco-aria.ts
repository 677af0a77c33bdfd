/**
 * Repairs of the ARIA markup Arco Design components render, in one place for every screen
 * (docs/frontend.md, "Accessibility"). Arco 2.66 renders, among others:
 *
 * - a sub-menu header (inline, or pop-up when the menu is collapsed) with aria-expanded and
 *   aria-controls but no role, inside role="menu" (a menu may only own menu items and groups):
 *   the header becomes a menuitem (which may carry aria-expanded), an inline list a group;
 * - progress bars and rings (role="progressbar") without a name, the name given to the
 *   component landing on its role-less outer element, where aria-label is not allowed: the
 *   name moves to the progressbar;
 * - a Select's search input aria-hidden while the select is closed, but still in the tab order:
 *   it leaves the tab order while hidden (the combobox itself takes the focus);
 * - tabs (role="tab") whose container has no role: it becomes the tablist;
 * - tree items at aria-level="0" (levels start at 1);
 * - the page-size picker of a pagination: aria-label on a role-less div; it becomes a group;
 * - the search input of a multiple select without a name: it takes the combobox's;
 * - a searchable select traps Shift+Tab (see onShiftTab below);
 * - number inputs with aria-valuemin="-Infinity" / aria-valuemax="Infinity" when unbounded:
 *   the attribute goes (an unbounded spinbutton has none).
 *
 * A MutationObserver applies the repairs as components mount and re-render; every repair is
 * idempotent, and the observer drops the records of its own changes.
 */

type Repair = (element: Element) => void;

const PATCHED_TABINDEX = 'data-aria-patched-tabindex';
const PATCHED_LEVEL = 'data-aria-level';

/** Repairs keyed by the CSS selector of the elements they apply to. */
const REPAIRS: [string, Repair][] = [
  [
    '.arco-menu-inline-header[aria-expanded], .arco-menu-pop-header[aria-expanded]',
    (header) => {
      if (header.closest('[role="menu"]') && header.getAttribute('role') !== 'menuitem') {
        header.setAttribute('role', 'menuitem');
      }
    },
  ],
  [
    '.arco-menu-inline-content',
    (content) => {
      if (content.closest('[role="menu"]') && content.getAttribute('role') !== 'group') {
        content.setAttribute('role', 'group');
      }
    },
  ],
  [
    '.arco-progress[aria-label], .arco-progress[aria-labelledby]',
    (outer) => {
      const bar = outer.querySelector('[role="progressbar"]');
      if (!bar) {
        return;
      }
      for (const name of ['aria-label', 'aria-labelledby']) {
        const value = outer.getAttribute(name);
        if (value !== null) {
          bar.setAttribute(name, value);
          outer.removeAttribute(name);
        }
      }
    },
  ],
  [
    '[role="progressbar"]:not([aria-label]):not([aria-labelledby])',
    (bar) => {
      // A bar nobody named: the figure it shows names it.
      const text = bar.closest('.arco-progress')?.querySelector('.arco-progress-line-text, .arco-progress-circle-text');
      if (text?.textContent?.trim()) {
        bar.setAttribute('aria-label', text.textContent.trim());
      }
    },
  ],
  [
    'input[aria-hidden="true"], textarea[aria-hidden="true"]',
    (input) => {
      if (!input.hasAttribute('tabindex')) {
        input.setAttribute('tabindex', '-1');
        input.setAttribute(PATCHED_TABINDEX, '');
      }
    },
  ],
  [
    `[${PATCHED_TABINDEX}]`,
    (input) => {
      if (input.getAttribute('aria-hidden') !== 'true') {
        input.removeAttribute('tabindex');
        input.removeAttribute(PATCHED_TABINDEX);
      }
    },
  ],
  [
    '[role="tab"]',
    (tab) => {
      const parent = tab.parentElement;
      if (parent && !tab.closest('[role="tablist"]') && !parent.getAttribute('role')) {
        parent.setAttribute('role', 'tablist');
      }
    },
  ],
  [
    '.arco-pagination-option[aria-label]:not([role])',
    (option) => option.setAttribute('role', 'group'),
  ],
  [
    '[role="combobox"][aria-label] input, [role="combobox"][aria-labelledby] input',
    (input) => {
      const combobox = input.closest('[role="combobox"]');
      if (!combobox || (input as HTMLInputElement).labels?.length) {
        return;
      }
      for (const name of ['aria-label', 'aria-labelledby']) {
        const value = combobox.getAttribute(name);
        if (value !== null && input.getAttribute(name) !== value) {
          input.setAttribute(name, value);
        }
      }
    },
  ],
  [
    '[role="treeitem"][aria-level]',
    (item) => {
      // Arco counts from 0. data-aria-level holds the level written here, so a level seen again
      // is not raised twice; any other value is Arco's.
      const current = item.getAttribute('aria-level');
      if (current === item.getAttribute(PATCHED_LEVEL)) {
        return;
      }
      const level = Number(current);
      if (Number.isFinite(level)) {
        item.setAttribute('aria-level', String(level + 1));
        item.setAttribute(PATCHED_LEVEL, String(level + 1));
      }
    },
  ],
  [
    '[aria-valuemin], [aria-valuemax]',
    (input) => {
      for (const name of ['aria-valuemin', 'aria-valuemax']) {
        const value = input.getAttribute(name);
        if (value !== null && !Number.isFinite(Number(value))) {
          input.removeAttribute(name);
        }
      }
    },
  ],
];

const WATCHED = ['aria-expanded', 'aria-hidden', 'aria-level', 'aria-valuemin', 'aria-valuemax', 'aria-label', 'aria-labelledby'];

/** Applies every repair to root and the elements under it. */
export function repairAria(root: ParentNode & Node): void {
  for (const [selector, repair] of REPAIRS) {
    if (root instanceof Element && root.matches(selector)) {
      repair(root);
    }
    root.querySelectorAll(selector).forEach(repair);
  }
}

/**
 * Arco's searchable Select focuses its input whenever the combobox around it takes the focus, so
 * Shift+Tab from the input lands on the combobox and bounces back: a keyboard trap. While
 * Shift+Tab leaves such an input, the combobox steps out of the tab order, so the focus goes to
 * whatever comes before it.
 */
function onShiftTab(event: KeyboardEvent): void {
  if (event.key !== 'Tab' || !event.shiftKey || !(event.target instanceof HTMLInputElement)) {
    return;
  }
  const combobox = event.target.closest('[role="combobox"][tabindex="0"]');
  if (!combobox || combobox === event.target) {
    return;
  }
  combobox.setAttribute('tabindex', '-1');
  window.setTimeout(() => combobox.setAttribute('tabindex', '0'));
}

let observer: MutationObserver | null = null;

/** Starts repairing the document's Arco markup (once). Returns a function that stops it. */
export function installAriaRepairs(target: Element = document.body): () => void {
  if (observer) {
    return () => undefined;
  }
  const current = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'childList') {
        record.addedNodes.forEach((node) => {
          if (node instanceof Element) {
            repairAria(node);
          }
        });
      } else if (record.target instanceof Element) {
        repairAria(record.target);
      }
    }
    // The changes made above are ours: forget them instead of repairing them again.
    current.takeRecords();
  });
  repairAria(target);
  document.addEventListener('keydown', onShiftTab, true);
  current.observe(target, { subtree: true, childList: true, attributes: true, attributeFilter: WATCHED });
  observer = current;
  return () => {
    current.disconnect();
    document.removeEventListener('keydown', onShiftTab, true);
    observer = null;
  };
}
