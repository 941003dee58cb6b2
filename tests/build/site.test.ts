// @vitest-environment node
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { readSecurityHeaders } from '../../server/securityHeaders.ts';

// `npm run build` as a site owner runs it: the prerendered pages and the headers for every host.
const outDirs: string[] = [];
afterEach(async () => {
  await Promise.all(outDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function build(env: Record<string, string>) {
  const outDir = await mkdtemp(join(tmpdir(), 'sonde-site-'));
  outDirs.push(outDir);
  // in its own process, as `npm run build` runs (Vitest's NODE_ENV=test would mix React builds)
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/build.mjs', '--outDir', outDir], {
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true', ...env },
  });
  const printed = [...stdout.split('\n'), ...stderr.split('\n').map((line) => `warn: ${line}`)];
  return { outDir, printed };
}

describe('npm run build', () => {
  it('allows exactly the inlined stylesheet of every page by its hash, and the calls of spec §7', async () => {
    const { outDir, printed } = await build({ VITE_SUBMIT_ENDPOINT: '', VITE_POSTHOG_KEY: '' });
    const headers = await readSecurityHeaders(outDir);
    const csp = headers['Content-Security-Policy']!;
    const pages = (await readdir(outDir)).filter((name) => name.endsWith('.html'));
    expect(pages.sort()).toEqual(['404.html', 'index.html', 'privacy-request.html', 'privacy.html', 'terms.html', 'thank-you.html']);
    for (const page of pages) {
      const html = await readFile(join(outDir, page), 'utf8');
      const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      expect(styles, page).toHaveLength(1);
      const hash = createHash('sha256').update(styles[0]!).digest('base64');
      expect(csp, page).toContain(`'sha256-${hash}'`);
      expect(html, page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    }
    expect(csp).toContain("connect-src 'self' https://api.ipify.org;");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);

    // the same headers for static hosts, and clean URLs on Vercel
    const netlify = await readFile(join(outDir, '_headers'), 'utf8');
    expect(netlify).toContain(`  Content-Security-Policy: ${csp}\n`);
    expect(JSON.parse(await readFile(join(outDir, 'vercel.json'), 'utf8'))).toMatchObject({ cleanUrls: true });

    expect(printed).toContain('submission endpoint (VITE_SUBMIT_ENDPOINT): /api/submissions');
    expect(printed.some((line) => line.startsWith('warn: warning: the forms POST to the relative path /api/submissions'))).toBe(true);
  }, 120_000);

  it('with an absolute endpoint and a PostHog key, allows their origins and does not warn', async () => {
    const { outDir, printed } = await build({
      VITE_SUBMIT_ENDPOINT: 'https://api.sonde.dev/api/submissions',
      VITE_POSTHOG_KEY: 'phc_test',
      VITE_POSTHOG_HOST: 'https://eu.i.posthog.com',
    });
    const csp = (await readSecurityHeaders(outDir))['Content-Security-Policy']!;
    expect(csp).toContain("connect-src 'self' https://api.sonde.dev https://api.ipify.org https://eu.i.posthog.com;");
    expect(printed).toContain('submission endpoint (VITE_SUBMIT_ENDPOINT): https://api.sonde.dev/api/submissions');
    expect(printed.filter((line) => line.includes('relative path'))).toEqual([]);
  }, 120_000);
});
