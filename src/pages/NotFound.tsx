import { PageMeta } from '@/components/PageMeta';
import { Link } from 'react-router-dom';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';

/** Every path outside spec §2's routes: a heading, a sentence, a link home. */
export function NotFound() {
  return (
    <div className={section}>
      <PageMeta route="/404" />
      <div className={`${container} ${prose}`}>
        <h1 className={pageTitle}>Page not found</h1>
        <p className={lede}>There is no page at this address. It may have moved, or the link may be mistyped.</p>
        <Link to="/">Go to the home page</Link>
      </div>
    </div>
  );
}
