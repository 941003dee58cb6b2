// The floor of `npm run bench`'s API measure (scripts/bench.mjs): the same HTTP server (Hono on
// @hono/node-server) and the same database engine as the Sonde server, answering POST /api/submissions with
// nothing but one insert of the row the Sonde server would store: no validation, idempotency, rate limit,
// §7101 record, mail quota or deliveries, and no group commit (one insert, one commit per request). The
// Sonde server's accepted submissions per second are compared with this one's, measured in the same run.
//
// Run by the bench as its own process, as the server is: `node --import tsx scripts/benchInsertFloor.ts`,
// with PORT and either DATABASE_URL or SONDE_PGLITE_DIR. Prints one JSON line `{"msg":"listening","url":…}`
// (the server's own `listening` line's shape), and closes the database on SIGTERM.
import { createHash } from 'node:crypto';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { submissionKind, type SubmissionBody } from '#shared/submission';
import { openDatabase } from '../server/db/database.ts';
import { submissions } from '../server/db/schema.ts';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

const database = await openDatabase(process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : { pgliteDir: process.env.SONDE_PGLITE_DIR ?? 'memory://' });
const p = (name: string) => sql.placeholder(name);
// Prepared once, as the Sonde server's statement is (server/db/submissions.ts).
const insert = database.db
  .insert(submissions)
  .values({
    kind: p('kind'),
    idempotencyKey: p('key'),
    bodySha256: p('sha'),
    email: p('email'),
    mailbox: p('email'),
    clientKey: p('client'),
    body: p('body'),
    reviewState: p('reviewState'),
  })
  .returning({ id: submissions.id })
  .prepare('bench_insert_floor');

const app = new Hono().post('/api/submissions', async (c) => {
  const body = await c.req.json<SubmissionBody>();
  const [row] = await insert.execute({
    kind: submissionKind(body.data),
    key: c.req.header('idempotency-key') ?? null,
    sha: sha256Hex(JSON.stringify(body)),
    email: body.data.workEmail.toLowerCase(),
    client: sha256Hex(c.req.header('x-forwarded-for') ?? ''),
    body,
    // as accept_submission stores it (server/db/functions/accept_submission.sql): an invite request's review starts `received`
    reviewState: submissionKind(body.data) === 'invite' ? 'received' : null,
  });
  return c.json({ id: row?.id }, 201);
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' }, (info) => {
  const url = `http://127.0.0.1:${info.port}`;
  console.log(JSON.stringify({ msg: 'listening', url, listen: url, database: database.engine }));
});

process.once('SIGTERM', () => {
  server.close(() => void database.close().then(() => process.exit(0)));
});
