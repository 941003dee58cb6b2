ALTER TABLE "notifications" ADD COLUMN "channel" text DEFAULT 'webhook' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "message" text;--> statement-breakpoint
CREATE INDEX "notifications_submission" ON "notifications" USING btree ("submission_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_channel" CHECK ("notifications"."channel" in ('webhook', 'mail'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_message" CHECK (("notifications"."channel" = 'mail') = ("notifications"."message" is not null));