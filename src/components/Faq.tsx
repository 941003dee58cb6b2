import { complianceNote, faq } from '@/content/home';
import { container, sectionAlt, sectionTitle } from '@/styles/layout.css';
import * as styles from './Faq.css';

/** Home section 4, `#faq` (spec §2): questions and answers, then the 'Compliance & trust (beta)' note. */
export function Faq() {
  return (
    <section id="faq" className={sectionAlt} aria-labelledby="faq-title">
      <div className={container}>
        <h2 id="faq-title" className={sectionTitle}>
          Frequently asked questions
        </h2>
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
      </div>
    </section>
  );
}
