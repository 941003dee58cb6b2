-- accept_submission: the whole of POST /api/submissions' storage step (spec §7.1), called by
-- `acceptSubmission` in server/db/submissions.ts, in one statement, so that a stored request and everything
-- written with it land together or not at all. A PL/pgSQL function rather than statements sent by the
-- app: its plans are prepared once per connection, which tripled the accepted submissions per second on
-- PGlite (1,130/s → 3,515/s, 20 concurrent callers, no HTTP), where every statement sent by the app is
-- parsed and planned anew.
--
-- 1. p_key already stored: returns that row's id and body hash; nothing is written, nothing counted.
-- 2. the client (p_client, a SHA-256 of its IP) has p_limit rows received in the last p_window_s
--    seconds (counted under accept_submissions' lock on the client, so across instances too): returns their count and the seconds until the oldest leaves the window (at least 1).
-- 3. otherwise inserts the row (due_at = now + p_due_days for a privacy request; an invite request's
--    review starts `received`, machines/inviteReviewMachine.ts; mailbox by mailbox_of)
--    and returns its id; new_id is null when a request racing on the same key inserted first. With it:
--    - a privacy request's record of 11 CCR §7101 (privacy_records; p_types: its request types, the
--      form's own labels, read by the server), so no request is ever left unrecorded;
--    - p_announce: the webhook delivery that announces the request to the team (server/outbox/), so a
--      stored request is never left unannounced and a delivery never exists without its request;
--    - p_team_mail: the team's mail, one per stored request;
--    - p_mail: the requester's mail, counted per mailbox (mailbox_of) in mail_quota, so that the form
--      cannot be used to flood someone's mailbox, and counted in the database, so the limits hold within
--      one batch and, under the locks that accept_submissions (below) takes first, across instances: an invite request's acknowledgment, at most p_ack_limit per
--      mailbox in p_mail_window_s (more requests are stored, not acknowledged again); a privacy request's
--      confirmation of receipt (11 CCR §7021(a)), never left out, and sent to the request's own address
--      (p_email, server/db/mailbox.ts addressOf), the one its verification link proves (§7060): a request
--      from an address whose confirmation is still waiting (not yet taken by a sender) joins it (`covers`:
--      one mail lists them all, each with its verification link); another spelling of the same mailbox
--      (a +tag, Gmail's dots, another case) never joins it, since it may be someone else's. Past
--      p_confirm_limit, a confirmation waits for the next slot, when the oldest mail counted leaves the
--      window. So a mailbox gets no more than the limit in any window, whatever the spellings; a flood of
--      one address's requests shares one mail and is confirmed at most one window late; n addresses of one
--      mailbox (n > the limit), made up by someone flooding it, take one slot each, the last at most
--      ceil(n / limit) windows late: the limit on mail to a mailbox wins over that flood's timeliness.
--      A waiting confirmation lists at most p_cover_limit requests: when every one waiting for the
--      address is full, the request's confirmation is one more mail sent with the earliest of them (its
--      slot; not counted in the limit: the overflow of a mail counted), so no mail grows too large to
--      deliver.
--    queued is true when the row wrote a delivery of its own: only then has the sender something new to
--    send (a request past its mailbox's limit, or one that joined a waiting confirmation, wrote none).
--
-- Applied again by the migrator whenever this file changes (server/db/database.ts). `create or replace`
-- keeps the argument and result types; to change them, first `DROP FUNCTION accept_submission(<old
-- argument types>);` in this file (the file runs in one transaction), as below for the signature before
-- p_cover_limit. A new argument has a default, so a server still running the code before it (a rolling
-- deploy) calls the new function: p_cover_limit null lists every request in one mail, as that code did.
DROP FUNCTION IF EXISTS accept_submission(text, text, int, int, text, text, text, jsonb, int, boolean, boolean, boolean, int, int, int, text[]);
CREATE OR REPLACE FUNCTION accept_submission(
  p_key text, p_client text, p_window_s int, p_limit int,
  p_kind text, p_sha text, p_email text, p_body jsonb, p_due_days int, p_announce boolean,
  p_mail boolean, p_team_mail boolean, p_mail_window_s int, p_ack_limit int, p_confirm_limit int,
  p_types text[], p_cover_limit int DEFAULT NULL
) RETURNS TABLE (existing_id uuid, existing_sha text, recent int, retry_after int, new_id uuid, queued boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_oldest timestamptz;
  v_message text;
  v_limit int;
  v_key text;
  v_waiting uuid;
  v_slot timestamptz;
  v_mailbox text;
  v_full_slot timestamptz;
BEGIN
  queued := false;
  IF p_key IS NOT NULL THEN
    SELECT s.id, s.body_sha256 INTO existing_id, existing_sha FROM submissions s WHERE s.idempotency_key = p_key;
    IF existing_id IS NOT NULL THEN
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;
  SELECT count(*)::int, min(s.received_at) INTO recent, v_oldest
    FROM submissions s
    WHERE s.client_key = p_client AND s.received_at > now() - make_interval(secs => p_window_s);
  IF recent >= p_limit THEN
    retry_after := greatest(1, ceil(extract(epoch FROM v_oldest + make_interval(secs => p_window_s) - now())))::int;
    RETURN NEXT;
    RETURN;
  END IF;
  v_mailbox := mailbox_of(p_email);
  INSERT INTO submissions (kind, idempotency_key, body_sha256, email, mailbox, client_key, body, due_at, review_state)
    VALUES (p_kind, p_key, p_sha, p_email, v_mailbox, p_client, p_body,
            CASE WHEN p_kind = 'privacy' THEN now() + make_interval(days => p_due_days) END,
            CASE WHEN p_kind = 'invite' THEN 'received' END)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO new_id;
  IF new_id IS NOT NULL AND p_kind = 'privacy' THEN
    INSERT INTO privacy_records (id, received_at, request_types, due_at)
      SELECT s.id, s.received_at, p_types, s.due_at FROM submissions s WHERE s.id = new_id;
  END IF;
  IF new_id IS NOT NULL AND p_announce THEN
    INSERT INTO deliveries (submission_id) VALUES (new_id);
    queued := true;
  END IF;
  IF new_id IS NOT NULL AND p_team_mail THEN
    INSERT INTO deliveries (submission_id, channel, message) VALUES (new_id, 'mail', 'team-new-request');
    queued := true;
  END IF;
  IF new_id IS NOT NULL AND p_mail THEN
    v_message := CASE WHEN p_kind = 'privacy' THEN 'privacy-confirmation' ELSE 'invite-acknowledgment' END;
    v_limit := CASE WHEN p_kind = 'privacy' THEN p_confirm_limit ELSE p_ack_limit END;
    v_key := encode(sha256(convert_to(v_mailbox, 'UTF8')), 'hex');
    IF v_message = 'privacy-confirmation' THEN
      SELECT d.id INTO v_waiting FROM deliveries d
        WHERE d.mailbox_sha256 = v_key AND d.message = v_message AND d.delivered_at IS NULL AND d.failed_at IS NULL
          AND d.rendered IS NULL AND (d.locked_until IS NULL OR d.locked_until < now())
          AND EXISTS (SELECT 1 FROM submissions s WHERE s.id = d.submission_id AND s.email = p_email)
          AND (p_cover_limit IS NULL OR coalesce(cardinality(d.covers), 1) < p_cover_limit)
        ORDER BY d.next_attempt_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED;
      IF v_waiting IS NULL AND p_cover_limit IS NOT NULL THEN
        SELECT min(d.next_attempt_at) INTO v_full_slot FROM deliveries d
          WHERE d.mailbox_sha256 = v_key AND d.message = v_message AND d.delivered_at IS NULL AND d.failed_at IS NULL
            AND d.rendered IS NULL AND (d.locked_until IS NULL OR d.locked_until < now())
            AND EXISTS (SELECT 1 FROM submissions s WHERE s.id = d.submission_id AND s.email = p_email)
            AND coalesce(cardinality(d.covers), 1) >= p_cover_limit;
      END IF;
    END IF;
    IF v_waiting IS NOT NULL THEN
      UPDATE deliveries SET covers = coalesce(covers, ARRAY[submission_id]) || new_id WHERE id = v_waiting;
    ELSIF v_full_slot IS NOT NULL THEN
      INSERT INTO deliveries (submission_id, channel, message, mailbox_sha256, next_attempt_at)
        VALUES (new_id, 'mail', v_message, v_key, v_full_slot);
      queued := true;
    ELSIF (SELECT count(*) FROM mail_quota q
           WHERE q.email_sha256 = v_key AND q.message = v_message
             AND q.sent_at > now() - make_interval(secs => p_mail_window_s)) < v_limit THEN
      INSERT INTO deliveries (submission_id, channel, message, mailbox_sha256) VALUES (new_id, 'mail', v_message, v_key);
      INSERT INTO mail_quota (email_sha256, message) VALUES (v_key, v_message);
      queued := true;
    ELSIF v_message = 'privacy-confirmation' THEN
      SELECT q.sent_at + make_interval(secs => p_mail_window_s) INTO v_slot FROM mail_quota q
        WHERE q.email_sha256 = v_key AND q.message = v_message
          AND q.sent_at > now() - make_interval(secs => p_mail_window_s)
        ORDER BY q.sent_at DESC
        OFFSET v_limit - 1
        LIMIT 1;
      INSERT INTO deliveries (submission_id, channel, message, mailbox_sha256, next_attempt_at)
        VALUES (new_id, 'mail', v_message, v_key, coalesce(v_slot, now()));
      INSERT INTO mail_quota (email_sha256, message, sent_at) VALUES (v_key, v_message, coalesce(v_slot, now()));
      queued := true;
    END IF;
  END IF;
  RETURN NEXT;
END;
$$;

-- accept_submissions: one batch of the group commit (server/db/groupCommit.ts), called by
-- `acceptSubmissions` in server/db/submissions.ts: each element of p_batch (key, client, kind, sha, email,
-- body, types) passed in order to accept_submission above, the other arguments the same for all; one
-- result row per element, in its order.
--
-- accept_submission counts (the client's recent rows, the mailbox's mail_quota) and then inserts. Under
-- read committed, two transactions counting at once both see the count before either inserts, so two
-- instances, each writing its own batch, could both pass a limit. So before counting, the batch takes a
-- transaction-scoped advisory lock for each client it holds (the rate limit) and, when it writes
-- requester mail, for each mailbox (mailbox_of: the mail limits): a batch touching a client or mailbox
-- that another transaction is counting waits for that one's commit, and each of accept_submission's
-- statements, taking its own snapshot, then counts that transaction's rows too. All the batch's locks are
-- taken up front, in one order (class, then key's hash), before any row is written or locked: two batches
-- wait on each other's locks only in that order, so they cannot deadlock over them. A hash shared by two
-- keys only makes their batches wait for each other. The two-key form of the advisory locks
-- (pg_advisory_xact_lock(int, int)) is this function's alone in the app; the app's others take one bigint,
-- a separate space. On PGlite (one connection) the locks are granted at once.
CREATE OR REPLACE FUNCTION accept_submissions(
  p_batch jsonb, p_window_s int, p_limit int, p_due_days int, p_announce boolean,
  p_mail boolean, p_team_mail boolean, p_mail_window_s int, p_ack_limit int, p_confirm_limit int,
  p_cover_limit int
) RETURNS TABLE (existing_id uuid, existing_sha text, recent int, retry_after int, new_id uuid, queued boolean)
LANGUAGE plpgsql AS $$
DECLARE
  c_client_lock CONSTANT int := 1;
  c_mailbox_lock CONSTANT int := 2;
  v_lock record;
BEGIN
  FOR v_lock IN
    SELECT DISTINCT c_client_lock AS class, hashtext(i.item->>'client') AS key
      FROM jsonb_array_elements(p_batch) AS i(item) WHERE i.item->>'client' IS NOT NULL
    UNION
    SELECT DISTINCT c_mailbox_lock, hashtext(mailbox_of(i.item->>'email'))
      FROM jsonb_array_elements(p_batch) AS i(item) WHERE p_mail AND i.item->>'email' IS NOT NULL
    ORDER BY 1, 2
  LOOP
    PERFORM pg_advisory_xact_lock(v_lock.class, v_lock.key);
  END LOOP;
  RETURN QUERY
    SELECT a.existing_id, a.existing_sha, a.recent, a.retry_after, a.new_id, a.queued
    FROM jsonb_array_elements(p_batch) WITH ORDINALITY AS i(item, n)
    CROSS JOIN LATERAL accept_submission(
      i.item->>'key', i.item->>'client', p_window_s, p_limit,
      i.item->>'kind', i.item->>'sha', i.item->>'email', i.item->'body',
      p_due_days, p_announce, p_mail, p_team_mail, p_mail_window_s, p_ack_limit, p_confirm_limit,
      array(SELECT jsonb_array_elements_text(i.item->'types')), p_cover_limit) AS a
    ORDER BY i.n;
END;
$$;
