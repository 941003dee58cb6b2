CREATE TABLE "team_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"challenge" text NOT NULL,
	"purpose" text NOT NULL,
	"member_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "team_challenges_purpose" CHECK ("team_challenges"."purpose" in ('enroll', 'signin') and ("team_challenges"."purpose" = 'enroll') = ("team_challenges"."member_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce("submissions"."body"->'data'->>'fullName', '') || ' ' || "submissions"."email" || ' ' || coalesce("submissions"."body"->'data'->>'companyName', ''))) STORED;--> statement-breakpoint
ALTER TABLE "team_challenges" ADD CONSTRAINT "team_challenges_member_id_team_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_challenges_expires" ON "team_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "submissions_received" ON "submissions" USING btree ("received_at","id");