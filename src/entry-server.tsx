import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from '@/app/App';
import { SECURITY_EMAIL, SITE_URL } from '@/config/site';
import { llmsText } from '@/content/llmsText';
import { indexableRoutes } from '@/content/pageMeta';

/** Issue #13: the site's origin and the routes the sitemap lists (scripts/build.mjs writes sitemap.xml and robots.txt). */
export { indexableRoutes, llmsText, SECURITY_EMAIL as securityEmail, SITE_URL as siteUrl };

/** The routes of spec §2 that are prerendered to static HTML at build time (scripts/build.mjs). */
export const prerenderedRoutes = ['/', '/privacy', '/privacy-request', '/terms', '/thank-you'];

/** Where unknown paths are answered from (with status 404): the not-found page. */
export const notFoundPath = '/404';

/**
 * Renders one route to HTML, as a visitor with nothing stored and no GPC signal first sees it; the
 * browser then hydrates it (src/main.tsx). Hoisted elements (`<title>`, `<meta>`) come first.
 * @param url - a path of the site, e.g. `/privacy`
 */
export function render(url: string): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location={url}>
        <App />
      </StaticRouter>
    </StrictMode>,
  );
}
