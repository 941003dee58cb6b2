// The images the build makes, so that none is a hand-drawn file that drifts from the content.
//   share.png          the 1200×630 link-preview image (og:image) from the product name and the hero
//   icon-192.png, icon-512.png, apple-touch-icon.png (180×180): PNG icons rendered from public/favicon.svg
// satori lays the share card out as SVG (with the Inter font from @fontsource, nothing downloaded) and
// @resvg/resvg-js rasterises SVG to PNG.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';

const require = createRequire(import.meta.url);

/** The PNG icons made from the SVG favicon: file name → edge in px (web manifest and apple-touch). */
export const ICON_SIZES = { 'icon-192.png': 192, 'icon-512.png': 512, 'apple-touch-icon.png': 180 } as const;

/** What the share image shows. */
export interface ShareCard {
  /** in px: 1200×630 (src/content/siteFiles.ts SHARE_IMAGE_SIZE) */
  width: number;
  height: number;
  productName: string;
  /** the home page's headline */
  headline: string;
  /** one short line under it, e.g. the price and the latency claim */
  tagline: string;
  /** the site's host, e.g. `sonde.dev` */
  host: string;
  /** background and text colours, `#rrggbb` (the theme's accent and its text colour) */
  background: string;
  foreground: string;
}

type Node = { type: string; props: { style?: Record<string, unknown>; children?: Node | string | Array<Node | string> } };
const el = (type: string, style: Record<string, unknown>, children?: Node['props']['children']): Node => ({ type, props: { style, children } });

async function font(weight: 400 | 700) {
  return readFile(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`));
}

/**
 * Renders the share image, `card.width`×`card.height` px.
 * @returns the PNG's bytes
 * @throws when the font cannot be read or the layout cannot be rendered (the build fails: no page may
 *   point at a missing og:image)
 */
export async function renderShareImage(card: ShareCard): Promise<Buffer> {
  const svg = await satori(
    el('div', { width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'space-between', padding: 80, background: card.background, color: card.foreground, fontFamily: 'Inter' }, [
      el('div', { fontSize: 44, fontWeight: 700, letterSpacing: -1 }, card.productName),
      el('div', { display: 'flex', flexDirection: 'column' }, [
        el('div', { fontSize: 72, fontWeight: 700, lineHeight: 1.1, letterSpacing: -2 }, card.headline),
        el('div', { fontSize: 34, marginTop: 32, opacity: 0.9 }, card.tagline),
      ]),
      el('div', { fontSize: 30, opacity: 0.85 }, card.host),
    ]) as unknown as Parameters<typeof satori>[0],
    {
      width: card.width,
      height: card.height,
      fonts: [
        { name: 'Inter', data: await font(400), weight: 400, style: 'normal' },
        { name: 'Inter', data: await font(700), weight: 700, style: 'normal' },
      ],
    },
  );
  return new Resvg(svg, { fitTo: { mode: 'width', value: card.width } }).render().asPng();
}

/**
 * Rasterises an SVG icon to a square PNG.
 * @param svg - the SVG source (public/favicon.svg)
 * @param size - the edge in px
 * @returns the PNG's bytes
 * @throws when the SVG cannot be parsed
 */
export function renderIcon(svg: string, size: number): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
}
