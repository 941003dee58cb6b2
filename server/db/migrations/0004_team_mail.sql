ALTER TABLE "deliveries" ALTER COLUMN "submission_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "member_id" uuid;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_member_id_team_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_member" ON "deliveries" USING btree ("member_id") WHERE "deliveries"."member_id" is not null;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_owner" CHECK (num_nonnulls("deliveries"."submission_id", "deliveries"."member_id") = 1);--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_member_mail" CHECK ("deliveries"."member_id" is null or ("deliveries"."channel" = 'mail' and "deliveries"."message" = 'team-enrollment'));