import { type CSSProperties, type ReactNode, useId } from 'react';
import styles from './panel.module.css';

interface PanelProps {
  title: ReactNode;
  /** Controls beside the title (period tabs, pickers, links). */
  extra?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyStyle?: CSSProperties;
}

/** A titled block of a screen: a region named by its heading. */
export function Panel({ title, extra, children, className, bodyStyle }: PanelProps) {
  const id = useId();
  return (
    <section className={`${styles.panel} ${className ?? ''}`} aria-labelledby={id}>
      <div className={styles.head}>
        <h2 id={id} className={styles.title}>
          {title}
        </h2>
        {extra && <div className={styles.extra}>{extra}</div>}
      </div>
      <div className={styles.body} style={bodyStyle}>
        {children}
      </div>
    </section>
  );
}

/** The heading row of a screen: its title (h1) and actions. */
export function PageHeader({ title, extra }: { title: ReactNode; extra?: ReactNode }) {
  return (
    <div className={styles.pageHead}>
      <h1 className={styles.pageTitle}>{title}</h1>
      {extra && <div className={styles.extra}>{extra}</div>}
    </div>
  );
}
