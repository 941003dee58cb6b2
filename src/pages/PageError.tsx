import type { FallbackProps } from 'react-error-boundary';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '@/config/site';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';

/**
 * What a visitor sees instead of a blank screen when a page fails to render (issue #12): a heading, a
 * sentence, a way home. The header and footer stay; following any link clears it (src/app/Layout.tsx).
 */
export function PageError({ resetErrorBoundary }: FallbackProps) {
  return (
    <div className={section}>
      <title>{`Something went wrong — ${PRODUCT_NAME}`}</title>
      <meta name="robots" content="noindex" />
      <div className={`${container} ${prose}`}>
        <h1 className={pageTitle} tabIndex={-1}>
          Something went wrong
        </h1>
        <p className={lede}>
          This page could not be shown. Nothing you sent is lost: a request that did not reach us is kept in your browser and
          sent again.
        </p>
        <p>
          <Link to="/" onClick={() => resetErrorBoundary()}>
            Go to the home page
          </Link>
        </p>
      </div>
    </div>
  );
}
