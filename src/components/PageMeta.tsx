import { PRODUCT_NAME, SITE_URL } from '@/config/site';
import { pageMeta, type MetaRoute } from '@/content/pageMeta';

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
    </>
  );
}
