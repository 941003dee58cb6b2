import type { ReactNode } from 'react';
import { PageMeta } from './PageMeta';
import { Link } from 'react-router-dom';
import type { LegalSection } from '@/content/types';
import { container, pageTitle, prose, section } from '@/styles/layout.css';
import * as styles from './LegalPage.css';

/**
 * A long legal page (privacy policy, terms): title, date, numbered table of contents and numbered sections.
 * Section anchors are `#<section id>`; the table of contents links to them.
 */
export function LegalPage(props: { route: '/privacy' | '/terms'; title: string; updated: string; sections: readonly LegalSection[]; intro?: ReactNode }) {
  return (
    <div className={section}>
      <PageMeta route={props.route} />
      <div className={`${container} ${prose}`}>
        <h1 className={pageTitle}>{props.title}</h1>
        <p className={styles.updated}>
          Last updated <time dateTime={props.updated}>{props.updated}</time>
        </p>
        {props.intro}
        <nav aria-label="Sections">
          <ol className={styles.toc}>
            {props.sections.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        {props.sections.map((s, index) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`}>
            <h2 id={`${s.id}-title`} className={styles.sectionTitle}>
              {index + 1}. {s.title}
            </h2>
            {s.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
            {s.bullets && (
              <ul>
                {s.bullets.map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
            )}
            {s.link && (
              <p>
                <Link to={s.link.to}>{s.link.label}</Link>
              </p>
            )}
          </section>
        ))}
      </div>
    </div>
  );
}
