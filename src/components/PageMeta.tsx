import { useEffect } from 'react';
import { PRODUCT_NAME, SITE_URL } from '@/config/site';
import { pageMeta, type MetaRoute } from '@/content/pageMeta';
import { SHARE_IMAGE_ALT, SHARE_IMAGE_PATH, SHARE_IMAGE_SIZE } from '@/content/siteFiles';

/** One element of a page's head after its `<title>`: the tag and its attributes. */
export type HeadTag = readonly ['meta' | 'link', Readonly<Record<string, string>>];

/**
 * The elements {@link pageHeadTags} puts in the head, found again by the client on each navigation. The
 * template's own tags (charset, viewport, color-scheme, theme-color, icons, manifest) match none of them.
 */
const PAGE_HEAD_SELECTOR = 'meta[name="description"], meta[name="robots"], link[rel="canonical"], meta[property^="og:"], meta[name^="twitter:"]';

/**
 * A page's head: the title, the description, the absolute canonical URL, Open Graph tags with
 * the build's share image, the Twitter card, and `noindex` for pages that are not for search engines.
 * The JSON-LD blocks are not here: the build writes them into each prerendered page's head
 * (src/entry-server.tsx), so that the FAQ and the pricing they quote are not in the JavaScript of every route.
 * @param route - the page's route in spec §2, or `/404`
 * @returns the document title and the `<meta>` and `<link>` elements, in head order
 */
function pageHeadTags(route: MetaRoute): { title: string; tags: HeadTag[] } {
  const meta = pageMeta[route];
  const url = `${SITE_URL}${route === '/' ? '/' : route}`;
  return {
    title: meta.title,
    tags: [
      ['meta', { name: 'description', content: meta.description }],
      meta.indexable ? ['link', { rel: 'canonical', href: url }] : ['meta', { name: 'robots', content: 'noindex' }],
      ['meta', { property: 'og:type', content: 'website' }],
      ['meta', { property: 'og:site_name', content: PRODUCT_NAME }],
      ['meta', { property: 'og:title', content: meta.title }],
      ['meta', { property: 'og:description', content: meta.description }],
      ['meta', { property: 'og:url', content: url }],
      ['meta', { property: 'og:image', content: `${SITE_URL}${SHARE_IMAGE_PATH}` }],
      ['meta', { property: 'og:image:type', content: 'image/png' }],
      ['meta', { property: 'og:image:width', content: String(SHARE_IMAGE_SIZE.width) }],
      ['meta', { property: 'og:image:height', content: String(SHARE_IMAGE_SIZE.height) }],
      ['meta', { property: 'og:image:alt', content: SHARE_IMAGE_ALT }],
      ['meta', { name: 'twitter:card', content: 'summary_large_image' }],
    ],
  };
}

/**
 * The head of a route's page as elements, for the prerender (src/entry-server.tsx renders it into each
 * page's `<head>`, scripts/build.mjs).
 * @param route - the page's route in spec §2, or `/404`
 */
export function PageHead({ route }: { route: MetaRoute }) {
  const { title, tags } = pageHeadTags(route);
  return (
    <>
      <title>{title}</title>
      {tags.map(([Tag, attributes]) => (
        <Tag key={Object.values(attributes)[0]} {...attributes} />
      ))}
    </>
  );
}

/**
 * Keeps the document's head on the page shown: after each client-side navigation the title
 * and the elements of {@link pageHeadTags} are those of the new page, as in its prerendered HTML. Renders
 * nothing: the prerendered HTML already has the first page's head, and a `<title>` or `<meta>` rendered in
 * the tree would be hoisted by React 19 into `<head>` beside the build's, a second tag of each
 * (https://react.dev/reference/react-dom/components/title).
 * @param route - the page's route in spec §2, or `/404`
 */
export function PageMeta({ route }: { route: MetaRoute }) {
  const { title, tags } = pageHeadTags(route);
  useDocumentHead(title, tags);
  return null;
}

/**
 * Puts `title` and `tags` in the document's head in place of the shown page's: the one way a view changes
 * the head, so that each of its elements exists once. Idempotent, so StrictMode's second run of the effect
 * changes nothing. A head that holds them already is left as it is: the prerendered page's, at hydration,
 * where replacing its elements by equal ones was work in the task after hydration, for nothing.
 * @param title - the document's title
 * @param tags - the page's `<meta>` and `<link>` elements after the title, replacing those of {@link PAGE_HEAD_SELECTOR}
 */
export function useDocumentHead(title: string, tags: readonly HeadTag[]): void {
  const key = JSON.stringify([title, tags]);
  useEffect(() => {
    const [nextTitle, nextTags] = JSON.parse(key) as [string, HeadTag[]];
    const elements = nextTags.map(([tag, attributes]) => {
      const element = document.createElement(tag);
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      return element;
    });
    const present = [...document.head.querySelectorAll(PAGE_HEAD_SELECTOR)];
    const same = present.length === elements.length && present.every((element, i) => element.isEqualNode(elements[i] ?? null));
    if (document.title !== nextTitle) document.title = nextTitle;
    if (same) return;
    for (const element of present) element.remove();
    document.head.append(...elements);
  }, [key]);
}
