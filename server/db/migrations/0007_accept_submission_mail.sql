-- accept_submission also writes the mail of a new request into the outbox (server/outbox/), in the
-- same statement as the submission, as it writes the webhook's row (0005):
-- - to the requester (p_mail): an invite request's acknowledgment, at most p_ack_limit per address in
--   p_mail_window_s (more requests are stored, not acknowledged again), or a privacy request's
--   confirmation of receipt (11 CCR §7021(a)), at most p_confirm_limit per address in p_mail_window_s,
--   so that the form cannot be used to flood someone's mailbox;
-- - to the team (p_team_mail): one message per stored request.
-- Counted in the database, so the limits hold across instances and within one batch.
DROP FUNCTION accept_submission(text, text, int, int, text, text, text, jsonb, int, boolean);
--> statement-breakpoint
CREATE FUNCTION accept_submission(
  p_key text, p_client text, p_window_s int, p_limit int,
  p_kind text, p_sha text, p_email text, p_body jsonb, p_due_days int, p_notify boolean,
  p_mail boolean, p_team_mail boolean, p_mail_window_s int, p_ack_limit int, p_confirm_limit int
) RETURNS TABLE (existing_id uuid, existing_sha text, recent int, retry_after int, new_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_oldest timestamptz;
  v_message text;
  v_limit int;
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
  IF new_id IS NOT NULL AND p_notify THEN
    INSERT INTO notifications (submission_id) VALUES (new_id);
  END IF;
  IF new_id IS NOT NULL AND p_team_mail THEN
    INSERT INTO notifications (submission_id, channel, message) VALUES (new_id, 'mail', 'team-new-request');
  END IF;
  IF new_id IS NOT NULL AND p_mail THEN
    v_message := CASE WHEN p_kind = 'privacy' THEN 'privacy-confirmation' ELSE 'invite-acknowledgment' END;
    v_limit := CASE WHEN p_kind = 'privacy' THEN p_confirm_limit ELSE p_ack_limit END;
    IF (SELECT count(*) FROM notifications n JOIN submissions s ON s.id = n.submission_id
        WHERE n.message = v_message AND s.email = p_email
          AND n.created_at > now() - make_interval(secs => p_mail_window_s)) < v_limit THEN
      INSERT INTO notifications (submission_id, channel, message) VALUES (new_id, 'mail', v_message);
    END IF;
  END IF;
  RETURN NEXT;
END;
$$;
