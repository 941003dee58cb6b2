import type { ReactNode } from 'react';
import * as styles from './Request.css';

/**
 * One block of a request's page (its facts, timeline, decisions, note box): a section labelled by its
 * level-2 heading.
 * @param id - the heading's id, unique on the page
 */
export function RequestBlock({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className={styles.block} aria-labelledby={id}>
      <h2 id={id} className={styles.heading}>
        {title}
      </h2>
      {children}
    </section>
  );
}
