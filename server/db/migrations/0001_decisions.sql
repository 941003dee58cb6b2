CREATE TABLE "cohorts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"starts_on" date NOT NULL,
	"capacity" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "cohorts_name_unique" UNIQUE("name"),
	CONSTRAINT "cohorts_capacity" CHECK ("cohorts"."capacity" is null or "cohorts"."capacity" > 0)
);
--> statement-breakpoint
CREATE TABLE "timeline" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"from_state" text,
	"to_state" text,
	"actor" text NOT NULL,
	"reason" text,
	"cohort_id" uuid,
	CONSTRAINT "timeline_action" CHECK ("timeline"."action" in ('accepted', 'waitlisted', 'declined', 'spam', 'reopened', 'note')),
	CONSTRAINT "timeline_note" CHECK (("timeline"."action" = 'note') = ("timeline"."to_state" is null) and ("timeline"."action" <> 'note' or "timeline"."reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_channel";--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "review_state" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "cohort_id" uuid;--> statement-breakpoint
-- Invite requests stored before the review existed: open ones are received; those the team marked done
-- (the command that waitlist replaced) are waitlisted, as `done` now does, without a mail.
UPDATE "submissions" SET "review_state" = CASE WHEN "handled_at" IS NULL THEN 'received' ELSE 'waitlisted' END WHERE "kind" = 'invite';--> statement-breakpoint
ALTER TABLE "timeline" ADD CONSTRAINT "timeline_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "timeline" ADD CONSTRAINT "timeline_cohort_id_cohorts_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."cohorts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "timeline_submission" ON "timeline" USING btree ("submission_id","at");--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_cohort_id_cohorts_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."cohorts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submissions_review" ON "submissions" USING btree ("review_state","received_at");--> statement-breakpoint
CREATE INDEX "submissions_cohort" ON "submissions" USING btree ("cohort_id");--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_event" CHECK (("deliveries"."channel" = 'event') = ("deliveries"."event" is not null));--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_channel" CHECK ("deliveries"."channel" in ('webhook', 'mail', 'event'));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_review_state" CHECK (("submissions"."kind" = 'invite') = ("submissions"."review_state" is not null) and ("submissions"."review_state" is null or "submissions"."review_state" in ('received', 'accepted', 'waitlisted', 'declined', 'spam')));--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_cohort" CHECK (("submissions"."cohort_id" is not null) = ("submissions"."review_state" is not distinct from 'accepted'));