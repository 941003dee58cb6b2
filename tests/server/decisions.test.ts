// @vitest-environment node
// The team's decisions on invite requests (server/db/decisions.ts, server/cli/decisions.ts): every
// refusal changes nothing and says why; a batch is all or nothing; cohorts and their capacity; notes;
// requests from one mailbox linked; what a decision puts in the outbox, and what it never echoes.
import { eq, inArray } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEXT_LIMITS } from '#shared/submission';
import type { Database } from '../../server/db/database.ts';
import { deliveries, submissions, teamAudit, timeline } from '../../server/db/schema.ts';
import { TEAM_COHORT_CAPACITY_MAX } from '../../server/limits.ts';
import { teamCli } from '../support/cli.ts';
import { storeSubmission, testEngines } from '../support/database.ts';
import { submissionBody } from '../support/submissionBody.ts';

describe.each(testEngines())('decisions on $name', (engine) => {
  let database: Database;
  const { io, run } = teamCli(() => database, { events: true });
  let sent = 0;
  const store = (data: Parameters<typeof submissionBody>[0] = {}) => {
    sent += 1;
    return storeSubmission(database.db, submissionBody({ workEmail: `applicant-${sent}@example.com`, ...data }));
  };
  /** Everything a decision could have changed, to compare before and after a refusal. */
  const snapshot = async (ids: string[]) => ({
    rows: await database.db.select().from(submissions).where(inArray(submissions.id, ids)).orderBy(submissions.id),
    timeline: await database.db.select().from(timeline).where(inArray(timeline.submissionId, ids)),
    deliveries: await database.db.select().from(deliveries).where(inArray(deliveries.submissionId, ids)),
  });

  beforeEach(async () => {
    database = await engine.open();
  });
  afterEach(async () => {
    await database.close();
  });

  it('decides with --from only if each request is still in that state; else exit 1 naming the state, who and when, and nothing changes', async () => {
    const [a, b] = [await store(), await store()];
    expect(await run(['decline', a, '--by', 'Ada Byron'])).toBe(0);
    const before = await snapshot([a, b]);
    expect(await run(['waitlist', a, b, '--from', 'received'])).toBe(1);
    expect(io.err).toEqual([expect.stringMatching(new RegExp(`^nothing changed: request ${a} is declined, not received as seen: declined by Ada Byron at \\d{4}-.*Z$`))]);
    expect(await snapshot([a, b])).toEqual(before);
    expect(await run(['waitlist', b, '--from', 'received'])).toBe(0);
    expect(await run(['waitlist', b, '--from', 'open'])).toBe(2);
  });

  it('refuses to accept a declined request until it is reopened, and changes nothing', async () => {
    const id = await store();
    expect(await run(['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15'])).toBe(0);
    expect(await run(['decline', id])).toBe(0);
    const before = await snapshot([id]);
    expect(await run(['accept', id, '--cohort', 'Cohort 3'])).toBe(1);
    expect(io.err).toEqual([`nothing changed: request ${id} is declined: accept is possible only when it is received or waitlisted`]);
    expect(await snapshot([id])).toEqual(before);
    expect(await run(['reopen', id])).toBe(0);
    expect(await run(['accept', id, '--cohort', 'Cohort 3'])).toBe(0);
  });

  it('takes "Two ", " Two", "Two\\u00a0", "two" and "Ｔwo" as the cohort "Two": cohort add exits 1, accept --cohort finds it, and the one cohort added is audited once', async () => {
    expect(await run(['cohort', 'add', 'Two', '--starts', '2027-01-15', '--capacity', '1'])).toBe(0);
    for (const name of ['Two ', ' Two', 'Two\u00a0', 'two', 'Ｔwo']) {
      expect(await run(['cohort', 'add', name, '--starts', '2027-02-01']), JSON.stringify(name)).toBe(1);
      expect(io.err).toEqual([`a cohort named "${name}" exists already`]);
    }
    expect(await run(['cohort', 'list'])).toBe(0);
    expect(io.out.join('\n').match(/Two/g)).toHaveLength(1);
    const added = await database.db.select().from(teamAudit).where(eq(teamAudit.action, 'cohort added'));
    expect(added.map((entry) => [entry.memberId, entry.detail])).toEqual([[null, 'cli']]);
    const [a, b] = [await store(), await store()];
    expect(await run(['accept', a, '--cohort', 'two\u00a0'])).toBe(0);
    // the look-alike is the full cohort itself, not a second one with room
    expect(await run(['accept', b, '--cohort', 'Two '])).toBe(1);
    expect(io.err).toEqual([`nothing changed: cohort "Two" is full (1 of 1): request ${b} would not fit`]);
  });

  it.each([
    [['waitlist'], 'waitlist', 'received'],
    [['spam'], 'spam', 'received'],
    [['reopen'], 'reopen', 'declined or spam'],
    [['decline'], 'decline', 'received or waitlisted'],
  ])('refuses %j from accepted: nothing follows an acceptance', async (argv, decision, from) => {
    const id = await store();
    expect(await run(['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15'])).toBe(0);
    expect(await run(['accept', id, '--cohort', 'Cohort 3'])).toBe(0);
    const before = await snapshot([id]);
    expect(await run([...argv, id])).toBe(1);
    expect(io.err).toEqual([`nothing changed: request ${id} is accepted: ${decision} is possible only when it is ${from}`]);
    expect(await snapshot([id])).toEqual(before);
  });

  it('decides a batch all or nothing: one bad id refuses the whole batch and names each refusal', async () => {
    const [a, b, c] = [await store(), await store(), await store()];
    expect(await run(['spam', b])).toBe(0);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const before = await snapshot([a, b, c]);
    expect(await run(['waitlist', a, b, c, unknown])).toBe(1);
    expect(io.err).toEqual([`nothing changed: request ${b} is spam: waitlist is possible only when it is received; no request ${unknown}`]);
    expect(await snapshot([a, b, c])).toEqual(before);
    expect(await run(['waitlist', a, c, a])).toBe(0);
    expect(io.out).toEqual(["2 requests waitlisted by kim; the mail goes out with the server's outbox"]);
    const mails = await database.db.select().from(deliveries).where(inArray(deliveries.submissionId, [a, c]));
    expect(mails.filter((row) => row.message === 'invite-waitlisted')).toHaveLength(2);
  });

  it('refuses an acceptance past a cohort\'s capacity, counting the batch itself, and an unknown cohort', async () => {
    const ids = [await store(), await store(), await store()];
    expect(await run(['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15', '--capacity', '2'])).toBe(0);
    expect(await run(['accept', ...ids, '--cohort', 'Cohort 3'])).toBe(1);
    expect(io.err).toEqual([`nothing changed: cohort "Cohort 3" is full (2 of 2): request ${ids[2]} would not fit`]);
    expect(await run(['accept', ids[0]!, ids[1]!, '--cohort', 'Cohort 3'])).toBe(0);
    expect(await run(['accept', ids[2]!, '--cohort', 'Cohort 3'])).toBe(1);
    expect(io.err).toEqual([`nothing changed: cohort "Cohort 3" is full (2 of 2): request ${ids[2]} would not fit`]);
    expect(await run(['accept', ids[2]!, '--cohort', 'Cohort 4'])).toBe(1);
    expect(io.err).toEqual(['nothing changed: no cohort "Cohort 4": create it with cohort add']);
    expect(await run(['cohort', 'list'])).toBe(0);
    expect(io.out[0]).toMatch(/^name\s+starts\s+accepted\s+capacity\s*\nCohort 3\s+2027-01-15\s+2\s+2\s*$/);
    expect(await run(['list', '--json', '--cohort', 'Cohort 3'])).toBe(0);
    expect((JSON.parse(io.out[0]!) as Array<{ id: string }>).map((r) => r.id).sort()).toEqual([ids[0], ids[1]].sort());
  });

  it.each([
    [['cohort', 'add', 'Cohort 3', '--starts', '2027-02-30'], 2, /--starts <date>' argument '2027-02-30' is invalid/],
    [['cohort', 'add', 'Cohort 0', '--starts', '0000-12-31'], 2, /--starts <date>' argument '0000-12-31' is invalid/],
    [['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15', '--capacity', '0'], 2, /--capacity must be a whole number from 1 to 999999, not "0"/],
    [['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15', '--capacity', '2.5'], 2, /--capacity must be a whole number/],
    [['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15', '--capacity', String(TEAM_COHORT_CAPACITY_MAX + 1)], 2, /--capacity must be a whole number from 1 to 999999, not "1000000"/],
    [['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15', '--capacity', '9'.repeat(400)], 2, /--capacity must be a whole number from 1 to 999999, not "9{400}"/],
    [['cohort', 'add', 'Cohort 3'], 2, /required option '--starts <date>' not specified/],
    [['accept', '00000000-0000-4000-8000-000000000000'], 2, /required option '--cohort <name>' not specified/],
    [['accept', 'not-an-id', '--cohort', 'Cohort 3'], 1, /^no request not-an-id$/],
    [['decline', '00000000-0000-4000-8000-000000000000', '--reason', 'a\u001b[2J'], 2, /the text contains a/],
  ])('refuses bad arguments with one line: %j', async (argv, code, message) => {
    expect(await run(argv)).toBe(code);
    expect(io.err).toHaveLength(1);
    expect(io.err[0]).toMatch(message);
  });

  it(`refuses, with one line and exit 2, a cohort's name over TEXT_LIMITS.short characters and a reason over TEXT_LIMITS.long`, async () => {
    expect(await run(['cohort', 'add', 'C'.repeat(TEXT_LIMITS.short + 1), '--starts', '2027-01-15'])).toBe(2);
    expect(io.err).toEqual([expect.stringContaining(`the text is longer than ${TEXT_LIMITS.short} characters.`)]);
    expect(await run(['decline', '00000000-0000-4000-8000-000000000000', '--reason', 'x'.repeat(TEXT_LIMITS.long + 1)])).toBe(2);
    expect(io.err).toEqual([expect.stringContaining(`the text is longer than ${TEXT_LIMITS.long} characters.`)]);
  });

  it(`takes a cohort's name of TEXT_LIMITS.short characters and a capacity of TEAM_COHORT_CAPACITY_MAX, and an id in capitals as the same request (RFC 9562 §4)`, async () => {
    const name = 'C'.repeat(TEXT_LIMITS.short);
    expect(await run(['cohort', 'add', name, '--starts', '2027-01-15', '--capacity', String(TEAM_COHORT_CAPACITY_MAX)])).toBe(0);
    const id = await store();
    expect(await run(['accept', id.toUpperCase(), id, '--cohort', name])).toBe(0);
    expect(io.out).toEqual([`request ${id} accepted by kim into ${name}; the mail goes out with the server's outbox`]);
    expect((await database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!.reviewState).toBe('accepted');
    expect(await run(['note', id.toUpperCase(), 'Called them'])).toBe(0);
    expect(io.out).toEqual([`note added to request ${id} by kim`]);
    // a name counted as stored (NFC): U+FB2C is three characters in NFC
    expect(await run(['cohort', 'add', '\uFB2C'.repeat(67), '--starts', '2027-01-15'])).toBe(2);
    expect(io.err).toEqual([expect.stringContaining(`the text is longer than ${TEXT_LIMITS.short} characters.`)]);
  });

  it('refuses a second cohort of the same name', async () => {
    expect(await run(['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15'])).toBe(0);
    expect(io.out).toEqual(['cohort "Cohort 3" added: starts 2027-01-15, no capacity limit']);
    expect(await run(['cohort', 'add', 'Cohort 3', '--starts', '2027-03-01', '--capacity', '5'])).toBe(1);
    expect(io.err).toEqual(['a cohort named "Cohort 3" exists already']);
  });

  it('keeps the team\'s notes in the timeline with who and when; an unknown request gets none', async () => {
    const id = await store();
    const at = new Date('2026-11-26T10:00:00.000Z');
    expect(await run(['note', id, 'Called them: 40 M queries a month, starting in March.', '--by', 'lin'], at)).toBe(0);
    expect(await run(['show', id])).toBe(0);
    expect((JSON.parse(io.out[0]!) as { timeline: unknown[] }).timeline).toContainEqual({
      event: 'note', at: at.toISOString(), by: 'lin', text: 'Called them: 40 M queries a month, starting in March.',
    });
    expect(await run(['note', '00000000-0000-4000-8000-000000000000', 'x'])).toBe(1);
    expect(io.err).toEqual(['no request 00000000-0000-4000-8000-000000000000']);
  });

  it('links a request to the first one from the same mailbox, however the address is written', async () => {
    const first = await storeSubmission(database.db, submissionBody({ workEmail: 'ada.lovelace@gmail.com' }));
    const again = await storeSubmission(database.db, submissionBody({ workEmail: 'AdaLovelace+beta@googlemail.com' }));
    const other = await storeSubmission(database.db, submissionBody({ workEmail: 'grace@example.com' }));
    expect(await run(['list', '--json'])).toBe(0);
    const listed = JSON.parse(io.out[0]!) as Array<{ id: string; duplicateOf?: string }>;
    expect(listed.find((r) => r.id === again)?.duplicateOf).toBe(first);
    expect(listed.find((r) => r.id === first)?.duplicateOf).toBeUndefined();
    expect(listed.find((r) => r.id === other)?.duplicateOf).toBeUndefined();
    expect(await run(['list'])).toBe(0);
    expect(io.out[0]).toContain(`received, repeats ${first.slice(0, 8)}`);
    expect(await run(['show', again])).toBe(0);
    expect(JSON.parse(io.out[0]!)).toMatchObject({ duplicateOf: first });
  });

  it("mails the decline's reason, the team's text, and never the applicant's own free text; no event is written without the events webhook", async () => {
    const { run: runWithoutEvents } = teamCli(() => database);
    const id = await store({ notes: 'PRIVATE-NOTES-TEXT', useCaseDescription: 'PRIVATE-USE-CASE' });
    expect(await runWithoutEvents(['decline', id, '--reason', 'We are not onboarding resellers yet.'])).toBe(0);
    const rows = await database.db.select().from(deliveries).where(eq(deliveries.submissionId, id));
    expect(rows.filter((row) => row.channel === 'event')).toEqual([]);
    expect(rows.find((row) => row.message === 'invite-declined')?.payload).toEqual({ reason: 'We are not onboarding resellers yet.' });
    expect(JSON.stringify(rows)).not.toMatch(/PRIVATE-/);
  });

  it('subject shows the timeline; erase deletes it and the decision rows with the request; the cohort stays', async () => {
    const id = await store({ workEmail: 'erase-me@example.com' });
    expect(await run(['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15'])).toBe(0);
    expect(await run(['accept', id, '--cohort', 'Cohort 3', '--note', 'Strong fit'])).toBe(0);
    expect((await snapshot([id])).timeline).toHaveLength(2);
    // everything stored about the person, the team's decisions and notes on them included
    expect(await run(['subject', '--email', 'erase-me@Example.COM'])).toBe(0);
    expect((JSON.parse(io.out[0]!) as { timeline: Array<{ action: string; reason: string | null }> }).timeline.map((entry) => [entry.action, entry.reason])).toEqual([
      ['accepted', null],
      ['note', 'Strong fit'],
    ]);
    expect(await run(['erase', '--email', 'erase-me@example.com', '--force'])).toBe(0);
    expect(await snapshot([id])).toEqual({ rows: [], timeline: [], deliveries: [] });
    expect(await run(['cohort', 'list'])).toBe(0);
    expect(io.out[0]).toMatch(/Cohort 3\s+2027-01-15\s+0\s+no limit/);
  });

  it('mails only the latest decision: a decision mail not yet sent goes when another decision follows; the timeline and the events keep both', async () => {
    const [a, b] = [await store(), await store()];
    expect(await run(['cohort', 'add', 'Cohort 3', '--starts', '2027-01-15'])).toBe(0);
    expect(await run(['waitlist', a])).toBe(0);
    expect(await run(['accept', a, '--cohort', 'Cohort 3'])).toBe(0);
    expect(await run(['decline', b, '--reason', 'Not yet'])).toBe(0);
    expect(await run(['reopen', b])).toBe(0);
    const { deliveries: rows, timeline: entries } = await snapshot([a, b]);
    const decisionMails = (id: string) => rows.filter((row) => row.submissionId === id && row.channel === 'mail' && row.message !== 'invite-acknowledgment').map((row) => row.message);
    expect(decisionMails(a)).toEqual(['invite-accepted']);
    expect(decisionMails(b)).toEqual([]);
    expect(rows.filter((row) => row.channel === 'event').map((row) => row.event).sort()).toEqual(['invite.accepted', 'invite.declined', 'invite.waitlisted']);
    expect(entries.map((entry) => entry.action).sort()).toEqual(['accepted', 'declined', 'reopened', 'waitlisted']);
  });
});
