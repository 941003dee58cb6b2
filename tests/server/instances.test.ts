// @vitest-environment node
// Two server processes on one PostgreSQL, as README "Deploying" → "Several instances" runs them, with
// bursts sent to both at the same moment: the limits that the README says are counted in the database
// (the per-client rate limit, the invite acknowledgment per mailbox) hold across the instances, and every
// request answered 201 is stored once. Needs PostgreSQL (PGlite cannot be shared between processes):
// skipped without DATABASE_URL, which CI sets (.ci/run).
import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { and, count, eq, isNull } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH, type SubmissionBody } from '#shared/submission';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, MAIL_LIMITS, MAX_SUBMISSIONS_PER_CLIENT } from '../../server/limits.ts';
import { mailboxOf, sha256Hex } from '../../server/db/mailbox.ts';
import { deliveries, submissions } from '../../server/db/schema.ts';
import { startInstances, type Instances } from '../support/instances.ts';
import { until } from '../support/mailServer.ts';
import { submissionBody } from '../support/submissionBody.ts';

/** Answers of one POST: its status and, when stored, the id it names. */
interface Answer {
  status: number;
  id?: string;
}

/** Bursts sent one after the other in each test: whether two instances' batches overlap is a matter of chance. */
const BURSTS = 3;

/**
 * POSTs a submission on a connection of its own (`agent: false`), as distinct visitors do: a connection
 * kept alive from an earlier burst could be closed by the server just as it is reused.
 */
const post = (url: string, body: SubmissionBody, key: string, client: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const request = httpRequest(`${url}${SUBMISSIONS_PATH}`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'idempotency-key': key, 'x-forwarded-for': client },
    });
    request.on('response', (response) => {
      let answer = '';
      response.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, id: (JSON.parse(answer) as { id?: string }).id }));
    });
    request.on('error', reject);
    request.end(text);
  });

describe.runIf(process.env.DATABASE_URL)('two instances on one PostgreSQL, bursts at both', () => {
  let instances: Instances;
  let a: string;
  let b: string;
  beforeAll(async () => {
    // the per-client rate limit at its default, 10 a minute; the client is the X-Forwarded-For address
    instances = await startInstances(2, { SONDE_TRUST_PROXY: 'true' });
    [a, b] = instances.servers.map((server) => server.url) as [string, string];
  }, 60_000);
  afterAll(() => instances?.stop());

  it('stores no more than the per-client rate limit from one client sending to both at once, each 201 stored once, the rest 429', async () => {
    // Each client sends as many to each instance as one instance lets it have under way at once (8), so
    // that no request is refused for that rather than for the rate limit: 16 for a limit of 10.
    // A race is lost or won by chance: several bursts, one after the other, of several clients each.
    const clients = Array.from({ length: BURSTS * 6 }, (_, n) => `198.51.100.${n + 1}`);
    const answers: Answer[][] = [];
    for (let burst = 0; burst < BURSTS; burst += 1) {
      answers.push(
        ...(await Promise.all(
          clients.slice(burst * 6, burst * 6 + 6).map((client) =>
            Promise.all(
              Array.from({ length: 2 * MAX_SUBMISSIONS_PER_CLIENT }, (_, i) =>
                post(i % 2 === 0 ? a : b, submissionBody(), `${client}-${i}`, client),
              ),
            ),
          ),
        )),
      );
    }
    const stored = await instances.database.db.select({ client_key: submissions.clientKey, id: submissions.id }).from(submissions);
    const perClient = clients.map((client, n) => {
      const rows = stored.filter((row) => row.client_key === sha256Hex(client)).map((row) => row.id);
      const created = answers[n]!.filter((answer) => answer.status === 201).map((answer) => answer.id!);
      return {
        stored: rows.length,
        created: created.length,
        refused: answers[n]!.filter((answer) => answer.status === 429).length,
        eachCreatedStoredOnce: created.every((id) => rows.filter((row) => row === id).length === 1),
        nothingElseStored: rows.every((id) => created.includes(id)),
      };
    });
    const held = {
      stored: DEFAULT_RATE_LIMIT_PER_MINUTE,
      created: DEFAULT_RATE_LIMIT_PER_MINUTE,
      refused: 2 * MAX_SUBMISSIONS_PER_CLIENT - DEFAULT_RATE_LIMIT_PER_MINUTE,
      eachCreatedStoredOnce: true,
      nothingElseStored: true,
    };
    expect(perClient).toEqual(clients.map(() => held));
  }, 30_000);

  it('sends one invite acknowledgment per mailbox whatever the spelling, four spellings to each instance at once', async () => {
    expect(MAIL_LIMITS.invitePerWindow).toBe(1);
    // case, +tag, Gmail's dots and googlemail.com: eight spellings of one mailbox, from eight clients
    const spellings = (n: number) => [
      `person${n}@gmail.com`,
      `Person${n}@Gmail.com`,
      `person${n}+beta@gmail.com`,
      `per.son${n}@gmail.com`,
      `person${n}@googlemail.com`,
      `p.e.rson${n}+x@googlemail.com`,
      `PERSON${n}@GMAIL.COM`,
      `person.${n}+sonde@gmail.com`,
    ];
    const mailboxes = Array.from({ length: BURSTS * 12 }, (_, n) => `person${n}@gmail.com`);
    const answers: Answer[] = [];
    for (let burst = 0; burst < BURSTS; burst += 1) {
      answers.push(
        ...(await Promise.all(
          mailboxes.slice(burst * 12, burst * 12 + 12).flatMap((_, m) => {
            const n = burst * 12 + m;
            // one client address each (10.n.i.1), so that the rate limit refuses none
            return spellings(n).map((email, i) => post(i % 2 === 0 ? a : b, submissionBody({ workEmail: email }), `ack-${n}-${i}`, `10.${n}.${i}.1`));
          }),
        )),
      );
    }
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));

    // what the mailboxes received: the .eml files both instances' senders wrote, once all are sent
    await until(async () => {
      const [row] = await instances.database.db
        .select({ waiting: count() })
        .from(deliveries)
        .where(and(eq(deliveries.channel, 'mail'), isNull(deliveries.deliveredAt)));
      return row!.waiting === 0;
    }, 20_000);
    const files = await readdir(instances.mailDir);
    const received = new Map<string, number>();
    for (const file of files) {
      const mail = await simpleParser(await readFile(join(instances.mailDir, file)));
      const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((address) => address?.value ?? []);
      const mailbox = mailboxOf(to[0]!.address!);
      // the requests of the rate limit's test are from ada@example.com
      if (mailbox.endsWith('@gmail.com')) received.set(mailbox, (received.get(mailbox) ?? 0) + 1);
    }
    expect(Object.fromEntries(received)).toEqual(Object.fromEntries(mailboxes.map((mailbox) => [mailbox, 1])));
  }, 40_000);
});
