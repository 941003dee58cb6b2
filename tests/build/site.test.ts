// @vitest-environment node
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readSecurityHeaders } from '../../server/http/securityHeaders.ts';
import { spawnServer } from '../support/process.ts';

// `npm run build` as a site owner runs it: the prerendered pages and the headers for every host, and
// the server and the command line bundled for plain node.
const outDirs: string[] = [];
afterEach(async () => {
  await Promise.all(outDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * Runs `npm run build`'s script into a directory of its own; the server's bundle goes inside the project
 * (node_modules/.cache), as build/server does, so that it resolves its packages.
 * @param keep - leave both directories for later tests of this file (removed after them all)
 */
async function build(env: Record<string, string>, keep = false) {
  const outDir = await mkdtemp(join(tmpdir(), 'sonde-site-'));
  const serverDir = resolve('node_modules/.cache/sonde-build-test', randomUUID());
  (keep ? keptDirs : outDirs).push(outDir, serverDir);
  // in its own process, as `npm run build` runs (Vitest's NODE_ENV=test would mix React builds)
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.mjs', '--outDir', outDir, '--serverOutDir', serverDir], {
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true', ...env },
  });
  const printed = [...stdout.split('\n'), ...stderr.split('\n').map((line) => `warn: ${line}`)];
  return { outDir, serverDir, printed };
}

const keptDirs: string[] = [];
afterAll(async () => {
  await Promise.all(keptDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The build as a fresh clone makes it (no endpoint, PostHog key or site URL), once for the tests that read it. */
let freshClone: ReturnType<typeof build> | undefined;
const freshCloneBuild = () => (freshClone ??= build({ VITE_SUBMIT_ENDPOINT: '', VITE_POSTHOG_KEY: '', VITE_SITE_URL: '' }, true));

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

/** The value of `<meta name|property=key content=…>` in a page, or undefined. */
function metaOf(html: string, key: string): string | undefined {
  return new RegExp(`<meta (?:name|property)="${key.replace(':', '\\:')}" content="([^"]*)"`).exec(html)?.[1];
}

/** A PNG's size in px, from its IHDR chunk; throws when the bytes are not a PNG. */
function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG' || png.subarray(12, 16).toString('latin1') !== 'IHDR') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Every page has its own title and description, an absolute canonical URL (indexable pages)
 * or noindex (the others), Open Graph and Twitter card tags with the share image; the sitemap lists
 * exactly the indexable routes; robots.txt points at it; llms.txt and llms-full.txt; the share image,
 * icons and manifest; JSON-LD; security.txt.
 */
async function expectPageMetadata(outDir: string, origin: string) {
  const pages: Record<string, { file: string; indexable: boolean }> = {
    '/': { file: 'index.html', indexable: true },
    '/privacy': { file: 'privacy.html', indexable: true },
    '/privacy-request': { file: 'privacy-request.html', indexable: true },
    '/terms': { file: 'terms.html', indexable: true },
    '/thank-you': { file: 'thank-you.html', indexable: false },
    '/404': { file: '404.html', indexable: false },
  };
  const descriptions = new Set<string>();
  const titles = new Set<string>();
  for (const [route, { file, indexable }] of Object.entries(pages)) {
    const html = await readFile(join(outDir, file), 'utf8');
    const head = html.slice(0, html.indexOf('</head>'));
    const description = metaOf(head, 'description');
    expect(description, route).toMatch(/Sonde/);
    expect(head.match(/<meta name="description"/g), route).toHaveLength(1);
    descriptions.add(description!);
    titles.add(/<title[^>]*>([^<]*)<\/title>/.exec(head)![1]!);
    expect(metaOf(head, 'og:title'), route).toBe(/<title[^>]*>([^<]*)<\/title>/.exec(head)![1]);
    expect(metaOf(head, 'og:description'), route).toBe(description);
    expect(metaOf(head, 'og:type'), route).toBe('website');
    expect(metaOf(head, 'og:url'), route).toBe(`${origin}${route}`);
    expect(metaOf(head, 'og:image'), route).toBe(`${origin}/share.png`);
    expect([metaOf(head, 'og:image:width'), metaOf(head, 'og:image:height')], route).toEqual(['1200', '630']);
    expect(metaOf(head, 'og:image:alt'), route).toMatch(/^Sonde: /);
    expect(metaOf(head, 'twitter:card'), route).toBe('summary_large_image');
    expect(head, route).toContain('<link rel="manifest" href="/site.webmanifest"');
    expect(head, route).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"');
    // the tab's icon inline, a 32 px PNG (scripts/build.mjs inlineFavicon: an SVG icon is a long task to draw)
    const icon = /<link rel="icon" href="data:image\/png;base64,([A-Za-z0-9+/=]+)" type="image\/png" sizes="32x32"/.exec(head);
    expect(icon, route).not.toBeNull();
    expect(pngSize(Buffer.from(icon![1]!, 'base64')), route).toEqual({ width: 32, height: 32 });
    // theme-color for both colour schemes (the browser's UI around the page)
    expect([...head.matchAll(/<meta name="theme-color" media="\(prefers-color-scheme: (light|dark)\)" content="#[0-9a-f]{6}"/g)].map((m) => m[1]), route).toEqual(['light', 'dark']);
    if (indexable) {
      expect(/<link rel="canonical" href="([^"]+)"/.exec(head)?.[1], route).toBe(`${origin}${route}`);
      expect(metaOf(head, 'robots'), route).toBeUndefined();
    } else {
      expect(head, route).not.toContain('rel="canonical"');
      expect(metaOf(head, 'robots'), route).toBe('noindex');
    }
  }
  expect(descriptions.size).toBe(Object.keys(pages).length);
  expect(titles.size).toBe(Object.keys(pages).length);

  const sitemap = await readFile(join(outDir, 'sitemap.xml'), 'utf8');
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
  expect(listed).toEqual(Object.entries(pages).filter(([, page]) => page.indexable).map(([route]) => `${origin}${route}`));
  expect(await readFile(join(outDir, 'robots.txt'), 'utf8')).toContain(`Sitemap: ${origin}/sitemap.xml`);

  // the team console: its sign-in screen prerendered, noindex, disallowed, in neither the sitemap nor llms.txt
  const team = await readFile(join(outDir, 'team.html'), 'utf8');
  const teamHead = team.slice(0, team.indexOf('</head>'));
  expect(metaOf(teamHead, 'robots')).toBe('noindex');
  expect(teamHead).toContain('<title>Sonde team console</title>');
  expect(teamHead).not.toContain('rel="canonical"');
  expect(team).toContain('<div id="root" data-prerendered="/team">');
  expect(team).toMatch(/<h1[^>]*>Sign in to the team console<\/h1>/);
  expect(team).toContain('Sign in with a passkey');
  expect(await readFile(join(outDir, 'robots.txt'), 'utf8')).toMatch(/^Disallow: \/team$/m);
  expect(sitemap).not.toContain('/team');

  // llms.txt (llmstxt.org): H1, a blockquote summary, the claims, the price, how to get access, the pages
  const llms = await readFile(join(outDir, 'llms.txt'), 'utf8');
  expect(llms.split('\n')[0]).toBe('# Sonde');
  expect(llms).toMatch(/^> Sonde is a web search API for agentic AI/m);
  expect(llms).toContain('Median (p50) latency under 100 ms');
  expect(llms).toContain('$0.20 per 1,000 queries');
  expect(llms).toContain('- 5M queries a month: about $1,000');
  expect(llms).toContain(`Request an invite at ${origin}/#invite.`);
  for (const route of listed) expect(llms).toContain(`](${route})`);

  // llms-full.txt: the same heading, then every indexable page's text as Markdown, links made absolute
  const full = await readFile(join(outDir, 'llms-full.txt'), 'utf8');
  expect(full.startsWith(llms.slice(0, llms.indexOf('\n## ')))).toBe(true);
  for (const route of listed) expect(full).toContain(`\nSource: ${route}\n`);
  expect(full).toContain('##### How fast is it?'); // the FAQ of /, its headings two levels down
  expect(full).toContain('| 5M queries | ≈ $1,000 / month |'); // the pricing table, as a table
  expect(full).toContain('#### What each request type means'); // /privacy-request, without its form
  expect(full).not.toContain('Full name');
  expect(full).toContain(`[privacy policy](${origin}/privacy)`);
  expect(full).not.toMatch(/\]\(\//); // no relative link
  expect(llms).not.toContain('/team');
  expect(full).not.toContain('/team');

  // the share image and the icons: PNGs of the stated sizes; the manifest points at icons that exist
  expect(pngSize(await readFile(join(outDir, 'share.png')))).toEqual({ width: 1200, height: 630 });
  expect(pngSize(await readFile(join(outDir, 'apple-touch-icon.png')))).toEqual({ width: 180, height: 180 });
  const manifest = JSON.parse(await readFile(join(outDir, 'site.webmanifest'), 'utf8')) as { name: string; start_url: string; theme_color: string; icons: Array<{ src: string; sizes: string; type: string }> };
  expect(manifest).toMatchObject({ short_name: 'Sonde', start_url: '/', theme_color: '#ffffff' });
  const pngIcons = manifest.icons.filter((icon) => icon.type === 'image/png');
  expect(pngIcons.map((icon) => icon.sizes)).toEqual(['192x192', '512x512']);
  for (const icon of pngIcons) {
    const [width, height] = icon.sizes.split('x').map(Number);
    expect(pngSize(await readFile(join(outDir, icon.src.slice(1)))), icon.src).toEqual({ width, height });
  }

  // JSON-LD: every block parses; Organization and WebSite everywhere; FAQPage and the Offer on /
  for (const [route, { file }] of Object.entries(pages)) {
    const html = await readFile(join(outDir, file), 'utf8');
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]!) as { '@type': string });
    const types = blocks.map((block) => block['@type']);
    expect(types, route).toEqual(expect.arrayContaining(['Organization', 'WebSite']));
    if (route === '/') {
      const faqPage = blocks.find((block) => block['@type'] === 'FAQPage') as unknown as { mainEntity: Array<{ name: string }> };
      expect(faqPage.mainEntity.map((q) => q.name)).toContain('How fast is it?');
      expect(blocks.find((block) => block['@type'] === 'Product')).toMatchObject({ offers: { '@type': 'Offer', price: '0.20', priceCurrency: 'USD' } });
    }
  }

  // RFC 9116 security.txt: Contact, Expires about a year ahead, Preferred-Languages, Canonical
  const security = await readFile(join(outDir, '.well-known', 'security.txt'), 'utf8');
  expect(security).toMatch(/^Contact: mailto:\S+@\S+$/m);
  const expires = Date.parse(/^Expires: (\S+)$/m.exec(security)![1]!);
  expect(expires - Date.now()).toBeGreaterThan(364 * 24 * 60 * 60_000);
  expect(expires - Date.now()).toBeLessThan(366 * 24 * 60 * 60_000);
  expect(security).toContain('Preferred-Languages: en');
  expect(security).toContain(`Canonical: ${origin}/.well-known/security.txt`);
}

describe('npm run build', () => {
  it('allows exactly the inlined stylesheet and entry loader of every page by their hashes, and the calls of spec §7', async () => {
    const { outDir, printed } = await freshCloneBuild();
    const headers = await readSecurityHeaders(outDir);
    const csp = headers['Content-Security-Policy']!;
    const pages = (await readdir(outDir)).filter((name) => name.endsWith('.html'));
    expect(pages.sort()).toEqual(['404.html', 'index.html', 'privacy-request.html', 'privacy.html', 'team.html', 'terms.html', 'thank-you.html']);
    for (const page of pages) {
      const html = await readFile(join(outDir, page), 'utf8');
      const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      expect(styles, page).toHaveLength(1);
      const hash = createHash('sha256').update(styles[0]!).digest('base64');
      expect(csp, page).toContain(`'sha256-${hash}'`);
      // one inline script, the entry loader (scripts/build.mjs entryLoader), allowed by its hash; no other (JSON-LD data blocks aside)
      const scripts = [...html.matchAll(/<script(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(scripts, page).toHaveLength(1);
      expect(csp, page).toContain(`'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`);
      expect(html, page).not.toContain('rel="modulepreload"');
    }
    expect(csp).toContain("connect-src 'self' https://api.ipify.org;");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);

    // the same headers for static hosts, and clean URLs on Vercel
    const netlify = await readFile(join(outDir, '_headers'), 'utf8');
    expect(netlify).toContain(`  Content-Security-Policy: ${csp}\n`);
    expect(JSON.parse(await readFile(join(outDir, 'vercel.json'), 'utf8'))).toMatchObject({ cleanUrls: true });

    await expectPageMetadata(outDir, 'https://sonde.dev');

    expect(printed).toContain('submission endpoint (VITE_SUBMIT_ENDPOINT): /api/submissions');
    expect(printed.some((line) => line.startsWith('warn: warning: the forms POST to the relative path /api/submissions'))).toBe(true);
  }, 120_000);

  it('with an absolute endpoint, a PostHog key and a site URL, allows their origins, does not warn, and uses the URL', async () => {
    const { outDir, printed } = await build({
      VITE_SITE_URL: 'https://www.sonde.example/',
      VITE_SUBMIT_ENDPOINT: 'https://api.sonde.dev/api/submissions',
      VITE_POSTHOG_KEY: 'phc_test',
      VITE_POSTHOG_HOST: 'https://eu.i.posthog.com',
    });
    const csp = (await readSecurityHeaders(outDir))['Content-Security-Policy']!;
    expect(csp).toContain("connect-src 'self' https://api.sonde.dev https://api.ipify.org https://eu.i.posthog.com;");
    expect(printed).toContain('submission endpoint (VITE_SUBMIT_ENDPOINT): https://api.sonde.dev/api/submissions');
    expect(printed.filter((line) => line.includes('relative path'))).toEqual([]);
    await expectPageMetadata(outDir, 'https://www.sonde.example');
  }, 120_000);

  it('writes the server and the command line outside the site, for plain node: they start without tsx, and nothing of them is served', async () => {
    const { outDir, serverDir } = await freshCloneBuild();
    const bundle = await filesUnder(serverDir);
    expect(bundle).toEqual(expect.arrayContaining(['server.mjs', 'server.mjs.map', 'cli.mjs', 'cli.mjs.map', 'migrations/0000_baseline.sql', 'functions/accept_submission.sql']));
    // the site's folder holds no code of the server: no bundle, source map or TypeScript source
    expect((await filesUnder(outDir)).filter((file) => /\.(mjs|ts|map)$/.test(file) || file.includes('server'))).toEqual([]);

    // plain node: no loader, none inherited either; from another working directory, so that the bundle finds its SQL beside itself
    const plain = { NODE_OPTIONS: '' };
    const data = await mkdtemp(join(tmpdir(), 'sonde-plain-'));
    outDirs.push(data);
    const server = await spawnServer({ ...plain, SONDE_DIST_DIR: outDir, SONDE_PGLITE_DIR: join(data, 'pglite') }, 120_000, { entry: join(serverDir, 'server.mjs'), cwd: data });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      // every file of the bundle, and the server's sources, at the paths a visitor could try: none is served
      const paths = [
        ...bundle.flatMap((file) => [`/${file}`, `/build/server/${file}`, `/server/${file}`, `/assets/${file}`, `/%2e%2e/${file}`]),
        ...['server/main.ts', 'server/config.ts', 'server/cli/main.ts', 'package.json', '.env'].map((file) => `/${file}`),
      ];
      const served: string[] = [];
      for (const path of paths) {
        const response = await fetch(`${server.url}${path}`);
        const body = await response.text();
        if (response.status !== 404 || body.includes('import.meta') || body.includes('"mappings"')) served.push(`${path}: ${response.status}`);
      }
      expect(served).toEqual([]);
      const help = await promisify(execFile)(process.execPath, [join(serverDir, 'cli.mjs'), '--help'], { cwd: tmpdir(), env: { ...process.env, ...plain } });
      expect(help.stdout).toContain('Usage: requests');
      // the command line as the team runs it beside the server: the server answers it over its team channel
      const list = await promisify(execFile)(process.execPath, [join(serverDir, 'cli.mjs'), 'list'], {
        cwd: tmpdir(),
        env: { ...process.env, ...plain, DATABASE_URL: '', SONDE_PGLITE_DIR: join(data, 'pglite') },
      });
      expect(list.stdout).toContain('no requests');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 300_000);
});
