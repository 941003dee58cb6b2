import { PRODUCT_NAME, SITE_URL } from '@/config/site';
import { pageMeta, type MetaRoute } from '@/content/pageMeta';
import { structuredData } from '@/content/structuredData';

/** JSON in a `<script>` data block: `<` escaped so that no text can close the element. */
const jsonLd = (data: object) => JSON.stringify(data).replace(/</g, '\\u003c');

/**
 * A page's head (issue #13), hoisted by React into `<head>` (and by the prerender, scripts/build.mjs):
 * title, description, the absolute canonical URL, Open Graph and Twitter card tags, and `noindex` for
 * pages that are not for search engines.
 * @param route - the page's route in spec §2, or `/404`
 */
export function PageMeta({ route }: { route: MetaRoute }) {
  const meta = pageMeta[route];
  const url = `${SITE_URL}${route === '/' ? '/' : route}`;
  return (
    <>
      <title>{meta.title}</title>
      <meta name="description" content={meta.description} />
      {meta.indexable ? <link rel="canonical" href={url} /> : <meta name="robots" content="noindex" />}
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={PRODUCT_NAME} />
      <meta property="og:title" content={meta.title} />
      <meta property="og:description" content={meta.description} />
      <meta property="og:url" content={url} />
      {/* summary_large_image once the build makes a share image (issue #13, not done yet) */}
      <meta name="twitter:card" content="summary" />
      {/* a data block, not a script: the CSP's script-src does not apply to it and no browser runs it */}
      {structuredData(SITE_URL, route === '/').map((data, index) => (
        <script key={index} type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLd(data) }} />
      ))}
    </>
  );
}
