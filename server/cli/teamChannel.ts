// The team's command line and a running server on PGlite: PGlite is one process per data directory,
// so while a server holds the directory, `npm run requests` asks that server to run the command. The
// server runs it in-process, as one transaction of its own PGlite (server/cli/requests.ts), so no other
// session's statements come between the command's reads and writes. The channel is a unix socket in
// the data directory, which only the server's user can enter (PGLITE_DIR_MODE) and only it can open.
import { chmod, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { textProblem } from '#shared/text';

/** The unix socket of the team's channel, inside PGlite's data directory. */
export const TEAM_SOCKET_FILE = '.sonde-team.sock';

/** The socket's mode: read and write for the server's user only (`rw-------`). */
export const TEAM_SOCKET_MODE = 0o600;

/** The largest command the channel takes, in bytes of its JSON body (the arguments and the user name). */
export const TEAM_COMMAND_MAX_BYTES = 65_536;

/** The path the command is POSTed to. */
export const TEAM_COMMAND_PATH = '/commands';

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

const teamCommandSchema = z.object({
  argv: z.array(z.string()),
  user: z.string().refine((user) => textProblem(user, { required: true }) === null, 'the user name breaks the text rule'),
});

const teamAnswerSchema = z.object({ out: z.array(z.string()), err: z.array(z.string()), code: z.number().int() });

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
export async function serveTeamChannel(dir: string, run: (command: TeamCommand) => Promise<TeamAnswer>): Promise<TeamChannel> {
  const path = join(dir, TEAM_SOCKET_FILE);
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
  const server = createAdaptorServer({ fetch: app.fetch });
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
    close: () => (closed ??= new Promise<void>((resolve) => server.close(() => resolve()))),
  };
}

/**
 * Asks the server holding PGlite's directory `dir` to run `command`, over its team channel.
 * @returns its answer; `undefined` when no server listens there (no socket, or one left by a killed
 *   server): nothing was sent, so the caller may open the directory itself
 * @throws Error when the server was reached but did not answer the command (it stopped meanwhile, it
 *   refused the body): the command may or may not have been carried out, so it must not be run again
 */
export function askRunningServer(dir: string, command: TeamCommand): Promise<TeamAnswer | undefined> {
  const body = JSON.stringify(command);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        socketPath: join(dir, TEAM_SOCKET_FILE),
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
          try {
            resolve(teamAnswerSchema.parse(JSON.parse(text)));
          } catch {
            reject(notAnswered('its answer was not a command answer'));
          }
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      // no socket, or nobody behind it: the connection was never made, so nothing was sent
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined);
      else reject(notAnswered(error.message));
    });
    request.end(body);
  });
}

function notAnswered(why: string): Error {
  return new Error(`the running server did not answer (${why}): the command may or may not have been carried out; check with list or show before running it again`);
}
