-- One mailbox rule, one message per delivery.
-- mailbox_of: the mailbox an address reaches, the rule of server/storage.ts `mailboxOf` (a property test
-- checks that both agree): lower case; the local part without its `+` sub-address (RFC 5233); at
-- gmail.com and googlemail.com, one mailbox: without the local part's dots, at gmail.com.
CREATE FUNCTION mailbox_of(p_email text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE
    WHEN position('@' IN e) = 0 THEN e
    WHEN d IN ('gmail.com', 'googlemail.com') THEN replace(l, '.', '') || '@gmail.com'
    ELSE l || '@' || d
  END
  FROM (
    SELECT e, split_part(substring(e FROM '^(.*)@'), '+', 1) AS l, substring(e FROM '@([^@]*)$') AS d
    FROM (SELECT lower(p_email) AS e) AS lowered
  ) AS parts
$$;
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "rendered" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "covers" uuid[];--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "mailbox_sha256" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "mailbox" text;--> statement-breakpoint
UPDATE "submissions" SET "mailbox" = mailbox_of("email");--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "mailbox" SET NOT NULL;--> statement-breakpoint
-- the requester mail still waiting, so that a new request to its mailbox can find it
UPDATE "notifications" n SET "mailbox_sha256" = encode(sha256(convert_to(s.mailbox, 'UTF8')), 'hex')
  FROM "submissions" s
  WHERE s.id = n.submission_id AND n.message IN ('invite-acknowledgment', 'privacy-confirmation')
    AND n.delivered_at IS NULL AND n.failed_at IS NULL;--> statement-breakpoint
CREATE INDEX "notifications_waiting_mailbox" ON "notifications" USING btree ("mailbox_sha256","message") WHERE "notifications"."delivered_at" is null and "notifications"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "submissions_mailbox" ON "submissions" USING btree ("mailbox");
--> statement-breakpoint
-- accept_submission as in 0013, but the mail limits count a mailbox by mailbox_of, and a privacy
-- request's confirmation (11 CCR §7021(a)) is never left out: a request to a mailbox whose confirmation
-- is still waiting (not yet taken by a sender) joins it (`covers`: one mail lists them all, each with its
-- verification link); past the limit, its confirmation waits for the next slot, when the oldest mail
-- counted leaves the window. So no stranger can use up a requester's confirmations, and a mailbox gets
-- no more than the limit in any window. Rows counted before keep their key: for a day at most, a dotted
-- Gmail spelling may be counted apart.
DROP FUNCTION accept_submission(text, text, int, int, text, text, text, jsonb, int, boolean, boolean, boolean, int, int, int, text[]);
--> statement-breakpoint
CREATE FUNCTION accept_submission(
  p_key text, p_client text, p_window_s int, p_limit int,
  p_kind text, p_sha text, p_email text, p_body jsonb, p_due_days int, p_notify boolean,
  p_mail boolean, p_team_mail boolean, p_mail_window_s int, p_ack_limit int, p_confirm_limit int,
  p_types text[]
) RETURNS TABLE (existing_id uuid, existing_sha text, recent int, retry_after int, new_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_oldest timestamptz;
  v_message text;
  v_limit int;
  v_key text;
  v_waiting uuid;
  v_slot timestamptz;
BEGIN
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
  INSERT INTO submissions (kind, idempotency_key, body_sha256, email, mailbox, client_key, body, due_at)
    VALUES (p_kind, p_key, p_sha, p_email, mailbox_of(p_email), p_client, p_body,
            CASE WHEN p_kind = 'privacy' THEN now() + make_interval(days => p_due_days) END)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id INTO new_id;
  IF new_id IS NOT NULL AND p_kind = 'privacy' THEN
    INSERT INTO privacy_records (id, received_at, request_types, due_at)
      SELECT s.id, s.received_at, p_types, s.due_at FROM submissions s WHERE s.id = new_id;
  END IF;
  IF new_id IS NOT NULL AND p_notify THEN
    INSERT INTO notifications (submission_id) VALUES (new_id);
  END IF;
  IF new_id IS NOT NULL AND p_team_mail THEN
    INSERT INTO notifications (submission_id, channel, message) VALUES (new_id, 'mail', 'team-new-request');
  END IF;
  IF new_id IS NOT NULL AND p_mail THEN
    v_message := CASE WHEN p_kind = 'privacy' THEN 'privacy-confirmation' ELSE 'invite-acknowledgment' END;
    v_limit := CASE WHEN p_kind = 'privacy' THEN p_confirm_limit ELSE p_ack_limit END;
    v_key := encode(sha256(convert_to(mailbox_of(p_email), 'UTF8')), 'hex');
    IF v_message = 'privacy-confirmation' THEN
      SELECT n.id INTO v_waiting FROM notifications n
        WHERE n.mailbox_sha256 = v_key AND n.message = v_message AND n.delivered_at IS NULL AND n.failed_at IS NULL
          AND n.rendered IS NULL AND (n.locked_until IS NULL OR n.locked_until < now())
        ORDER BY n.next_attempt_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED;
    END IF;
    IF v_waiting IS NOT NULL THEN
      UPDATE notifications SET covers = coalesce(covers, ARRAY[submission_id]) || new_id WHERE id = v_waiting;
    ELSIF (SELECT count(*) FROM mail_quota q
           WHERE q.email_sha256 = v_key AND q.message = v_message
             AND q.sent_at > now() - make_interval(secs => p_mail_window_s)) < v_limit THEN
      INSERT INTO notifications (submission_id, channel, message, mailbox_sha256) VALUES (new_id, 'mail', v_message, v_key);
      INSERT INTO mail_quota (email_sha256, message) VALUES (v_key, v_message);
    ELSIF v_message = 'privacy-confirmation' THEN
      SELECT q.sent_at + make_interval(secs => p_mail_window_s) INTO v_slot FROM mail_quota q
        WHERE q.email_sha256 = v_key AND q.message = v_message
          AND q.sent_at > now() - make_interval(secs => p_mail_window_s)
        ORDER BY q.sent_at DESC
        OFFSET v_limit - 1
        LIMIT 1;
      INSERT INTO notifications (submission_id, channel, message, mailbox_sha256, next_attempt_at)
        VALUES (new_id, 'mail', v_message, v_key, coalesce(v_slot, now()));
      INSERT INTO mail_quota (email_sha256, message, sent_at) VALUES (v_key, v_message, coalesce(v_slot, now()));
    END IF;
  END IF;
  RETURN NEXT;
END;
$$;
