import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, inject } from 'vitest';
import { PGLITE_NODE_FLAGS } from './nodeFlags.ts';

/**
 * The server as a separate Node process: server/main.ts, what `npm start` runs after the build, compiled
 * once for the whole run (scripts/serverBundle.mjs, as `npm run build` bundles it) rather than by tsx in every process.
 */
export interface ServerProcess {
  child: ChildProcess;
  /** the address it listens on (the `listening` line's `listen`) */
  url: string;
  /** the public origin it prints as the address to open (the `listening` line's `url`) */
  publicOrigin: string;
  /** every JSON log line the process printed so far */
  logs: Array<Record<string, unknown>>;
  /** resolves with the exit code (or the signal's name) once the process has ended */
  exited: Promise<number | string>;
}

/**
 * Starts `server/main.ts` in a child process on a free port, and resolves once its `listening` log
 * line names its addresses. The child gets this process's environment without `DATABASE_URL` (so that
 * it runs on PGlite unless `env` names a database), plus `env`.
 * @param options - `entry`: the server's bundle to run (default: the one bundled for this test run); `cwd`: its working directory
 * @throws when the process exits or prints nothing within `timeoutMs`
 */
export function spawnServer(
  env: Record<string, string>,
  timeoutMs = 30_000,
  { entry = inject('entries').server, cwd }: { entry?: string; cwd?: string } = {},
): Promise<ServerProcess> {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [...PGLITE_NODE_FLAGS, entry], {
    ...(cwd ? { cwd } : {}),
    // mail written as .eml files into a directory of the test's own, never .data/mail
    env: { ...inherited, PORT: '0', SONDE_LOG_LEVEL: 'info', SONDE_MAIL_DIR: mkdtempSync(join(tmpdir(), 'sonde-mail-')), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${stderr} ${JSON.stringify(logs)}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'listening') {
          clearTimeout(timer);
          resolve({ child, url: String(entry.listen), publicOrigin: String(entry.url), logs, exited });
        }
      } catch {
        // not a log line (tsx or Node printing): ignored
      }
    });
  });
}

/**
 * Registers, in the calling `describe` (or file), an `afterEach` that kills with SIGKILL every server
 * process the returned function started during the test, so that a test that fails midway leaves no
 * process holding its port or its PGlite directory. The returned function is {@link spawnServer} with
 * its default time to start (30 s): it rejects when the process exits or prints no `listening` line by then.
 */
export function serversKilledAfterEach(): (env: Record<string, string>) => Promise<ServerProcess> {
  const started: ServerProcess[] = [];
  afterEach(() => {
    for (const server of started.splice(0)) server.child.kill('SIGKILL');
  });
  return async (env) => {
    const server = await spawnServer(env);
    started.push(server);
    return server;
  };
}
