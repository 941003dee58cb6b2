// @vitest-environment node
// One mailbox rule: server/db/mailbox.ts `mailboxOf` and its SQL twin `mailbox_of`
// (server/db/functions/mailbox_of.sql), which stores `submissions.mailbox`, agree on every address, on
// PGlite and PostgreSQL.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../server/db/database.ts';
import { mailboxOf } from '../../server/db/mailbox.ts';
import { testEngines, withTestDatabase } from '../support/database.ts';

/** An address as a visitor might spell one mailbox: any case, dots, a `+tag`, Gmail's two domains. */
const spelling = fc
  .tuple(
    fc.emailAddress(),
    fc.constantFrom(null, 'gmail.com', 'googlemail.com', 'GMail.com', 'GoogleMail.COM', 'example.com'),
    fc.option(fc.stringMatching(/^[a-z0-9.+-]{0,8}$/), { nil: undefined }),
    fc.array(fc.boolean(), { maxLength: 64 }),
  )
  .map(([address, domain, tag, upper]) => {
    const at = address.lastIndexOf('@');
    const local = address.slice(0, at) + (tag === undefined ? '' : `+${tag}`);
    const full = `${local}@${domain ?? address.slice(at + 1)}`;
    return [...full].map((c, i) => (upper[i % Math.max(1, upper.length)] ? c.toUpperCase() : c)).join('');
  });

describe.each(testEngines())('the mailbox rule on $name', (engine) => {
  let database: Database;
  withTestDatabase(engine, (opened) => (database = opened), 'all');

  it('is the same in TypeScript (mailboxOf) and in SQL (mailbox_of) for every spelling', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(spelling, { minLength: 1, maxLength: 50 }), async (emails) => {
        const result = await database.db.execute(sql`select mailbox_of(e) as mailbox from jsonb_array_elements_text(${JSON.stringify(emails)}::jsonb) with ordinality as t(e, n) order by n`);
        expect(rowsOf<{ mailbox: string }>(result).map((row) => row.mailbox)).toEqual(emails.map(mailboxOf));
      }),
      { numRuns: 40 },
    );
  });

  it('makes one mailbox of case, +tag, Gmail dots and googlemail.com, and keeps dots elsewhere', async () => {
    const cases: Array<[string, string]> = [
      ['Ada.Lovelace+x@GoogleMail.com', 'adalovelace@gmail.com'],
      ['a.d.a@gmail.com', 'ada@gmail.com'],
      ['Ada.Lovelace+1+2@Example.com', 'ada.lovelace@example.com'],
      ['ada@example.com', 'ada@example.com'],
      ['no-at-sign', 'no-at-sign'],
    ];
    for (const [email, mailbox] of cases) {
      expect(mailboxOf(email)).toBe(mailbox);
      const [row] = rowsOf<{ mailbox: string }>(await database.db.execute(sql`select mailbox_of(${email}) as mailbox`));
      expect(row!.mailbox).toBe(mailbox);
    }
  });
});
