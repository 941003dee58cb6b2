CREATE TABLE "submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"idempotency_key" text,
	"body_sha256" text NOT NULL,
	"email" text NOT NULL,
	"client_key" text NOT NULL,
	"body" jsonb NOT NULL,
	"due_at" timestamp with time zone,
	CONSTRAINT "submissions_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "submissions_kind" CHECK ("submissions"."kind" in ('invite', 'privacy')),
	CONSTRAINT "submissions_due_at" CHECK (("submissions"."kind" = 'privacy') = ("submissions"."due_at" is not null))
);
--> statement-breakpoint
CREATE INDEX "submissions_email" ON "submissions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "submissions_client_recent" ON "submissions" USING btree ("client_key","received_at");