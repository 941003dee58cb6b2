// @vitest-environment node
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILE_HINT } from '../../vite.config';
import { buildTeamClient, firstLoadChunks, PAGE_MODULES, routeChunks, TEAM_APP_MODULE, TEAM_ROUTE } from '../../scripts/build.mjs';
import { consentMachine } from '#machines/consentMachine';
import { inviteMachine } from '#machines/inviteMachine';
import { optOutToastMachine } from '#machines/optOutToastMachine';
import { verifyMachine } from '#machines/verifyMachine';

// Real production builds, as `npm start` makes them, checked for what they must not ship: the site's, and
// the team console's, which is its own build (scripts/build.mjs buildTeamClient: src/main.tsx with
// __TEAM_BUILD__ true) while the site's holds nothing of it: DESIGN.md §4, "/team first load ≤ 160 KB
// gzip, never PostHog", and every public route's first load as it was. One build of each for both.
let outDir: string;
let files: Map<string, string>;
let entry: string;
let manifest: Record<string, { file: string }>;
let teamDir: string;
let teamManifest: Record<string, { file: string; isEntry?: boolean; dynamicImports?: string[] }>;

/** DESIGN.md §4: the console's first load, KB (1,024 bytes) of gzip JavaScript. */
const TEAM_FIRST_LOAD_BUDGET_KB = 160;

const builtFile = (dir: string, file: string) => readFile(join(dir, file), 'utf8');

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'sonde-build-'));
  teamDir = await mkdtemp(join(tmpdir(), 'sonde-team-build-'));
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle and set DEV.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: 'vite.config.ts', mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true, manifest: true } });
    teamManifest = (await buildTeamClient({ outDir: teamDir, logLevel: 'error' })) as typeof teamManifest;
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  files = new Map();
  for (const name of await readdir(join(outDir, 'assets'))) {
    if (name.endsWith('.js')) files.set(name, await readFile(join(outDir, 'assets', name), 'utf8'));
  }
  manifest = JSON.parse(await readFile(join(outDir, '.vite', 'manifest.json'), 'utf8')) as typeof manifest;
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  entry = /<script type="module" crossorigin src="\/assets\/([^"]+\.js)"/.exec(html)?.[1] ?? '';
}, 180_000);

