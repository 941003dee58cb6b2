CREATE TABLE "mail_quota" (
	"email_sha256" text NOT NULL,
	"message" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mail_quota_recent" ON "mail_quota" USING btree ("email_sha256","message","sent_at");