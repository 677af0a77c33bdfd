import type { Page } from 'playwright-core';

// Checks that text fits as a reader expects, run in the page: no word is split across two lines,
// and nothing (a badge, a tag) sticks out of its table cell. Shared by the layout spec and anyone
// who wants to judge one screen.

/**
 * The words drawn on two or more lines, as "Storag|e (in: Storage capacity)". A word is a
 * word-like segment of Intl.Segmenter; one in Chinese, Japanese or Korean script may break
 * between its characters, as those languages do. A run longer than 24 characters (a token, a
 * hash, an address) may break too: it could not fit a column anyway.
 */
export async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
    const LONGEST = 24;
    const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
    const range = document.createRange();
    /** The distinct lines a range is drawn on, by the vertical centre of its boxes. */
    const lines = (rects: DOMRect[]) => {
      const centres: number[] = [];
      for (const rect of rects) {
        const centre = rect.top + rect.height / 2;
        if (!centres.some((seen) => Math.abs(seen - centre) < rect.height / 2)) {
          centres.push(centre);
        }
      }
      return centres.length;
    };
    const drawn = (start: Node, from: number, to: number) => {
      range.setStart(start, from);
      range.setEnd(start, to);
      return Array.from(range.getClientRects()).filter((rect) => rect.width > 0 && rect.height > 0);
    };
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const parent = node.parentElement;
      if (text.trim().length < 2 || !parent || parent.closest('script, style, textarea, svg')) {
        continue;
      }
      if (!parent.checkVisibility({ visibilityProperty: true }) || lines(drawn(node, 0, text.length)) < 2) {
        continue;
      }
      for (const { segment, index, isWordLike } of segmenter.segment(text)) {
        const length = Array.from(segment).length;
        if (!isWordLike || length < 2 || length > LONGEST || CJK.test(segment)) {
          continue;
        }
        if (lines(drawn(node, index, index + segment.length)) > 1) {
          // the first prefix drawn on two lines ends with the first character of the new line
          let cut = 1;
          while (cut < segment.length && lines(drawn(node, index, index + cut + 1)) < 2) {
            cut += 1;
          }
          const where = text.trim().replace(/\s+/g, ' ').slice(0, 60);
          found.add(`${segment.slice(0, cut)}|${segment.slice(cut)} (in: ${where})`);
        }
      }
    }
    return Array.from(found);
  });
}

/**
 * What sticks out of a table cell: a tag, a badge or any other box drawn past the cell's sides
 * (the status "Pending acceptance" running into the priority column). A box clipped by a
 * wrapper inside the cell (an ellipsis) is not drawn past it and does not count.
 */
export async function outOfCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>();
    const clipped = (el: Element, cell: Element) => {
      for (let up = el.parentElement; up && up !== cell; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible') {
          return true;
        }
      }
      return false;
    };
    for (const cell of Array.from(document.querySelectorAll('td'))) {
      const outer = cell.getBoundingClientRect();
      if (outer.width === 0 || !cell.checkVisibility()) {
        continue;
      }
      for (const el of Array.from(cell.querySelectorAll('*'))) {
        const inner = el.getBoundingClientRect();
        if (inner.width === 0 || (inner.left >= outer.left - 1 && inner.right <= outer.right + 1) || clipped(el, cell)) {
          continue;
        }
        if (el.closest('td') === cell && (el as HTMLElement).checkVisibility?.()) {
          found.add(`"${el.textContent?.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}) ${Math.round(inner.width)} px wide in a ${Math.round(outer.width)} px cell`);
          break;
        }
      }
    }
    return Array.from(found);
  });
}
