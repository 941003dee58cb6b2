// @vitest-environment node
// The team's channel to a running server on PGlite (server/cli/teamChannel.ts): its body limit, its
// refusals, and what the command line concludes when nothing listens.
import { request as httpRequest } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askRunningServer, serveTeamChannel, TEAM_COMMAND_MAX_BYTES, TEAM_COMMAND_PATH, TEAM_SOCKET_FILE, type TeamChannel, type TeamCommand } from '../../server/cli/teamChannel.ts';

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
});
