// @vitest-environment node
// A team member's enrollment link, mailed through the outbox (server/db/team.ts, server/cli/team.ts,
// server/outbox/enrollmentMail.ts): written rendered in the transaction that makes the link, sent as it
// is on every attempt, its raw token kept only until it is delivered (as a privacy confirmation's
// verification link) or given up (at the latest once the link expired); a new link ends the earlier one
// and drops its waiting mail, as removing the member does; the member's mail is in no requester's export
// or erasure.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { deliveryIdsOf, eraseSubject, subjectExport } from '../../server/db/retention.ts';
import { deliveries, teamAudit, teamEnrollments, teamMembers } from '../../server/db/schema.ts';
import { TEAM_ENROLLMENT_TTL_MS } from '../../server/limits.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { mailChannel } from '../../server/outbox/mail.ts';
import { longDate } from '../../server/outbox/messages/layout.ts';
import { utcMinute } from '../../server/outbox/messages/teamEnrollment.ts';
import { startOutbox } from '../../server/outbox/sender.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { freePort, smtpServer, until } from '../support/mailServer.ts';
import { startTestServer } from '../support/server.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { submissionBody } from '../support/submissionBody.ts';
import { teamClient } from '../support/teamClient.ts';
import { cleanupAfterEach } from '../support/cleanup.ts';

const ORIGIN = 'https://sonde.dev';
const TOKEN = /\/team\/enroll#token=([A-Za-z0-9_-]{43})/;
const tokenOf = (text: string) => TOKEN.exec(text)?.[1];

