import { complianceNote, faq } from '@/content/home';
import { HomeSection } from './HomeSection';
import * as styles from './Faq.css';

/** Home section 4, `#faq` (spec §2): questions and answers, then the 'Compliance & trust (beta)' note. */
export function Faq() {
  return (
    <HomeSection id="faq" titleId="faq-title" alt title="Frequently asked questions">
      <div className={styles.list}>
        {faq.map((item) => (
          <div key={item.question}>
            <h3 className={styles.question}>{item.question}</h3>
            <p className={styles.answer}>{item.answer}</p>
          </div>
        ))}
      </div>
      <aside className={styles.note} aria-labelledby="compliance-title">
        <h3 id="compliance-title" className={styles.noteTitle}>
          {complianceNote.title}
        </h3>
        <p className={styles.answer}>{complianceNote.body}</p>
      </aside>
    </HomeSection>
  );
}
