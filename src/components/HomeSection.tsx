import type { ReactNode } from 'react';
import { container, lede, section, sectionAlt, sectionTitle } from '@/styles/layout.css';

/**
 * A section of the home page below the hero (spec §2): labelled by its level-2 heading, then its lede
 * if it has one, then its content, in the page's centred column.
 * @param id - the section's anchor (`#pricing`), if links lead to it
 * @param titleId - the heading's id, unique on the page
 * @param alt - on the alternate background, so that neighbouring sections stand apart
 */
export function HomeSection(props: { id?: string; titleId: string; alt?: boolean; title: ReactNode; intro?: ReactNode; children: ReactNode }) {
  return (
    <section id={props.id} className={props.alt ? sectionAlt : section} aria-labelledby={props.titleId}>
      <div className={container}>
        <h2 id={props.titleId} className={sectionTitle}>
          {props.title}
        </h2>
        {props.intro !== undefined && <p className={lede}>{props.intro}</p>}
        {props.children}
      </div>
    </section>
  );
}