afterAll(async () => {
  await Promise.all([outDir, teamDir].map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the site's production bundle", () => {
  it('holds no Stately inspector code in any chunk', () => {
    expect(files.size).toBeGreaterThan(0);
    const withInspector = [...files].filter(([, code]) => code.includes('stately.ai/inspect') || code.includes('createBrowserInspector'));
    expect(withInspector.map(([name]) => name)).toEqual([]);
  });

  it('ships the machines without their description texts, which stay in the source and docs/machines.md', async () => {
    const descriptions = [consentMachine, optOutToastMachine, inviteMachine, verifyMachine].flatMap((machine) => [
      machine.config.description,
      ...Object.values(machine.root.states).map((state) => state.description),
    ]);
    const texts = descriptions.filter((text): text is string => typeof text === 'string' && text.length > 20);
    expect(texts.length).toBeGreaterThan(10);
    const docs = await readFile('docs/machines.md', 'utf8');
    for (const text of texts) {
      expect(docs).toContain(text);
      expect([...files].filter(([, code]) => code.includes(JSON.stringify(text).slice(1, -1))).map(([name]) => name), text).toEqual([]);
    }
  });

  it('starts every chunk, the entry too, with V8\'s compile hint on its first line', () => {
    const withoutHint = [...files].filter(([, code]) => code.slice(0, code.indexOf('\n')) !== COMPILE_HINT).map(([name]) => name);
    expect(withoutHint).toEqual([]);
    expect(files.has(entry)).toBe(true);
  });

  it('keeps PostHog out of the first-load entry chunk', () => {
    expect(entry).not.toBe('');
    const code = files.get(entry)!;
    expect(/rrweb|\$pageleave/.test(code)).toBe(false);
    expect([...files.keys()].some((name) => name !== entry && /\$pageleave/.test(files.get(name)!))).toBe(true);
    // The size itself is a budget for `npm run bench`, not asserted here; printed for the record.
    console.info(`[bundle] ${entry}: ${(gzipSync(code).length / 1024).toFixed(1)} KB gzip`);
  });

  it("leaves the forms' machines, the outbox and the cost estimator out of every route's first load (DESIGN.md §4)", () => {
    // names in the charts: the form machines' IP-lookup delay, the outbox's back-off delay; the
    // estimator's message for an entry it cannot read
    const markers = {
      'a form machine': 'ipLookupTimeout',
      'the outbox machine': 'untilNextAttempt',
      'the cost estimator': 'Write a number of queries, like 12M',
      "analytics' PostHog steps (src/services/posthogSession.ts)": 'could not start session recording',
    };
    for (const [what, marker] of Object.entries(markers)) {
      expect([...files.values()].some((code) => code.includes(marker)), `${what} is in some chunk`).toBe(true);
    }
    const found: string[] = [];
    for (const route of Object.keys(PAGE_MODULES)) {
      for (const file of firstLoadChunks(manifest, route)) {
        const code = files.get(file.replace(/^assets\//, ''))!;
        for (const [what, marker] of Object.entries(markers)) if (code.includes(marker)) found.push(`${route}: ${what} in ${file}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe("the chunks a page's loader fetches besides the app's (scripts/build.mjs routeChunks)", () => {
  const fileHolding = (marker: string) => [...files].find(([, code]) => code.includes(marker))?.[0];

  it("fetches the route's page chunk with the app, and the parts the page loads after the load event at once after it, none of them first load", () => {
    const home = routeChunks(manifest, '/');
    expect(home.page).toEqual([`/${manifest['src/pages/Home.tsx']!.file}`]);
    // the estimator and the invite form's machine, each in a part of the page, not in its first load
    const deferred = [fileHolding('Write a number of queries, like 12M'), fileHolding('ipLookupTimeout')].map((name) => `/assets/${name}`);
    expect(home.deferred).toEqual(expect.arrayContaining(deferred));
    for (const route of Object.keys(PAGE_MODULES)) {
      const { page, deferred: later } = routeChunks(manifest, route);
      const firstLoad = firstLoadChunks(manifest, route).map((file) => `/${file}`);
      expect(page.every((url) => firstLoad.includes(url)), route).toBe(true);
      expect(later.filter((url) => firstLoad.includes(url)), route).toEqual([]);
    }
    expect(routeChunks(manifest, '/terms').deferred).toEqual([]); // a page without such parts
  });
});

describe("the team console's build", () => {
  it(`loads the console's app at first, within ${TEAM_FIRST_LOAD_BUDGET_KB} KB gzip`, async () => {
    const files = firstLoadChunks(teamManifest, TEAM_ROUTE, TEAM_APP_MODULE);
    expect(files).toContain(teamManifest[TEAM_APP_MODULE]!.file);
    let gzip = 0;
    for (const file of files) gzip += gzipSync(await builtFile(teamDir, file), { level: 9 }).length;
    const kb = gzip / 1024;
    console.info(`[bundle] /team first load: ${files.length} files, ${kb.toFixed(1)} KB gzip`);
    expect(kb).toBeLessThanOrEqual(TEAM_FIRST_LOAD_BUDGET_KB);
    // its page's HTML loads its entry
    expect(await builtFile(teamDir, 'index.html')).toContain(`src="/${Object.values(teamManifest).find((chunk) => chunk.isEntry)!.file}"`);
  });

  it("holds no module of PostHog, the consent machine or the site's pages, in any chunk it could load", async () => {
    const modules = Object.keys(teamManifest);
    expect(modules.filter((module) => /posthog|consent|src\/pages\/(?!team\/)|src\/hydrate\.tsx/i.test(module))).toEqual([]);
    for (const module of Object.values(PAGE_MODULES)) expect(modules).not.toContain(module);
    const markers = { 'the PostHog SDK': '$pageleave', 'the session recorder': 'rrweb', 'the consent machine': 'consent.optOut', 'the site app': 'Do Not Sell' };
    for (const chunk of Object.values(teamManifest)) {
      if (!chunk.file.endsWith('.js')) continue;
      const text = await builtFile(teamDir, chunk.file);
      for (const [what, marker] of Object.entries(markers)) expect(text.includes(marker), `${what} in ${chunk.file}`).toBe(false);
    }
  });

  it("the site's build holds nothing of the console: no module, no chunk", async () => {
    expect(Object.keys(manifest).filter((module) => /team/i.test(module))).toEqual([]);
    for (const chunk of Object.values(manifest)) {
      if (chunk.file.endsWith('.js')) expect((await builtFile(outDir, chunk.file)).includes('Sign in with a passkey'), chunk.file).toBe(false);
    }
    // the markers above are found where they belong, so their absence means something
    const site = await Promise.all(Object.values(manifest).filter((chunk) => chunk.file.endsWith('.js')).map((chunk) => builtFile(outDir, chunk.file)));
    for (const marker of ['$pageleave', 'consent.optOut', 'Do Not Sell']) expect(site.some((text) => text.includes(marker)), marker).toBe(true);
  });
});
