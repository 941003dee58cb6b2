import { Link } from 'react-router-dom';
import { useDocumentHead, type HeadTag } from '@/components/PageMeta';
import { PRODUCT_NAME } from '@/config/site';
import { container, lede, pageTitle, prose, section } from '@/styles/layout.css';

const ERROR_TITLE = `Something went wrong — ${PRODUCT_NAME}`;
const ERROR_HEAD_TAGS: readonly HeadTag[] = [['meta', { name: 'robots', content: 'noindex' }]];

/**
 * What a visitor sees instead of a blank screen when a page fails to render: a heading, a
 * sentence, a way home. The header and footer stay; following any link clears it (src/app/PageErrorBoundary.tsx).
 */
export function PageError() {
  useDocumentHead(ERROR_TITLE, ERROR_HEAD_TAGS);
  return (
    <div className={section}>
      <div className={`${container} ${prose}`}>
        <h1 className={pageTitle} tabIndex={-1}>
          Something went wrong
        </h1>
        <p className={lede}>
          This page could not be shown. Nothing you sent is lost: a request that did not reach us is kept in your browser and
          sent again.
        </p>
        <p>
          <Link to="/">
            Go to the home page
          </Link>
        </p>
      </div>
    </div>
  );
}
