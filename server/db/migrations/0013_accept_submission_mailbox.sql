-- The per-address mail limits count a mailbox, not an address: `ada+1@example.com`, `ada+2@…` and
-- `ada@example.com` reach one inbox, so they share one limit (the sub-address after `+`, RFC 5233, is
-- left out of the key; server/storage.ts `mailboxOf` is the same rule for erase). Otherwise as in 0011.
-- Rows counted so far keep their key: for a day at most, a tagged address may be counted apart.
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
  INSERT INTO submissions (kind, idempotency_key, body_sha256, email, client_key, body, due_at)
    VALUES (p_kind, p_key, p_sha, p_email, p_client, p_body,
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
    v_key := encode(sha256(convert_to(regexp_replace(p_email, '\+[^@]*(@[^@]*)$', '\1'), 'UTF8')), 'hex');
    IF (SELECT count(*) FROM mail_quota q
        WHERE q.email_sha256 = v_key AND q.message = v_message
          AND q.sent_at > now() - make_interval(secs => p_mail_window_s)) < v_limit THEN
      INSERT INTO notifications (submission_id, channel, message) VALUES (new_id, 'mail', v_message);
      INSERT INTO mail_quota (email_sha256, message) VALUES (v_key, v_message);
    END IF;
  END IF;
  RETURN NEXT;
END;
$$;
