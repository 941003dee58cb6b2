CREATE TABLE "team_audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"member_id" uuid,
	"action" text NOT NULL,
	"request_id" uuid,
	"detail" text,
	CONSTRAINT "team_audit_action" CHECK ("team_audit"."action" in ('member added', 'member removed', 'enrollment link issued', 'passkey registered', 'signed in', 'sign-in failed', 'signed out', 'decision', 'note'))
);
--> statement-breakpoint
CREATE TABLE "team_enrollments" (
	"token_sha256" text PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"webauthn_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "team_members_email_unique" UNIQUE("email"),
	CONSTRAINT "team_members_webauthn_user_id_unique" UNIQUE("webauthn_user_id")
);
--> statement-breakpoint
CREATE TABLE "team_passkeys" (
	"id" text PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"public_key" "bytea" NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "team_sessions" (
	"token_sha256" text PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "team_audit" ADD CONSTRAINT "team_audit_member_id_team_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_enrollments" ADD CONSTRAINT "team_enrollments_member_id_team_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_passkeys" ADD CONSTRAINT "team_passkeys_member_id_team_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_sessions" ADD CONSTRAINT "team_sessions_member_id_team_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_audit_at" ON "team_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "team_enrollments_member" ON "team_enrollments" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "team_passkeys_member" ON "team_passkeys" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "team_sessions_member" ON "team_sessions" USING btree ("member_id");