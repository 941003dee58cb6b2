import DataLoader from 'dataloader';
import { GROUP_COMMIT_MAX_BATCH } from '../limits.ts';
import type { Db } from './database.ts';
import { acceptSubmissions, isRefusedByDatabase, type AcceptInput, type AcceptOutcome, type AcceptSettings } from './submissions.ts';

/** Accepts submissions one by one, and writes them together. */
export interface SubmissionWriter {
  /**
   * Accepts one checked submission (spec §7.1) as {@link acceptSubmissions} does, resolving once its
   * batch is committed.
   * @throws the driver's error when its own row cannot be written; a row of another submission that the
   *   database refuses never fails it (the batch is then written again one submission at a time); a
   *   broken connection fails the whole batch
   */
  accept(input: AcceptInput): Promise<AcceptOutcome>;
}

/**
 * Group commit, for the API budget of DESIGN.md §4: while one statement is under way, the submissions
 * that arrive wait, and once it ends they are all written by the next statement, in one transaction
 * (server/db/submissions.ts): one round trip and one commit (one WAL flush) for the lot instead of one each.
 * The busier the server, the larger the batches. An idle server writes a submission at once (after the
 * current I/O callbacks, `setImmediate`), so a lone visitor waits for nothing. Nothing is answered
 * before its row is committed.
 *
 * One statement at a time, on either engine: PGlite runs one at a time anyway, and on PostgreSQL two at
 * a time measured no faster (2026-11-25, autocannon in a process of its own, 20 clients for 10 s, four
 * runs each, alternating: one 2,938–3,686 submissions/s, two 2,562–3,598/s).
 * Batching is DataLoader's (`cache: false`: every call is a new submission, never deduplicated).
 */
export function createSubmissionWriter(db: Db, settings: AcceptSettings): SubmissionWriter {
  let busy = false;
  /** the dispatches of the batches waiting for the statement under way, oldest first; each takes submissions until full */
  const waiting: Array<() => void> = [];

  const writeBatch = async (inputs: readonly AcceptInput[]): Promise<Array<AcceptOutcome | Error>> => {
    try {
      return await acceptSubmissions(db, inputs, settings);
    } catch (error) {
      // One row the database refuses rolls back its whole statement: write each again alone, so that
      // only it fails. After a broken connection the commit may have happened: fail them all instead
      // (a client with an Idempotency-Key, as the site's outbox, then retries without a duplicate).
      if (inputs.length === 1 || !isRefusedByDatabase(error)) return inputs.map(() => error as Error);
      const alone: Array<AcceptOutcome | Error> = [];
      for (const input of inputs) {
        alone.push(await acceptSubmissions(db, [input], settings).then(([outcome]) => outcome!, (e: unknown) => e as Error));
      }
      return alone;
    } finally {
      const next = waiting.shift();
      if (next) next();
      else busy = false;
    }
  };

  const loader = new DataLoader<AcceptInput, AcceptOutcome>(writeBatch, {
    cache: false,
    maxBatchSize: GROUP_COMMIT_MAX_BATCH,
    batchScheduleFn: (dispatch) => {
      if (busy) {
        waiting.push(dispatch);
      } else {
        busy = true;
        setImmediate(dispatch);
      }
    },
  });
  return { accept: (input) => loader.load(input) };
}
