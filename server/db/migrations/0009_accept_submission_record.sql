-- The record of 11 CCR §7101 (privacy_records, 0008): accept_submission writes it for each privacy
-- request in the same statement as the request (p_types: its request types, the form's own labels,
-- read by the server), so no request is ever left unrecorded. Otherwise as in 0007.
-- Privacy requests stored before this migration get their record here, their types read from the
-- request's text the same way, and a response recorded from `done` (date and who; no outcome, and not
-- the note, which may name the person: the record outlives `erase`).
INSERT INTO privacy_records (id, received_at, request_types, due_at, responded_at, responded_by)
  SELECT s.id, s.received_at,
    array(SELECT k.t FROM unnest(array['Access/Know', 'Delete', 'Correct', 'Opt-Out', 'Data Portability', 'Other']) WITH ORDINALITY AS k(t, n)
          WHERE k.t = any(string_to_array(substring(s.body->'data'->>'useCaseDescription' FROM 'Request types: ([^\n]*)'), ', '))
          ORDER BY k.n),
    s.due_at, s.handled_at, s.handled_by
  FROM submissions s WHERE s.kind = 'privacy'
  ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
DROP FUNCTION accept_submission(text, text, int, int, text, text, text, jsonb, int, boolean, boolean, boolean, int, int, int);
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
    IF (SELECT count(*) FROM notifications n JOIN submissions s ON s.id = n.submission_id
        WHERE n.message = v_message AND s.email = p_email
          AND n.created_at > now() - make_interval(secs => p_mail_window_s)) < v_limit THEN
      INSERT INTO notifications (submission_id, channel, message) VALUES (new_id, 'mail', v_message);
    END IF;
  END IF;
  RETURN NEXT;
END;
$$;
