import { installDialogFocusReturn } from './dialog-focus';

// jsdom lays nothing out: an element counts as drawn unless it (or a parent) is hidden.
function stubLayout() {
  vi.spyOn(Element.prototype, 'getClientRects').mockImplementation(function (this: Element) {
    const drawn = this.isConnected && !this.closest('[hidden]');
    return (drawn ? [new DOMRect(0, 0, 10, 10)] : []) as unknown as DOMRectList;
  });
}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

describe('the focus after a dialog closes', () => {
  let uninstall: () => void;
  beforeEach(() => {
    stubLayout();
    uninstall = installDialogFocusReturn();
    document.body.innerHTML = `
      <ul id="list"><li><button aria-label="Details of alarm 7">Details</button></li></ul>
      <div role="dialog" id="drawer"><button>Close</button></div>`;
  });
  afterEach(() => {
    uninstall();
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  /** Opens the dialog from the row's button and closes it; redrawn: the row a live refresh draws meanwhile. */
  async function openAndClose(redrawn?: string) {
    const opener = document.querySelector<HTMLButtonElement>('#list button')!;
    opener.focus();
    document.querySelector<HTMLButtonElement>('#drawer button')!.focus();
    if (redrawn) {
      document.getElementById('list')!.innerHTML = `<li><button aria-label="${redrawn}">Details</button></li>`;
    }
    // closed as Arco closes it: hidden, with a class change the page's observer sees
    const drawer = document.getElementById('drawer')!;
    drawer.hidden = true;
    drawer.className = 'closed';
    (document.activeElement as HTMLElement | null)?.blur();
    await frame();
    await frame();
  }

  it('returns to the element that opened it', async () => {
    await openAndClose();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Details of alarm 7');
  });

  it('returns to the element drawn in its place when the list was drawn again meanwhile', async () => {
    await openAndClose('Details of alarm 7');
    expect(document.activeElement).toBe(document.querySelector('#list button'));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Details of alarm 7');
  });

  it('leaves the focus alone when nothing of that name is there any more', async () => {
    await openAndClose('Details of alarm 8');
    expect(document.activeElement).toBe(document.body);
  });
});
