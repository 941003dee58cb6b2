-- Applied again by the migrator whenever this file changes (server/db/database.ts), in one transaction:
-- the counts are recounted from the requests, whose writers wait meanwhile (reads go on), so that no
-- change is missed or counted twice between the recount and the triggers; and so does a fold of
-- another instance (its rows folded after this DELETE's snapshot would survive it). Locked in the
-- writers' order: submissions, then queue_counts (which their triggers append to); first of all, so that
-- even under a default isolation of repeatable read the recount's snapshot is taken once both are held.
LOCK TABLE submissions IN SHARE ROW EXCLUSIVE MODE;
LOCK TABLE queue_counts IN EXCLUSIVE MODE;

-- queue_state: where a request stands in the team's queue: an invite request's review state
-- (machines/inviteReviewMachine.ts), a privacy request's `open` (not yet answered) or `done`. The one
-- definition: server/db/queue.ts calls it. An SQL function of one expression, which PostgreSQL inlines
-- into the query that calls it, so an index on the columns still serves that query.
CREATE OR REPLACE FUNCTION queue_state(review_state text, handled_at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(review_state, CASE WHEN handled_at IS NULL THEN 'open' ELSE 'done' END)
$$;

-- queue_counts_follow: keeps queue_counts (server/db/schema/requests.ts), the number of requests of each
-- kind in each queue_state, as statements insert, update, delete or truncate requests. It appends one
-- row per kind and state whose count a statement changed, with the signed change, and never updates a
-- row: concurrent writers never wait on one counter row, nor deadlock on two. A count is the sum of its
-- rows; server/db/queue.ts `compactQueueCounts` folds them. Statement-level triggers with transition
-- tables (PostgreSQL documentation, CREATE TRIGGER: one trigger per event, as transition tables require):
-- accept_submission stores one request per statement, so one row each, but a purge, an erasure or a
-- decision on many requests appends a row per kind and state, not one per request.
CREATE OR REPLACE FUNCTION queue_counts_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO queue_counts (kind, state, n)
      SELECT kind, queue_state(review_state, handled_at), count(*)::int FROM new_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO queue_counts (kind, state, n)
      SELECT kind, queue_state(review_state, handled_at), -count(*)::int FROM old_rows GROUP BY 1, 2;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO queue_counts (kind, state, n)
      SELECT kind, state, sum(n)::int FROM (
        SELECT kind, queue_state(review_state, handled_at) AS state, -1 AS n FROM old_rows
        UNION ALL
        SELECT kind, queue_state(review_state, handled_at), 1 FROM new_rows
      ) AS change
      GROUP BY 1, 2 HAVING sum(n) <> 0;
  ELSE -- TRUNCATE: a fold under way commits first (its folded rows are then in the snapshot, and deleted)
    LOCK TABLE queue_counts IN EXCLUSIVE MODE;
    DELETE FROM queue_counts;
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE TRIGGER queue_counts_insert AFTER INSERT ON submissions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION queue_counts_follow();
CREATE OR REPLACE TRIGGER queue_counts_update AFTER UPDATE ON submissions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION queue_counts_follow();
CREATE OR REPLACE TRIGGER queue_counts_delete AFTER DELETE ON submissions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION queue_counts_follow();
CREATE OR REPLACE TRIGGER queue_counts_truncate AFTER TRUNCATE ON submissions
  FOR EACH STATEMENT EXECUTE FUNCTION queue_counts_follow();

DELETE FROM queue_counts;
INSERT INTO queue_counts (kind, state, n)
  SELECT kind, queue_state(review_state, handled_at), count(*)::int FROM submissions GROUP BY 1, 2;
