// @vitest-environment node
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPILE_HINT } from '../../vite.config';
import { firstLoadChunks, PAGE_MODULES } from '../../scripts/build.mjs';
import { consentMachine } from '#machines/consentMachine';
import { inviteMachine } from '#machines/inviteMachine';
import { optOutToastMachine } from '#machines/optOutToastMachine';
import { verifyMachine } from '#machines/verifyMachine';

// A real production build, as `npm start` makes it, checked for what it must not ship.
let outDir: string;
let files: Map<string, string>;
let entry: string;
let manifest: Record<string, unknown>;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'sonde-build-'));
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle and set DEV.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: 'vite.config.ts', mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true, manifest: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  files = new Map();
  for (const name of await readdir(join(outDir, 'assets'))) {
    if (name.endsWith('.js')) files.set(name, await readFile(join(outDir, 'assets', name), 'utf8'));
  }
  manifest = JSON.parse(await readFile(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, unknown>;
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  entry = /<script type="module" crossorigin src="\/assets\/([^"]+\.js)"/.exec(html)?.[1] ?? '';
}, 120_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('production bundle', () => {
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
