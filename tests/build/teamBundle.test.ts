// @vitest-environment node
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeamClient, firstLoadChunks, PAGE_MODULES, TEAM_APP_MODULE, TEAM_ROUTE } from '../../scripts/build.mjs';

// The team console is its own build (scripts/build.mjs buildTeamClient: src/main.tsx with __TEAM_BUILD__
// true), and the site's build holds nothing of it: DESIGN.md §4, "/team first load ≤ 160 KB gzip, never
// PostHog", and every public route's first load as it was.

/** DESIGN.md §4: the console's first load, KB (1,024 bytes) of gzip JavaScript. */
const TEAM_FIRST_LOAD_BUDGET_KB = 160;

let teamDir: string;
let siteDir: string;
let teamManifest: Record<string, { file: string; isEntry?: boolean; dynamicImports?: string[] }>;
let siteManifest: Record<string, { file: string }>;

/** Runs `work` with NODE_ENV=production (Vitest's `test` would make Vite build React's development bundle). */
async function inProduction<T>(work: () => Promise<T>): Promise<T> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await work();
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

const code = (dir: string, file: string) => readFile(join(dir, file), 'utf8');

beforeAll(async () => {
  teamDir = await mkdtemp(join(tmpdir(), 'sonde-team-build-'));
  siteDir = await mkdtemp(join(tmpdir(), 'sonde-site-build-'));
  teamManifest = (await inProduction(() => buildTeamClient({ outDir: teamDir, logLevel: 'error' }))) as typeof teamManifest;
  await inProduction(() => build({ configFile: 'vite.config.ts', mode: 'production', logLevel: 'error', build: { outDir: siteDir, emptyOutDir: true, manifest: true } }));
  siteManifest = JSON.parse(await code(siteDir, '.vite/manifest.json')) as typeof siteManifest;
}, 180_000);

afterAll(async () => {
  await Promise.all([teamDir, siteDir].map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the team console's build", () => {
  it(`loads the console's app at first, within ${TEAM_FIRST_LOAD_BUDGET_KB} KB gzip`, async () => {
    const files = firstLoadChunks(teamManifest, TEAM_ROUTE, TEAM_APP_MODULE);
    expect(files).toContain(teamManifest[TEAM_APP_MODULE]!.file);
    let gzip = 0;
    for (const file of files) gzip += gzipSync(await code(teamDir, file), { level: 9 }).length;
    const kb = gzip / 1024;
    console.info(`[bundle] /team first load: ${files.length} files, ${kb.toFixed(1)} KB gzip`);
    expect(kb).toBeLessThanOrEqual(TEAM_FIRST_LOAD_BUDGET_KB);
    // its page's HTML loads its entry
    expect(await code(teamDir, 'index.html')).toContain(`src="/${Object.values(teamManifest).find((chunk) => chunk.isEntry)!.file}"`);
  });

  it("holds no module of PostHog, the consent machine or the site's pages, in any chunk it could load", async () => {
    const modules = Object.keys(teamManifest);
    expect(modules.filter((module) => /posthog|consent|src\/pages\/(?!team\/)|src\/hydrate\.tsx/i.test(module))).toEqual([]);
    for (const module of Object.values(PAGE_MODULES)) expect(modules).not.toContain(module);
    const markers = { 'the PostHog SDK': '$pageleave', 'the session recorder': 'rrweb', 'the consent machine': 'consent.optOut', 'the site app': 'Do Not Sell' };
    for (const chunk of Object.values(teamManifest)) {
      if (!chunk.file.endsWith('.js')) continue;
      const text = await code(teamDir, chunk.file);
      for (const [what, marker] of Object.entries(markers)) expect(text.includes(marker), `${what} in ${chunk.file}`).toBe(false);
    }
  });

  it("the site's build holds nothing of the console: no module, no chunk", async () => {
    expect(Object.keys(siteManifest).filter((module) => /team/i.test(module))).toEqual([]);
    for (const chunk of Object.values(siteManifest)) {
      if (chunk.file.endsWith('.js')) expect((await code(siteDir, chunk.file)).includes('Sign in with a passkey'), chunk.file).toBe(false);
    }
    // the markers above are found where they belong, so their absence means something
    const site = await Promise.all(Object.values(siteManifest).filter((chunk) => chunk.file.endsWith('.js')).map((chunk) => code(siteDir, chunk.file)));
    for (const marker of ['$pageleave', 'consent.optOut', 'Do Not Sell']) expect(site.some((text) => text.includes(marker)), marker).toBe(true);
  });
});
