import { type ReactNode, useId } from 'react';
import styles from './form-list.module.css';

/**
 * A dialog's list of rows edited together (an escalation rule's steps, a checklist's items): a
 * fieldset named by its legend, with a hint under it that describes the rows.
 */
export function FormList({ legend, hint, children }: { legend: string; hint: ReactNode; children: ReactNode }) {
  const hintId = useId();
  return (
    <fieldset className={styles.fieldset} aria-describedby={hintId}>
      <legend>{legend}</legend>
      <p id={hintId} className={styles.hint}>
        {hint}
      </p>
      {children}
    </fieldset>
  );
}
