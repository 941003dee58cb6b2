-- A request's address (submissions.email) keeps its local part as typed and lower-cases only its domain
-- (server/db/mailbox.ts addressOf): a local part may be case-sensitive (RFC 5321 §2.4), so a person's data
-- is disclosed and erased by the very address that asked. The rows stored before were lower-cased whole;
-- each gets its address again from the body the visitor sent, which keeps the address as typed.
UPDATE "submissions"
SET "email" = substring(btrim("body"->'data'->>'workEmail') FROM '^(.*)@[^@]*$') || '@' || lower(substring(btrim("body"->'data'->>'workEmail') FROM '@([^@]*)$'))
WHERE btrim("body"->'data'->>'workEmail') LIKE '%@%'
  AND "email" <> substring(btrim("body"->'data'->>'workEmail') FROM '^(.*)@[^@]*$') || '@' || lower(substring(btrim("body"->'data'->>'workEmail') FROM '@([^@]*)$'));
