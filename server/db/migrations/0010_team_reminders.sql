CREATE TABLE "privacy_overdue_alerts" (
	"request_id" uuid PRIMARY KEY NOT NULL,
	"alerted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_digests" (
	"day" date PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"by" text NOT NULL,
	"mails" integer NOT NULL,
	CONSTRAINT "team_digests_by" CHECK ("team_digests"."by" in ('schedule', 'cli'))
);
--> statement-breakpoint
ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_member_mail";--> statement-breakpoint
ALTER TABLE "team_audit" DROP CONSTRAINT "team_audit_action";--> statement-breakpoint
ALTER TABLE "privacy_overdue_alerts" ADD CONSTRAINT "privacy_overdue_alerts_request_id_submissions_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_member_mail" CHECK ("deliveries"."member_id" is null or ("deliveries"."channel" = 'mail' and "deliveries"."message" in ('team-enrollment', 'team-digest', 'team-overdue')));--> statement-breakpoint
ALTER TABLE "team_audit" ADD CONSTRAINT "team_audit_action" CHECK ("team_audit"."action" in ('member added', 'member removed', 'enrollment link issued', 'passkey registered', 'signed in', 'sign-in failed', 'signed out', 'decision', 'note', 'export', 'cohort added', 'digest sent'));