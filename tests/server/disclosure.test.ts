// @vitest-environment node
// A person's data goes only to the address that asked (11 CCR §7060–§7062: verify the requester, and
// match their data to them). The mailbox rule (server/db/mailbox.ts `mailboxOf`: case, `+tag`, Gmail's
// dots, googlemail.com) counts the mail limits; it never decides whose data an answer carries. Each case:
// someone's invite request from one address, then a privacy request (Access/Know) from another spelling
// of its mailbox, verified and answered in full with the data attached, through the command line and
// through the console over real HTTP, and the mail the SMTP server receives.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SubmissionBody } from '#shared/submission';
import type { Database } from '../../server/db/database.ts';
import { privacyRecords } from '../../server/db/schema.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { freePort, smtpServer, until } from '../support/mailServer.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { privacyRequestBody, submissionBody } from '../support/submissionBody.ts';
import { enrolledClient } from '../support/teamClient.ts';

/** Someone's address, and another spelling of its mailbox that may be someone else's. */
const SPELLINGS = [
  { name: '+tag', owner: 'victim@corp.example', asker: 'victim+eve@corp.example' },
  { name: 'dotted Gmail', owner: 'adalovelace@gmail.com', asker: 'ada.lovelace@gmail.com' },
  { name: 'googlemail.com', owner: 'grace.hopper@gmail.com', asker: 'grace.hopper@googlemail.com' },
] as const;

/** An Access/Know request from `email`. */
function accessRequest(email: string): SubmissionBody {
  const body = privacyRequestBody();
  body.data.workEmail = email;
  body.data.fullName = 'Asker';
  body.data.useCaseDescription = 'CCPA Privacy Rights Request\nRequest types: Access/Know\nDetails: None provided';
  return body;
}

describe.each(testEngines())('the data attached to an answer on $name', (engine) => {
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let smtpPort: number;
  let distDir: string;
  let database: Database;
  let server: RunningServer;
  beforeAll(async () => {
    smtpPort = await freePort();
    smtp = await smtpServer(smtpPort);
    distDir = await writeStandInSite();
  });
  afterAll(async () => {
    await smtp.close();
  });
  beforeEach(async () => {
    smtp.received.length = 0;
    database = await engine.open();
    const config = testConfig(distDir);
    server = await startTestServer({ ...config, mail: { ...config.mail, smtpUrl: `smtp://127.0.0.1:${smtpPort}` } }, createLogger('silent'), { database });
  });
  afterEach(async () => {
    await server.stop();
    await database.close();
  });

  /** Stores the owner's invite request and the asker's privacy request; returns their ids. */
  const storeBoth = async (owner: string, asker: string) => ({
    invite: await storeSubmission(database.db, submissionBody({ workEmail: owner, fullName: 'Owner Of The Mailbox', companyName: 'Owner Co' })),
    privacy: await storeSubmission(database.db, accessRequest(asker)),
  });

  /** The JSON attached to the answer mailed to `to` for `id`, once the SMTP server has it. */
  const attachedTo = async (to: string) => {
    const answer = () => smtp.received.find((r) => r.mail.subject === 'Our answer to your privacy request' && r.to.some((address) => address.toLowerCase() === to.toLowerCase()));
    await until(() => answer() !== undefined, 30_000);
    const mail = answer()!.mail;
    expect(mail.attachments).toHaveLength(1);
    return mail.attachments[0]!.content.toString('utf8');
  };

  it.each(SPELLINGS)('respond --attach-subject mails the asker only their own request, not the $name spelling\'s invite request', async ({ owner, asker }) => {
    const { invite, privacy } = await storeBoth(owner, asker);
    const { run } = teamCli(() => database);
    expect(await run(['verify', privacy])).toBe(0);
    expect(await run(['respond', privacy, '--outcome', 'complied', '--attach-subject'])).toBe(0);
    const text = await attachedTo(asker);
    const data = JSON.parse(text) as { email: string; requests: Array<{ id: string }> };
    expect(data.email).toBe(asker);
    expect(data.requests.map((r) => r.id)).toEqual([privacy]);
    expect(text).not.toContain(invite);
    expect(text).not.toMatch(/Owner Of The Mailbox|Owner Co/);
    expect(smtp.received.filter((r) => r.to.includes(owner))).toEqual([]);
  }, 60_000);

  it.each(SPELLINGS)('the console\'s respond with attachSubject mails the asker only their own request, not the $name spelling\'s', async ({ owner, asker }) => {
    const { invite, privacy } = await storeBoth(owner, asker);
    const client = await enrolledClient(server, database.db);
    expect((await client.call('POST', '/privacy/verify', { body: { id: privacy, from: 'unverified' } })).status).toBe(200);
    expect((await client.call('POST', '/privacy/respond', { body: { id: privacy, from: 'verified', outcome: 'complied', attachSubject: true } })).status).toBe(200);
    const text = await attachedTo(asker);
    expect((JSON.parse(text) as { requests: Array<{ id: string }> }).requests.map((r) => r.id)).toEqual([privacy]);
    expect(text).not.toContain(invite);
    expect(text).not.toMatch(/Owner Of The Mailbox|Owner Co/);
    const [record] = await database.db.select().from(privacyRecords).where(eq(privacyRecords.id, privacy));
    expect(record).toMatchObject({ outcome: 'complied' });
  }, 60_000);

  it("attaches every request of the asker's own address, its domain in any case, and not the local part in another case", async () => {
    const earlier = await storeSubmission(database.db, submissionBody({ workEmail: 'noor@Example.com' }));
    const otherCase = await storeSubmission(database.db, submissionBody({ workEmail: 'Noor@example.com' }));
    const privacy = await storeSubmission(database.db, accessRequest('noor@EXAMPLE.com'));
    const { run } = teamCli(() => database);
    expect(await run(['verify', privacy])).toBe(0);
    expect(await run(['respond', privacy, '--outcome', 'complied', '--attach-subject'])).toBe(0);
    const data = JSON.parse(await attachedTo('noor@EXAMPLE.com')) as { requests: Array<{ id: string }> };
    expect(data.requests.map((r) => r.id).sort()).toEqual([earlier, privacy].sort());
    expect(JSON.stringify(data)).not.toContain(otherCase);
  }, 60_000);
});
