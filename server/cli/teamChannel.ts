// The team's command line and a running server on PGlite: PGlite is one process per data directory,
// so while a server holds the directory, `npm run requests` asks that server to run the command. The
// server runs it in-process, as one transaction of its own PGlite (server/cli/requests.ts), so no other
// session's statements come between the command's reads and writes. The channel is a unix socket in
// the data directory, which only the server's user can enter (PGLITE_DIR_MODE) and only it can open.
// Hono and zod are imported where they are used: the command line that only asks the server
// (server/cli/main.ts) starts without them.
import { chmod, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { textProblem } from '#shared/text';
import { TIMEOUT_CHECK_INTERVAL_MS } from '../limits.ts';

/** The unix socket of the team's channel, inside PGlite's data directory. */
export const TEAM_SOCKET_FILE = '.sonde-team.sock';

/** The socket's mode: read and write for the server's user only (`rw-------`). */
const TEAM_SOCKET_MODE = 0o600;

/** The largest command the channel takes, in bytes of its JSON body (the arguments and the user name). */
export const TEAM_COMMAND_MAX_BYTES = 65_536;

/** The path the command is POSTed to. */
export const TEAM_COMMAND_PATH = '/commands';

/**
 * The longest path of a unix socket, in bytes: `sun_path` holds 108 on Linux, with its closing NUL.
 * Node cuts a longer path when it binds, which would put the socket outside the data directory.
 */
export const UNIX_SOCKET_PATH_MAX_BYTES = 107;

/**
 * How long the command line waits for the running server's answer, in ms. A command on 100,000 stored
 * requests (an export) answers within seconds; past this the server is taken to be stopped or stuck.
 */
const TEAM_COMMAND_TIMEOUT_MS = 120_000;

/** How long the channel waits for a command's request to arrive whole, headers and body, in ms. */
const TEAM_REQUEST_TIMEOUT_MS = 10_000;

/** A command of `npm run requests`: its arguments (after `requests`) and who runs it (the OS user name). */
export interface TeamCommand {
  argv: string[];
  user: string;
}

/** What the command printed, line by line as the command line prints them, and its exit code. */
export interface TeamAnswer {
  out: string[];
  err: string[];
  code: number;
}

/** The channel's two bodies, as zod schemas: a {@link TeamCommand} and a {@link TeamAnswer}. */
const schemas = async () => {
  const { z } = await import('zod');
  return {
    teamCommand: z.object({
      argv: z.array(z.string()),
      user: z.string().refine((user) => textProblem(user, { required: true }) === null, 'the user name breaks the text rule'),
    }),
    teamAnswer: z.object({ out: z.array(z.string()), err: z.array(z.string()), code: z.number().int() }),
  };
};

/** The team's channel, served: where, and how to stop it (after the commands in flight). */
export interface TeamChannel {
  path: string;
  close(): Promise<void>;
}

/**
 * Serves the team's channel on {@link TEAM_SOCKET_FILE} in `dir` (mode {@link TEAM_SOCKET_MODE}):
 * `POST /commands` with a {@link TeamCommand} as JSON → `200` with the {@link TeamAnswer} of `run`;
 * `400` for a body that is not one, `413` past {@link TEAM_COMMAND_MAX_BYTES}, `404` elsewhere. A socket
 * file left by a killed server is replaced (the caller holds the directory's lock).
 * @throws the listen error, e.g. for a path past the 107 bytes of a unix socket's address
 */
export async function serveTeamChannel(
  dir: string,
  run: (command: TeamCommand) => Promise<TeamAnswer>,
  options: { requestTimeoutMs?: number } = {},
): Promise<TeamChannel> {
  const path = teamSocketPath(dir);
  if (path === undefined) {
    throw new Error(`the team channel's socket path in ${dir} is longer than ${UNIX_SOCKET_PATH_MAX_BYTES} bytes (a unix socket's limit)`);
  }
  const [{ createAdaptorServer }, { Hono }, { bodyLimit }, { teamCommand: teamCommandSchema }] = await Promise.all([
    import('@hono/node-server'),
    import('hono'),
    import('hono/body-limit'),
    schemas(),
  ]);
  await rm(path, { force: true });
  const app = new Hono();
  app.post(
    TEAM_COMMAND_PATH,
    bodyLimit({ maxSize: TEAM_COMMAND_MAX_BYTES, onError: (c) => c.json({ error: `a command is at most ${TEAM_COMMAND_MAX_BYTES} bytes` }, 413) }),
    async (c) => {
      const body: unknown = await c.req.json().catch(() => undefined);
      const command = teamCommandSchema.safeParse(body);
      if (!command.success) return c.json({ error: 'expected {"argv": [strings], "user": string}' }, 400);
      return c.json(await run(command.data));
    },
  );
  app.all('*', (c) => c.json({ error: 'not found' }, 404));
  const requestTimeoutMs = options.requestTimeoutMs ?? TEAM_REQUEST_TIMEOUT_MS;
  const server = createAdaptorServer({ fetch: app.fetch, serverOptions: { requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS } });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  try {
    await chmod(path, TEAM_SOCKET_MODE);
  } catch (error) {
    server.close();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    path,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // a connection idle or half-sent is not a command in flight: it is not waited for
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      })),
  };
}

