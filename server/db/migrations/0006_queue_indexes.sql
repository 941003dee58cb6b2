DROP INDEX "submissions_mailbox";--> statement-breakpoint
CREATE INDEX "submissions_mailbox_kind" ON "submissions" USING btree ("mailbox","kind","received_at");--> statement-breakpoint
CREATE INDEX "submissions_queue_counts" ON "submissions" USING btree ("kind","review_state","handled_at","due_at","search_text");