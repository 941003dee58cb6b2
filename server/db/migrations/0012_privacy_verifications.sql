-- Verification links of privacy requests (issue #27): only the SHA-256 of each token is stored; how a
-- request was verified (link or team) joins the record of 11 CCR §7101.
CREATE TABLE "privacy_verifications" (
	"token_sha256" text PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "privacy_records" ADD COLUMN "verified_by" text;--> statement-breakpoint
-- every verification before this migration was recorded by the team (`requests verify`)
UPDATE "privacy_records" SET "verified_by" = 'team' WHERE "verified_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "privacy_verifications" ADD CONSTRAINT "privacy_verifications_request_id_submissions_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_verifications_request" ON "privacy_verifications" USING btree ("request_id");--> statement-breakpoint
ALTER TABLE "privacy_records" ADD CONSTRAINT "privacy_records_verified_by" CHECK (("privacy_records"."verified_at" is null) = ("privacy_records"."verified_by" is null) and ("privacy_records"."verified_by" is null or "privacy_records"."verified_by" in ('link', 'team')));