/** The channel's socket in `dir`, or `undefined` when its path is past {@link UNIX_SOCKET_PATH_MAX_BYTES}. */
function teamSocketPath(dir: string): string | undefined {
  const path = join(dir, TEAM_SOCKET_FILE);
  return Buffer.byteLength(path) > UNIX_SOCKET_PATH_MAX_BYTES ? undefined : path;
}

/**
 * Asks the server holding PGlite's directory `dir` to run `command`, over its team channel.
 * @param timeoutMs - how long to wait for the answer (default {@link TEAM_COMMAND_TIMEOUT_MS})
 * @returns its answer; `undefined` when no server listens there (no socket, one left by a killed
 *   server, or a path too long for one): nothing was sent, so the caller may open the directory itself
 * @throws Error "could not reach…: nothing was sent" when the socket refuses this user (EACCES);
 *   Error "…may or may not have been carried out" when the server was reached but did not answer the
 *   command within `timeoutMs` or at all (it stopped meanwhile, it refused the body): it must not be run
 *   again blindly
 */
export async function askRunningServer(dir: string, command: TeamCommand, timeoutMs = TEAM_COMMAND_TIMEOUT_MS): Promise<TeamAnswer | undefined> {
  const body = JSON.stringify(command);
  const socketPath = teamSocketPath(dir);
  if (socketPath === undefined) return undefined; // the server cannot have listened there either
  const text = await new Promise<string | undefined>((resolve, reject) => {
    let connected = false;
    const request = httpRequest(
      {
        socketPath,
        timeout: timeoutMs,
        method: 'POST',
        path: TEAM_COMMAND_PATH,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => reject(notAnswered(error.message)));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== 200) return reject(new Error(`the running server refused the command (${response.statusCode}: ${text})`));
          resolve(text);
        });
      },
    );
    request.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (connected) return reject(notAnswered(error.message));
      // no socket, or nobody behind it: the connection was never made, so nothing was sent
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') return resolve(undefined);
      reject(new Error(`could not reach the running server's team channel (${error.code ?? error.message}): nothing was sent; run the command as the server's user`));
    });
    request.end(body);
  });
  if (text === undefined) return undefined;
  const { teamAnswer } = await schemas();
  try {
    return teamAnswer.parse(JSON.parse(text));
  } catch {
    throw notAnswered('its answer was not a command answer');
  }
}

function notAnswered(why: string): Error {
  return new Error(`the running server did not answer (${why}): the command may or may not have been carried out; check with list or show before running it again`);
}
