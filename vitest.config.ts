import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import viteConfig from './vite.config.ts';
import { PGLITE_NODE_FLAGS } from './tests/support/nodeFlags.ts';

/** The site's test folders, run in jsdom. */
const BROWSER_TEST_DIRS = ['views', 'machines', 'services', 'model'];

/**
 * The site's test files that replace a module with `vi.mock`: a replacement holds only in a module graph
 * of the file's own, so these run isolated. Read from the files, so that a new one is found by itself.
 */
const filesThatMock = BROWSER_TEST_DIRS.flatMap((dir) =>
  readdirSync(join('tests', dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.test\.tsx?$/.test(name) && /\bvi\.(?:do)?mock\(/.test(readFileSync(join('tests', dir, name), 'utf8')))
    .map((name) => `tests/${dir}/${name}`),
);
const browserTests = `tests/{${BROWSER_TEST_DIRS.join(',')}}/**/*.test.{ts,tsx}`;

/**
 * The files that take longest by the clock, longest first: waits on slow SMTP peers, server and command
 * processes, production builds, fresh PGlite directories, or a long serial walk of model paths. Started
 * first, so that the other files fill the cores while they wait, instead of the run ending on one of them
 * (Vitest would otherwise start the projects' files in the order of their names, the node project's last,
 * on a clone without its cache of durations: the server's process and migration files, 20 s each, then
 * began after 150 s and the run ended on them alone).
 */
const LONGEST_FIRST = [
  'tests/server/slowMail.test.ts',
  'tests/server/requests.test.ts',
  'tests/build/site.test.ts',
  'tests/build/bundle.test.ts',
  'tests/model/teamQueue.model.test.tsx',
  'tests/server/outbox.test.ts',
  'tests/model/invite.model.test.tsx',
  'tests/server/process.test.ts',
  'tests/model/privacyRequest.model.test.tsx',
  'tests/server/requestsConcurrency.test.ts',
  'tests/server/migrations.test.ts',
  'tests/server/http.test.ts',
  'tests/views/inviteForm.test.tsx',
  'tests/model/consent.model.test.tsx',
  'tests/server/mail.test.ts',
];

/** Vitest's order, with {@link LONGEST_FIRST} moved to the front. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    return (await super.sort(files))
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order)
      .map(({ spec }) => spec);
  }
}

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      globals: true,
      css: true,
      restoreMocks: true,
      // fake-indexeddb (tests/setup.ts) runs on setImmediate: a fake clock leaves it alone, so IndexedDB
      // keeps working under vi.useFakeTimers() while the machines' delays stay on the fake clock.
      fakeTimers: { toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] },
      // Server tests start databases and processes; on a loaded 2-core CI machine 5 s is too tight.
      testTimeout: 15_000,
      hookTimeout: 30_000,
      // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, idle while a
      // server test waits on a socket, a child process or a slow SMTP peer. One per core, plus one to fill
      // those waits (a percentage is capped at the number of cores: '150%' gave 2 workers on 2 cores).
      maxWorkers: availableParallelism() + 1,
      sequence: { sequencer: LongestFirst },
      // Explicit includes, so that tests/e2e/*.spec.ts (Playwright) is never picked up (DESIGN.md §3).
      projects: [
        {
          extends: true,
          test: {
            name: 'browser',
            // The site in jsdom, its network answered by MSW (tests/setup.ts). The files of a worker share
            // one module graph and one jsdom window (about 2 s of CPU less per file): tests/setup.ts empties
            // the DOM, the storages, IndexedDB, MSW's handlers and the fake PostHog after each test.
            environment: 'jsdom',
            include: [browserTests],
            exclude: filesThatMock,
            setupFiles: ['tests/setup.ts'],
            isolate: false,
          },
        },
        {
          extends: true,
          test: {
            name: 'browser (vi.mock)',
            // The same, one module graph and window per file: the files whose vi.mock replaces a module.
            environment: 'jsdom',
            include: filesThatMock.length > 0 ? filesThatMock : ['tests/none'],
            setupFiles: ['tests/setup.ts'],
          },
        },
        {
          extends: true,
          test: {
            name: 'node',
            // The server over real HTTP, its storage, the build, the docs and the lint rules: no DOM, no MSW.
            // A worker's files share one module graph (about 1 s of CPU less per file): no test here replaces
            // a module, and each one closes the servers, databases and processes it starts.
            environment: 'node',
            isolate: false,
            // PGlite's WebAssembly compiled once, by V8's baseline compiler (tests/support/nodeFlags.ts)
            execArgv: [...PGLITE_NODE_FLAGS],
            include: ['tests/{server,docs,build,lint}/**/*.test.{ts,tsx}'],
            // One migrated database (PGlite, and PostgreSQL with DATABASE_URL) that test databases are copied from.
            globalSetup: ['tests/support/globalSetup.ts'],
          },
        },
      ],
    },
  }),
);
