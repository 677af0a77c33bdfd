import { type TableHTMLAttributes, useLayoutEffect, useRef } from 'react';
import styles from './plain-table.module.css';

/** Each body cell carries its column's heading, which a phone shows beside the value. */
function labelCells(table: HTMLTableElement): void {
  const headings = Array.from(table.tHead?.rows[0]?.cells ?? []).map((cell) => cell.textContent?.trim() ?? '');
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) {
      Array.from(row.cells).forEach((cell, index) => {
        const heading = cell.colSpan === 1 ? headings[index] : undefined;
        if (heading) {
          cell.setAttribute('data-label', heading);
        } else {
          cell.removeAttribute('data-label');
        }
      });
    }
  }
}

/**
 * A plain, accessible data table for short lists (rankings, latest alarms, plans). On a phone
 * each row is a block of its own, a cell per line beside its column's heading, so that nothing
 * scrolls sideways. className replaces the plain look (the phone layout stays).
 */
export function PlainTable({ className, children, ...rest }: TableHTMLAttributes<HTMLTableElement>) {
  const ref = useRef<HTMLTableElement>(null);
  // after every render: the rows are the caller's children
  useLayoutEffect(() => {
    if (ref.current) {
      labelCells(ref.current);
    }
  });
  return (
    <table ref={ref} className={`${className ?? styles.table} ${styles.stacked}`} {...rest}>
      {children}
    </table>
  );
}
