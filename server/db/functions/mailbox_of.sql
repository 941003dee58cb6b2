-- mailbox_of: the mailbox an address reaches, the rule of `mailboxOf` in server/db/mailbox.ts (a property
-- test checks that both agree): lower case; the local part without its `+` sub-address (RFC 5233); at
-- gmail.com and googlemail.com, one mailbox: without the local part's dots, at gmail.com.
-- accept_submission stores it in submissions.mailbox and counts the per-mailbox mail limits by it.
--
-- Applied again by the migrator whenever this file changes (server/db/database.ts). `create or replace`
-- keeps the argument and result types; to change them, first `DROP FUNCTION mailbox_of(text);` here.
CREATE OR REPLACE FUNCTION mailbox_of(p_email text) RETURNS text
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
