ALTER TABLE "cohorts" DROP CONSTRAINT "cohorts_name_unique";--> statement-breakpoint
ALTER TABLE "team_audit" DROP CONSTRAINT "team_audit_action";--> statement-breakpoint
-- A cohort's name is trimmed, NFKC-normalised and unique whatever its case (server/db/decisions.ts
-- cohortNameOf). The names stored before are normalised here. Where two were look-alikes ("Two", "two",
-- "Two "), the first created keeps the name and each later one becomes "<name> (<first 8 characters of its
-- id>)", keeping its requests and capacity: the migration never fails on such a database, nothing is merged,
-- and the team sees both cohorts under names that differ.
WITH normalised AS (
  SELECT "id", btrim(normalize("name", NFKC)) AS clean,
    row_number() OVER (PARTITION BY lower(btrim(normalize("name", NFKC))) ORDER BY "created_at", "id") AS rank
  FROM "cohorts"
), renamed AS (
  SELECT "id", CASE WHEN rank = 1 THEN clean ELSE clean || ' (' || left("id"::text, 8) || ')' END AS "name" FROM normalised
)
UPDATE "cohorts" SET "name" = renamed."name" FROM renamed WHERE "cohorts"."id" = renamed."id" AND "cohorts"."name" <> renamed."name";--> statement-breakpoint
CREATE UNIQUE INDEX "cohorts_name_lower" ON "cohorts" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "team_audit" ADD CONSTRAINT "team_audit_action" CHECK ("team_audit"."action" in ('member added', 'member removed', 'enrollment link issued', 'passkey registered', 'signed in', 'sign-in failed', 'signed out', 'decision', 'note', 'export', 'cohort added'));