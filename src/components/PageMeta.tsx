import { PRODUCT_NAME, SITE_URL } from '@/config/site';
import { pageMeta, type MetaRoute } from '@/content/pageMeta';
import { SHARE_IMAGE_ALT, SHARE_IMAGE_PATH, SHARE_IMAGE_SIZE } from '@/content/siteFiles';

/**
 * A page's head (issue #13), hoisted by React into `<head>` (and by the prerender, scripts/build.mjs):
 * title, description, the absolute canonical URL, Open Graph tags with the build's share image, the
 * Twitter card, and `noindex` for pages that are not for search engines. The JSON-LD blocks are not
 * here: the build writes them into each prerendered page's head (src/entry-server.tsx), so that the
 * FAQ and the pricing they quote are not in the JavaScript of every route.
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
      <meta property="og:image" content={`${SITE_URL}${SHARE_IMAGE_PATH}`} />
      <meta property="og:image:type" content="image/png" />
      <meta property="og:image:width" content={String(SHARE_IMAGE_SIZE.width)} />
      <meta property="og:image:height" content={String(SHARE_IMAGE_SIZE.height)} />
      <meta property="og:image:alt" content={SHARE_IMAGE_ALT} />
      <meta name="twitter:card" content="summary_large_image" />
    </>
  );
}
