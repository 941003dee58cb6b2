-- team_audit_append_only: the team's audit trail (team_audit, server/db/schema/team.ts) is append-only.
-- A row, once written, is never changed or deleted by the app: any UPDATE or DELETE raises. (Whoever
-- owns the database can still drop the trigger; the audit is against mistakes and a stolen session,
-- not against the database's owner.)
-- Applied again by the migrator whenever this file changes (server/db/database.ts).
CREATE OR REPLACE FUNCTION team_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'team_audit is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE OR REPLACE TRIGGER team_audit_append_only
  BEFORE UPDATE OR DELETE ON team_audit
  FOR EACH STATEMENT EXECUTE FUNCTION team_audit_append_only();
