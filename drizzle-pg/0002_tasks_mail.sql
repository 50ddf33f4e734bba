CREATE TABLE "outgoing_mail" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"member_id" text,
	"task_id" text,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint,
	"last_attempt_at" text,
	"last_error" text,
	"reply" text,
	"sent_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"dossier_id" text,
	"contact_id" text,
	"title" text NOT NULL,
	"notes" text,
	"due_at" text,
	"remind_at" text,
	"reminded_at" text,
	"assigned_to" text,
	"status" text NOT NULL,
	"done_at" text,
	"created_by_kind" text NOT NULL,
	"created_by_id" text,
	"stage_visit_id" bigint,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flows" ADD COLUMN "overdue_tasks" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "digest" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "last_digest_date" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "calendar_token_hash" text;--> statement-breakpoint
ALTER TABLE "outgoing_mail" ADD CONSTRAINT "outgoing_mail_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_dossier_id_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."dossiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outgoing_mail_due" ON "outgoing_mail" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "outgoing_mail_org_created" ON "outgoing_mail" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_org_due" ON "tasks" USING btree ("organization_id","due_at","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_org_assigned_due" ON "tasks" USING btree ("organization_id","assigned_to","status","due_at");--> statement-breakpoint
CREATE INDEX "tasks_org_dossier" ON "tasks" USING btree ("organization_id","dossier_id");--> statement-breakpoint
CREATE INDEX "tasks_org_contact" ON "tasks" USING btree ("organization_id","contact_id");--> statement-breakpoint
CREATE INDEX "tasks_remind_due" ON "tasks" USING btree ("remind_at") WHERE "tasks"."reminded_at" IS NULL AND "tasks"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_stage_visit" ON "tasks" USING btree ("stage_visit_id");--> statement-breakpoint
CREATE INDEX "dossiers_active_due" ON "dossiers" USING btree ("stage_due_at") WHERE "dossiers"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "members_calendar_token" ON "members" USING btree ("calendar_token_hash");