// @vitest-environment node
// The team's channel to a running server on PGlite (server/cli/teamChannel.ts): its body limit, its
// refusals, and what the command line concludes when nothing listens.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  askRunningServer,
  serveTeamChannel,
  TEAM_COMMAND_MAX_BYTES,
  TEAM_COMMAND_PATH,
  TEAM_SOCKET_FILE,
  UNIX_SOCKET_PATH_MAX_BYTES,
  type TeamChannel,
  type TeamCommand,
} from '../../server/cli/teamChannel.ts';

/** POSTs `body` as it is to the channel in `dir`; resolves with the status. */
function post(dir: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { socketPath: join(dir, TEAM_SOCKET_FILE), method: 'POST', path: TEAM_COMMAND_PATH, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A command whose JSON body is exactly `bytes` long. */
function commandOfBytes(bytes: number): string {
  const empty = JSON.stringify({ argv: ['list', ''], user: 'kim' } satisfies TeamCommand);
  return JSON.stringify({ argv: ['list', 'x'.repeat(bytes - Buffer.byteLength(empty))], user: 'kim' });
}

describe('the team channel', () => {
  let channel: TeamChannel | undefined;
  afterEach(async () => {
    await channel?.close();
    channel = undefined;
  });

  it(`takes a command of ${TEAM_COMMAND_MAX_BYTES} bytes and refuses one of a byte more (413), running nothing`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sonde-team-'));
    const ran: TeamCommand[] = [];
    channel = await serveTeamChannel(dir, async (command) => {
      ran.push(command);
      return { out: ['ok'], err: [], code: 0 };
    });
    expect(Buffer.byteLength(commandOfBytes(TEAM_COMMAND_MAX_BYTES))).toBe(TEAM_COMMAND_MAX_BYTES);
    expect(await post(dir, commandOfBytes(TEAM_COMMAND_MAX_BYTES))).toBe(200);
    expect(await post(dir, commandOfBytes(TEAM_COMMAND_MAX_BYTES + 1))).toBe(413);
    expect(ran).toHaveLength(1);
  });

  it('refuses a body that is not a command, or a user name with an escape code (400), running nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sonde-team-'));
    const ran: TeamCommand[] = [];
    channel = await serveTeamChannel(dir, async (command) => {
      ran.push(command);
      return { out: [], err: [], code: 0 };
    });
    for (const body of ['not json', '{"argv":"list","user":"kim"}', '{"argv":["list"]}', JSON.stringify({ argv: ['list'], user: 'kim\u001b[2J' })]) {
      expect(await post(dir, body), body).toBe(400);
    }
    expect(ran).toEqual([]);
    await expect(askRunningServer(dir, { argv: ['list'], user: 'kim' })).resolves.toEqual({ out: [], err: [], code: 0 });
  });

  it('tells the command line that no server listens when there is no socket, or a file nobody listens on, so that it opens the directory itself', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sonde-team-'));
    await expect(askRunningServer(dir, { argv: ['list'], user: 'kim' })).resolves.toBeUndefined();
    channel = await serveTeamChannel(dir, async () => ({ out: [], err: [], code: 0 }));
    await channel.close(); // the socket file is gone with it
    await writeFile(join(dir, TEAM_SOCKET_FILE), ''); // not a socket: what a crash may leave is no server either
    await expect(askRunningServer(dir, { argv: ['list'], user: 'kim' })).resolves.toBeUndefined();
  });

  it('tells the command line that no server listens on a socket left by a server killed with SIGKILL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sonde-team-'));
    const path = join(dir, TEAM_SOCKET_FILE);
    const child = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => child.stdout!.once('data', resolve));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(existsSync(path)).toBe(true); // a socket file with nobody behind it
    await expect(askRunningServer(dir, { argv: ['list'], user: 'kim' })).resolves.toBeUndefined();
  });

  it(`listens on a socket path of ${UNIX_SOCKET_PATH_MAX_BYTES} bytes, and refuses one a byte longer, leaving no socket anywhere`, async () => {
    const base = await mkdtemp(join(tmpdir(), 'sonde-team-'));
    const dirOfSocketPath = async (bytes: number) => {
      const dir = join(base, 'd'.repeat(bytes - Buffer.byteLength(join(base, TEAM_SOCKET_FILE)) - 1));
      await mkdir(dir);
      expect(Buffer.byteLength(join(dir, TEAM_SOCKET_FILE))).toBe(bytes);
      return dir;
    };
    const fits = await dirOfSocketPath(UNIX_SOCKET_PATH_MAX_BYTES);
    channel = await serveTeamChannel(fits, async () => ({ out: ['ok'], err: [], code: 0 }));
    await expect(askRunningServer(fits, { argv: ['list'], user: 'kim' })).resolves.toEqual({ out: ['ok'], err: [], code: 0 });
    await channel.close();
    channel = undefined;

    const tooLong = await dirOfSocketPath(UNIX_SOCKET_PATH_MAX_BYTES + 1);
    const before = await readdir(base);
    await expect(serveTeamChannel(tooLong, async () => ({ out: [], err: [], code: 0 }))).rejects.toThrow(
      `is longer than ${UNIX_SOCKET_PATH_MAX_BYTES} bytes`,
    );
    expect(await readdir(tooLong)).toEqual([]); // Node would have cut the path and bound it elsewhere
    expect(await readdir(base)).toEqual(before);
    await expect(askRunningServer(tooLong, { argv: ['list'], user: 'kim' })).resolves.toBeUndefined();
  });

  it('gives the command line the answer that comes within its time limit, and an error saying it may have run when it does not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sonde-team-'));
    channel = await serveTeamChannel(dir, async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return { out: ['done'], err: [], code: 0 };
    });
    await expect(askRunningServer(dir, { argv: ['list'], user: 'kim' }, 2_000)).resolves.toEqual({ out: ['done'], err: [], code: 0 });
    await expect(askRunningServer(dir, { argv: ['list'], user: 'kim' }, 100)).rejects.toThrow(
      /^the running server did not answer \(no answer within 100 ms\): the command may or may not have been carried out/,
    );
  });

  it('closes a connection whose command has not arrived whole within the request time limit', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sonde-team-'));
    const ran: TeamCommand[] = [];
    channel = await serveTeamChannel(
      dir,
      async (command) => {
        ran.push(command);
        return { out: [], err: [], code: 0 };
      },
      { requestTimeoutMs: 500 },
    );
    const socket = connect(join(dir, TEAM_SOCKET_FILE));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST ${TEAM_COMMAND_PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"argv":`);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.once('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ran).toEqual([]);
  });
});
