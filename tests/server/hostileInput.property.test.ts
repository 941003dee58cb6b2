// @vitest-environment node
// Property: whatever JSON a client posts, the server answers 201 or a 4xx, never a 5xx (a 5xx is
// retried by the browser's outbox for 30 days, and would never be stored), and what it stores keeps
// the shared schema. Over real HTTP, on PGlite.
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH, type SubmissionBody } from '#shared/submission';
import { submissions } from '../../server/db/schema.ts';
import { createLogger } from '../../server/logger.ts';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../support/server.ts';
import { checkSubmissionBody } from '../../server/http/submissionSchema.ts';
import { testConfig, writeStandInSite } from '../support/site.ts';
import { submissionBody } from '../support/submissionBody.ts';

/** Characters that broke the server or the team's tools once: controls, bidi, separators, invisible letters. */
const HOSTILE_CHARS = [
  '\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009b', '\t', '\n', '\r', '\u2028', '\u2029', '\u202e', '\u2066',
  '\u200b', '\u200d', '\u2800', '\u3164', '\ufeff', '\ud800', '\udfff', '\u0301', '😀', '<', '&', '=', '"', '\\',
];

/** Strings of every kind: whole code points (astral included), lone UTF-16 code units, hostile characters. */
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...HOSTILE_CHARS), maxLength: 12 }),
  fc.tuple(fc.constantFrom('Ada', 'https://example.com/', 'ada@example.com'), fc.string({ unit: fc.constantFrom(...HOSTILE_CHARS), maxLength: 4 })).map(([a, b]) => a + b),
);

/** Any JSON value, with hostile strings in it. */
const anyJson = fc.oneof(hostileString, fc.jsonValue({ maxDepth: 2 }), fc.array(hostileString, { maxLength: 3 }));

const FIELDS = Object.keys(submissionBody().data) as Array<keyof SubmissionBody['data']>;

describe('any JSON posted to POST /api/submissions on PGlite', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer(testConfig(await writeStandInSite(), { rateLimitPerMinute: 1_000_000 }), createLogger('silent'));
  });
  afterAll(async () => {
    await server.stop();
  });

  /** Posts `body`; asserts the answer is 201 or 4xx, and that a stored body keeps the schema. */
  const postAndCheck = async (body: unknown) => {
    const response = await fetch(`${server.url}${SUBMISSIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { id?: string; error?: string };
    expect(response.status === 201 || (response.status >= 400 && response.status < 500), `${response.status} ${answer.error}`).toBe(true);
    if (response.status === 201) {
      const [row] = await server.database.db.select().from(submissions).where(eq(submissions.id, answer.id!));
      const again = checkSubmissionBody(row!.body, new Date());
      expect(again.ok, again.ok ? '' : again.problem).toBe(true);
      if (again.ok) expect(again.body).toEqual(row!.body); // stored as the schema leaves it: NFC, nothing to change
    }
  };

  it('answers a valid body with any field replaced by any JSON value 201 or a 4xx, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...FIELDS), anyJson, { minKeys: 1, maxKeys: 4 }),
        async (replaced) => postAndCheck({ event: 'invite_request', data: { ...submissionBody().data, ...replaced } }),
      ),
      { numRuns: 400 },
    );
  }, 120_000);

  it('answers a valid body with hostile text appended to every free-text field 201 or a 4xx', async () => {
    // The fields a visitor types or a browser reports as it likes (not the formatted ones: a suffix
    // there is refused by its format before the text rule is reached).
    const textFields = ['fullName', 'roleTitle', 'companyName', 'useCaseDescription', 'estimatedMonthlyQueries', 'peakQPS', 'browserId', 'userAgent', 'browserLanguage', 'timezone'];
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: fc.constantFrom(...HOSTILE_CHARS), maxLength: 3 }), async (suffix) => {
        const data = { ...submissionBody().data } as Record<string, unknown>;
        for (const field of textFields) data[field] = `${String(data[field])}${suffix}`;
        await postAndCheck({ event: 'invite_request', data });
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('answers any JSON document 201 or a 4xx', async () => {
    await fc.assert(fc.asyncProperty(anyJson, postAndCheck), { numRuns: 150 });
  }, 60_000);
});
