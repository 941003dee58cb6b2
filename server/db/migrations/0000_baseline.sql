CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text,
	"channel" text DEFAULT 'webhook' NOT NULL,
	"message" text,
	"attach_subject" boolean DEFAULT false NOT NULL,
	"rendered" text,
	"covers" uuid[],
	"mailbox_sha256" text,
	CONSTRAINT "deliveries_channel" CHECK ("deliveries"."channel" in ('webhook', 'mail')),
	CONSTRAINT "deliveries_message" CHECK (("deliveries"."channel" = 'mail') = ("deliveries"."message" is not null))
);
--> statement-breakpoint
CREATE TABLE "erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email_sha256" text NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submissions" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_quota" (
	"email_sha256" text NOT NULL,
	"message" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privacy_records" (
	"id" uuid PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"request_types" text[] NOT NULL,
	"method" text DEFAULT 'web form' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"confirmation_sent_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	"verified_by" text,
	"extended_at" timestamp with time zone,
	"extension_reason" text,
	"responded_at" timestamp with time zone,
	"outcome" text,
	"outcome_reason" text,
	"responded_by" text,
	CONSTRAINT "privacy_records_verified_by" CHECK (("privacy_records"."verified_at" is null) = ("privacy_records"."verified_by" is null) and ("privacy_records"."verified_by" is null or "privacy_records"."verified_by" in ('link', 'team'))),
	CONSTRAINT "privacy_records_outcome" CHECK ("privacy_records"."outcome" is null or "privacy_records"."outcome" in ('complied', 'denied', 'partly')),
	CONSTRAINT "privacy_records_denial_reason" CHECK ("privacy_records"."outcome" is null or "privacy_records"."outcome" = 'complied' or "privacy_records"."outcome_reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "privacy_verifications" (
	"token_sha256" text PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"idempotency_key" text,
	"body_sha256" text NOT NULL,
	"email" text NOT NULL,
	"mailbox" text NOT NULL,
	"client_key" text NOT NULL,
	"body" jsonb NOT NULL,
	"due_at" timestamp with time zone,
	"handled_at" timestamp with time zone,
	"handled_by" text,
	"handled_note" text,
	CONSTRAINT "submissions_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "submissions_kind" CHECK ("submissions"."kind" in ('invite', 'privacy')),
	CONSTRAINT "submissions_due_at" CHECK (("submissions"."kind" = 'privacy') = ("submissions"."due_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_verifications" ADD CONSTRAINT "privacy_verifications_request_id_submissions_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_pending" ON "deliveries" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "deliveries_submission" ON "deliveries" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "deliveries_waiting_mailbox" ON "deliveries" USING btree ("mailbox_sha256","message") WHERE "deliveries"."delivered_at" is null and "deliveries"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "mail_quota_recent" ON "mail_quota" USING btree ("email_sha256","message","sent_at");--> statement-breakpoint
CREATE INDEX "privacy_records_received" ON "privacy_records" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "privacy_verifications_request" ON "privacy_verifications" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "submissions_email" ON "submissions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "submissions_mailbox" ON "submissions" USING btree ("mailbox");--> statement-breakpoint
CREATE INDEX "submissions_client_recent" ON "submissions" USING btree ("client_key","received_at");