DROP INDEX "submissions_mailbox";--> statement-breakpoint
CREATE INDEX "submissions_mailbox_kind" ON "submissions" USING btree ("mailbox","kind","received_at");