CREATE TABLE "privacy_records" (
	"id" uuid PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"request_types" text[] NOT NULL,
	"method" text DEFAULT 'web form' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"confirmation_sent_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"extended_at" timestamp with time zone,
	"extension_reason" text,
	"responded_at" timestamp with time zone,
	"outcome" text,
	"outcome_reason" text,
	"responded_by" text,
	CONSTRAINT "privacy_records_outcome" CHECK ("privacy_records"."outcome" is null or "privacy_records"."outcome" in ('complied', 'denied', 'partly')),
	CONSTRAINT "privacy_records_denial_reason" CHECK ("privacy_records"."outcome" is null or "privacy_records"."outcome" = 'complied' or "privacy_records"."outcome_reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "attach_subject" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "privacy_records_received" ON "privacy_records" USING btree ("received_at");