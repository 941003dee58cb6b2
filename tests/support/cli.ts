import { execFile } from 'node:child_process';
import { inject } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { runRequests } from '../../server/cli/requests.ts';
import { PGLITE_NODE_FLAGS } from './nodeFlags.ts';

/**
 * The team's command line (`npm run requests`, server/cli/requests.ts) on `database()`, in-process:
 * `run(argv, now)` resolves with the exit code; what it printed is in `io.out` / `io.err`, emptied at
 * each run. `user` is who it runs as (`--by`'s default); `mailDir` the server's `.eml` directory;
 * `events`: decisions write their signed event too (as with `SONDE_EVENTS_WEBHOOK_URL` set); `publicOrigin`:
 * where enrollment links point; `mailFrom`: the sender of their mail (`Sonde <hello@sonde.dev>` by default).
 */
export function teamCli(database: () => Database, options: { user?: string; mailDir?: string; events?: boolean; publicOrigin?: string; mailFrom?: string } = {}) {
  const io = { out: [] as string[], err: [] as string[] };
  const run = (argv: string[], now = new Date()) => {
    io.out.length = 0;
    io.err.length = 0;
    return runRequests(argv, {
      connect: async () => ({ db: database().db, via: 'directory', close: async () => {} }),
      out: (text) => void io.out.push(text),
      err: (text) => void io.err.push(text),
      now: () => now,
      user: options.user ?? 'kim',
      ...(options.mailDir ? { mailDir: options.mailDir } : {}),
      ...(options.events ? { events: options.events } : {}),
      ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}),
      mailFrom: options.mailFrom ?? 'Sonde <hello@sonde.dev>',
    });
  };
  return { io, run };
}

/** What one run of `npm run requests` as a process printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `server/cli/main.ts` as `npm run requests` does, in a process of its own, with `env` over this
 * process's environment (`DATABASE_URL: ''` for PGlite), in `options.cwd` if given. Never rejects: a failure is its exit code.
 * The entry is compiled once for the whole run (scripts/serverBundle.mjs, as `npm run build` bundles it) rather than by tsx in every
 * process; tests/server/requests.test.ts runs it under tsx too.
 */
export function cliProcess(argv: string[], env: Record<string, string>, options: { cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...PGLITE_NODE_FLAGS, inject('entries').cli, ...argv], { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, ...options }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
