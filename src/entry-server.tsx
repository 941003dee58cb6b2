import { StrictMode, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from '@/app/App';
import { TeamApp } from '@/app/team/TeamApp';
import { teamPageMeta } from '@/content/team';
import { preloadAllPages } from '@/app/routes';
import { PageHead } from '@/components/PageMeta';
import { SECURITY_EMAIL, SITE_URL } from '@/config/site';
import { llmsText } from '@/content/llmsText';
import { indexableRoutes, pageMeta, type MetaRoute } from '@/content/pageMeta';
import { SHARE_IMAGE_PATH, shareCard, WEB_MANIFEST_PATH, webManifest } from '@/content/siteFiles';
import { structuredData } from '@/content/structuredData';

/**
 * For scripts/build.mjs: the site's origin, the routes the sitemap lists, each page's title,
 * and what llms.txt, the share image, the web manifest and security.txt say.
 */
export { indexableRoutes, llmsText, pageMeta, SECURITY_EMAIL as securityEmail, SHARE_IMAGE_PATH as shareImagePath, shareCard, SITE_URL as siteUrl, WEB_MANIFEST_PATH as webManifestPath, webManifest };

/** The routes of spec §2 that are prerendered to static HTML at build time (scripts/build.mjs). */
export const prerenderedRoutes = ['/', '/privacy', '/privacy-request', '/privacy-request/verify', '/terms', '/thank-you'];

/** Where unknown paths are answered from (with status 404): the not-found page. */
export const notFoundPath = '/404';

/** Every page is its own chunk; call once before {@link render}, so each renders completely. */
export { preloadAllPages };

/**
 * The JSON-LD blocks of a route's page: `Organization` and `WebSite` on every page, the FAQ
 * and the beta offer on `/`. Data blocks, not scripts: the CSP's script-src does not apply to them and
 * no browser runs them. Only the prerendered HTML has them (search engines read it); the app does not
 * render them, so their content is not in the JavaScript of every route.
 * @param route - a prerendered route, or `/404`
 * @returns `<script type="application/ld+json">` elements, `<` escaped so no text can close one
 */
export function structuredDataHtml(route: string): string {
  return structuredData(SITE_URL, route === '/')
    .map((data) => `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`)
    .join('');
}

/**
 * The head of a route's page: its `<title>`, description, canonical URL or `noindex`, Open
 * Graph and Twitter card tags (src/components/PageMeta.tsx), for the prerendered page's `<head>`.
 * @param route - a prerendered route, or `/404`
 */
export function headHtml(route: MetaRoute): string {
  return renderToString(<PageHead route={route} />);
}

/**
 * Renders one route's `#root` to HTML (after {@link preloadAllPages}), as a visitor with nothing stored
 * and no GPC signal first sees it; the browser then hydrates it (src/hydrate.tsx).
 * @param url - a path of the site, e.g. `/privacy`
 */
export function render(url: string): string {
  return renderAt(url, <App />);
}

/** An app's `#root` HTML at `url`: the app in StrictMode, inside a StaticRouter at that location. */
function renderAt(url: string, app: ReactNode): string {
  return renderToString(
    <StrictMode>
      <StaticRouter location={url}>{app}</StaticRouter>
    </StrictMode>,
  );
}

/**
 * The head of the team console's page (`/team`): its title, description and `noindex` (it is also
 * disallowed in robots.txt, and in neither the sitemap nor llms.txt).
 */
export function teamHeadHtml(): string {
  return renderToString(
    <>
      <title>{teamPageMeta.title}</title>
      <meta name="description" content={teamPageMeta.description} />
      <meta name="robots" content="noindex" />
    </>,
  );
}

/**
 * Renders the team console's `#root` at `url` (scripts/build.mjs prerenders `/team`: the sign-in screen,
 * as it shows while the session is checked); the console's own build hydrates it (src/app/team/hydrate.tsx).
 * @param url - a path under `/team`
 */
export function renderTeam(url: string): string {
  return renderAt(url, <TeamApp />);
}
