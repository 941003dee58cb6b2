-- accept_submission also writes the submission's webhook notification (server/notifier.ts) when
-- p_notify is true, in the same statement as the submission: a stored request is never left
-- unannounced, and a notification never exists without its request. Otherwise as in 0001.
DROP FUNCTION accept_submission(text, text, int, int, text, text, text, jsonb, int);
--> statement-breakpoint
CREATE FUNCTION accept_submission(
  p_key text, p_client text, p_window_s int, p_limit int,
  p_kind text, p_sha text, p_email text, p_body jsonb, p_due_days int, p_notify boolean
) RETURNS TABLE (existing_id uuid, existing_sha text, recent int, retry_after int, new_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  v_oldest timestamptz;
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
  RETURN NEXT;
END;
$$;
