CREATE TABLE "erasures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email_sha256" text NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submissions" integer NOT NULL
);
