CREATE TABLE "queue_counts" (
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"n" integer NOT NULL
);
