import { mkdtempSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../../server/config.ts';
import { netlifyHeadersFile, securityHeaders, vercelConfig } from '../../server/http/securityHeaders.ts';
import { DEFAULT_TEAM_DIGEST_HOUR, TEAM_AUTH_ATTEMPTS_PER_MINUTE } from '../../server/limits.ts';

/** The headers the stand-in build below was "built" with. */
export const builtHeaders = securityHeaders({ styleHashes: ['sha256-dGVzdA=='], scriptHashes: ['sha256-c2NyaXB0'], connectOrigins: ['https://api.ipify.org'] });

/**
 * A small stand-in for `dist/` as scripts/build.mjs writes it: pages, the not-found page, one hashed
 * asset, `.well-known/`, and the host configuration files. The real build is served in tests/e2e/.
 * @returns the directory
 */
export async function writeStandInSite(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sonde-dist-'));
  await mkdir(join(dir, 'assets'));
  await mkdir(join(dir, '.well-known'));
  const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
  await writeFile(join(dir, 'index.html'), page('Home'));
  await writeFile(join(dir, 'privacy.html'), page('Privacy Policy'));
  await writeFile(join(dir, '404.html'), page('Page not found'));
  await writeFile(join(dir, 'team.html'), page('Sonde team console'));
  await writeFile(join(dir, 'assets', 'index-AbC123.js'), 'console.log("app")');
  await writeFile(join(dir, 'robots.txt'), 'User-agent: *\nAllow: /\n');
  await writeFile(join(dir, '.well-known', 'gpc.json'), '{"gpc":true}');
  await writeFile(join(dir, '_headers'), netlifyHeadersFile(builtHeaders));
  await writeFile(join(dir, 'vercel.json'), JSON.stringify(vercelConfig(builtHeaders)));
  return dir;
}

/** A server configuration for tests: any free port, the stand-in site, no rate limit to speak of. */
export function testConfig(distDir: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    database: { pgliteDir: 'memory://' },
    distDir,
    rateLimitPerMinute: 1000,
    teamAuthAttemptsPerMinute: TEAM_AUTH_ATTEMPTS_PER_MINUTE,
    trustProxy: false,
    trustedProxyHops: 1,
    publicOrigin: undefined,
    allowedOrigins: undefined,
    announceWebhookUrl: undefined,
    events: undefined,
    // mail written as .eml files into a directory of the test's own, never .data/mail
    mail: { smtpUrl: undefined, emlDir: mkdtempSync(join(tmpdir(), 'sonde-mail-')), from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: undefined },
    teamDigestHour: DEFAULT_TEAM_DIGEST_HOUR,
    ...overrides,
  };
}