describe.each(testEngines())('enrollment links mailed on $name', (engine) => {
  let database: Database;
  const cleanup = cleanupAfterEach();
  let distDir: string;

  beforeAll(async () => {
    distDir = await writeStandInSite();
  });
  beforeEach(async () => {
    database = await engine.open();
    cleanup.push(() => database.close()); // pushed first: closed after every other cleanup of the test
  });

  const memberRows = () => database.db.select().from(deliveries).orderBy(deliveries.createdAt);

  it('add: one mail to the member from the site, whose link registers a passkey; once sent, no copy of the token is left in the database, and no log line ever held it', async () => {
    const lines: string[] = [];
    const capture = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const config = testConfig(distDir);
    const server: RunningServer = await startTestServer(config, createLogger('debug', capture), { database });
    cleanup.push(() => server.stop());
    const { io, run } = teamCli(() => database, { publicOrigin: server.publicOrigin, user: 'ops' });

    expect(await run(['team', 'add', 'kim@sonde.dev', '--name', 'Kim Lee'])).toBe(0);
    const printed = tokenOf(io.out[0]!)!;
    expect(io.out[1]).toMatch(/mailed to them/);
    // no SMTP server set: the running server writes it to SONDE_MAIL_DIR, as all other mail
    await until(async () => (await memberRows())[0]?.deliveredAt != null); // marked once the file is whole (renamed from .tmp)
    const [file, ...others] = await readdir(config.mail.emlDir);
    expect(others).toEqual([]);
    const mail: ParsedMail = await simpleParser(await readFile(join(config.mail.emlDir, file!)));
    const [row] = await memberRows();
    const [kim] = await database.db.select().from(teamMembers).where(eq(teamMembers.email, 'kim@sonde.dev'));
    expect(row).toMatchObject({ memberId: kim!.id, submissionId: null, channel: 'mail', message: 'team-enrollment', rendered: null, attempts: 1 });
    expect(row!.deliveredAt).toBeInstanceOf(Date);
    expect(file).toBe(`${row!.id}.eml`);
    expect(mail.messageId).toBe(`<${row!.id}@sonde.dev>`);
    expect(mail.from?.value).toEqual([{ name: 'Sonde', address: 'hello@sonde.dev' }]);
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('kim@sonde.dev');
    expect(mail.subject).toBe('Your Sonde team console link');
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    const [enrollment] = await database.db.select().from(teamEnrollments);
    expect(mail.text).toContain(`${server.publicOrigin}/team/enroll#token=${printed}`);
    expect(mail.text).toContain(`works once and expires in 24 hours, on ${longDate(enrollment!.expiresAt)}, ${utcMinute(enrollment!.expiresAt).slice(11)}.`);
    expect(mail.text).toMatch(/If you did not expect this message, you can ignore it/);
    expect(mail.html).toContain(`href="${server.publicOrigin}/team/enroll#token=${printed}"`);

    const client = teamClient(server);
    const enrolled = await client.enroll(tokenOf(mail.text!)!);
    expect(enrolled.status).toBe(200);
    expect(enrolled.json).toEqual({ email: 'kim@sonde.dev', name: 'Kim Lee' });
    expect((await client.call('GET', '/requests')).status).toBe(200);

    // the token is nowhere in the database now (its SHA-256 only), nor in any log line
    for (const table of [deliveries, teamEnrollments, teamAudit]) expect(JSON.stringify(await database.db.select().from(table))).not.toContain(printed);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain(printed);
    expect(lines.join('')).not.toContain('kim@sonde.dev');
  });

  it("a member's mail is in no requester's timeline, export or erasure, even one of the same address", async () => {
    const { io, run } = teamCli(() => database, { publicOrigin: ORIGIN });
    const id = await storeSubmission(database.db, submissionBody({ workEmail: 'kim@sonde.dev' }), { mail: { requester: true, team: false } });
    expect(await run(['team', 'add', 'kim@sonde.dev'])).toBe(0);
    const rows = await memberRows();
    expect(rows.map((row) => row.message).sort()).toEqual(['invite-acknowledgment', 'team-enrollment']);
    const requesterRow = rows.find((row) => row.submissionId === id)!;
    expect(await run(['show', id])).toBe(0);
    expect(io.out.join('\n')).toContain('invite-acknowledgment');
    expect(io.out.join('\n')).not.toContain('team-enrollment');
    const exported = await subjectExport(database.db, 'kim@sonde.dev');
    expect(exported.notifications).toEqual([expect.objectContaining({ id: requesterRow.id })]);
    expect(await deliveryIdsOf(database.db, 'kim@sonde.dev')).toEqual([requesterRow.id]);
    expect(await eraseSubject(database.db, 'kim@sonde.dev')).toBe(1);
    expect((await memberRows()).map((row) => row.message)).toEqual(['team-enrollment']);
  });

  it('link twice: the first link no longer works and its waiting mail is dropped; remove drops the waiting mail; registering drops it too', async () => {
    const { io, run } = teamCli(() => database, { publicOrigin: ORIGIN });
    expect(await run(['team', 'add', 'kim@sonde.dev'])).toBe(0);
    const first = tokenOf(io.out[0]!)!;
    const [firstRow] = await memberRows();
    // kept for every attempt, as a confirmation's link
    expect((await simpleParser(firstRow!.rendered!)).text).toContain(`${ORIGIN}/team/enroll#token=${first}`);
    expect(await run(['team', 'link', 'kim@sonde.dev'])).toBe(0);
    expect(io.out[1]).toMatch(/earlier links of theirs no longer work/);
    const second = tokenOf(io.out[0]!)!;
    const rows = await memberRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(firstRow!.id);
    expect(tokenOf((await simpleParser(rows[0]!.rendered!)).text!)).toBe(second);

    expect(await run(['team', 'remove', 'kim@sonde.dev'])).toBe(0);
    expect(await memberRows()).toEqual([]);

    // over HTTP: the first link is refused, the second registers, and its waiting mail goes with it
    const server = await startTestServer(testConfig(distDir, { mail: { ...testConfig(distDir).mail, smtpUrl: 'smtp://127.0.0.1:9' } }), createLogger('silent'), { database });
    cleanup.push(() => server.stop());
    const cli = teamCli(() => database, { publicOrigin: server.publicOrigin });
    expect(await cli.run(['team', 'add', 'kim@sonde.dev'])).toBe(0);
    const third = tokenOf(cli.io.out[0]!)!;
    expect(await cli.run(['team', 'link', 'kim@sonde.dev'])).toBe(0);
    const fourth = tokenOf(cli.io.out[0]!)!;
    const client = teamClient(server);
    expect((await client.enroll(third)).status).toBe(410);
    expect((await memberRows()).filter((row) => row.deliveredAt === null && row.failedAt === null)).toHaveLength(1); // nobody listens on port 9
    expect((await client.enroll(fourth)).status).toBe(200);
    expect((await memberRows()).filter((row) => row.deliveredAt === null && row.failedAt === null)).toEqual([]);
  });

  it('a retry sends the same message: one link, one Message-ID, the token kept only until it is delivered', async () => {
    const port = await freePort();
    const smtp = await smtpServer(port, { tempFailures: 1 });
    cleanup.push(smtp.close);
    const { io, run } = teamCli(() => database, { publicOrigin: ORIGIN });
    expect(await run(['team', 'add', 'kim@sonde.dev'])).toBe(0);
    const printed = tokenOf(io.out[0]!)!;
    const settings = { smtpUrl: `smtp://127.0.0.1:${port}`, emlDir: '/nonexistent', from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: undefined };
    const channel = mailChannel(settings, () => ORIGIN, async () => ({}), async () => null);
    const lines: string[] = [];
    const capture = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) });
    const outbox = startOutbox({ db: database.db, channels: [channel], logger: createLogger('debug', capture), firstRetryMs: 60_000, pollIntervalMs: 60_000 });
    cleanup.push(() => outbox.stop());

    await outbox.runOnce();
    const [waiting] = await memberRows();
    expect(waiting).toMatchObject({ attempts: 1, deliveredAt: null, lastError: 'SMTP 451 after RCPT TO (EENVELOPE)' });
    expect(tokenOf((await simpleParser(waiting!.rendered!)).text!)).toBe(printed);
    await database.db.update(deliveries).set({ nextAttemptAt: new Date(0) }); // the retry, now
    await outbox.runOnce();
    expect(smtp.received).toHaveLength(1);
    const [sent] = await memberRows();
    expect(sent).toMatchObject({ attempts: 2, rendered: null, lastError: null });
    expect(smtp.received[0]!.to).toEqual(['kim@sonde.dev']);
    expect(smtp.received[0]!.mail.messageId).toBe(`<${sent!.id}@sonde.dev>`);
    expect(tokenOf(smtp.received[0]!.mail.text!)).toBe(printed);
    const asLines = (text: string) => text.replace(/\r\n/g, '\n'); // SMTP's DATA carries every line with CRLF
    expect(asLines(smtp.received[0]!.raw.toString())).toBe(asLines(waiting!.rendered!));
    expect(lines.join('')).not.toContain(printed);
    expect(lines.join('')).not.toContain('kim@sonde.dev');
  });

  it('gives a mail up, unsent and its token cleared, once its link has expired', async () => {
    const { run } = teamCli(() => database, { publicOrigin: ORIGIN });
    expect(await run(['team', 'add', 'kim@sonde.dev'], new Date(Date.now() - TEAM_ENROLLMENT_TTL_MS - 1_000))).toBe(0);
    const emlDir = testConfig(distDir).mail.emlDir;
    const settings = { smtpUrl: undefined, emlDir, from: 'Sonde <hello@sonde.dev>', privacyEmail: 'privacy@sonde.dev', teamEmail: undefined };
    const outbox = startOutbox({ db: database.db, channels: [mailChannel(settings, () => ORIGIN, async () => ({}), async () => null)], logger: createLogger('silent'), pollIntervalMs: 60_000 });
    cleanup.push(() => outbox.stop());
    await outbox.runOnce();
    const [row] = await memberRows();
    expect(row).toMatchObject({ deliveredAt: null, rendered: null, lastError: 'PermanentDeliveryError: the enrollment link expired' });
    expect(row!.failedAt).toBeInstanceOf(Date);
    expect(await readdir(emlDir)).toEqual([]);
  });
});
