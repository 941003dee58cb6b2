// `/llms-full.txt`, every indexable page's text as Markdown (the llms.txt proposal's companion
// file, https://llmstxt.org), converted by turndown from the prerendered HTML, so it is the text a
// visitor reads, word for word.
import { tables } from '@joplin/turndown-plugin-gfm';
import TurndownService from 'turndown';

/** A prerendered page: its absolute URL, title and the HTML of its `<main>` landmark. */
export interface RenderedPage {
  url: string;
  title: string;
  main: string;
}

/** The HTML inside the page's `<main …>` element, or the whole markup when there is none. */
export function mainOf(markup: string): string {
  return /<main\b[^>]*>([\s\S]*)<\/main>/.exec(markup)?.[1] ?? markup;
}

/**
 * Writes llms-full.txt: the product's H1 and summary, then each page under its title and URL.
 * Forms, buttons and the skip link are left out: they are things to do, not text to read.
 * Links to the site's own paths become absolute; tables become GFM tables.
 * @param heading - the file's H1 and blockquote summary (the first lines of llms.txt)
 * @param siteUrl - the site's origin, without a trailing slash
 * @returns the file's Markdown
 */
export function llmsFullText(heading: string, siteUrl: string, pages: RenderedPage[]): string {
  const turndown = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced' });
  turndown.use(tables);
  turndown.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && (node.getAttribute('href') ?? '').startsWith('/'),
    replacement: (content, node) => `[${content.trim()}](${siteUrl}${(node as HTMLElement).getAttribute('href')})`,
  });
  turndown.remove(['form', 'button', 'script', 'style', 'noscript']);
  // Each page sits under an H2 of its own, so its headings move two levels down (its H1 becomes an H3).
  turndown.addRule('nestedHeadings', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => `\n\n${'#'.repeat(Math.min(6, Number(node.nodeName[1]) + 2))} ${content}\n\n`,
  });
  const sections = pages.map((page) => [`## ${page.title}`, '', `Source: ${page.url}`, '', turndown.turndown(page.main)].join('\n'));
  return `${heading.trim()}\n\n${sections.join('\n\n---\n\n')}\n`;
}
