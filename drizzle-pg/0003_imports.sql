CREATE TABLE "import_rows" (
	"import_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"row" integer NOT NULL,
	"resource_id" text NOT NULL,
	"action" text NOT NULL,
	"previous" text,
	"updated_at" text NOT NULL,
	CONSTRAINT "import_rows_import_id_row_pk" PRIMARY KEY("import_id","row")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"resource" text NOT NULL,
	"status" text NOT NULL,
	"dry_run" boolean NOT NULL,
	"mode" text NOT NULL,
	"match_on" text NOT NULL,
	"emit_events" boolean NOT NULL,
	"settings" text NOT NULL,
	"file_name" text,
	"file" text,
	"actor_type" text,
	"actor_id" text,
	"rows" integer NOT NULL,
	"processed" integer NOT NULL,
	"created" integer NOT NULL,
	"updated" integer NOT NULL,
	"skipped" integer NOT NULL,
	"failed" integer NOT NULL,
	"last_row" integer NOT NULL,
	"errors" text NOT NULL,
	"failure" text,
	"revert_undone" integer,
	"revert_skipped" integer,
	"created_at" text NOT NULL,
	"finished_at" text,
	"reverted_at" text
);
--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_org_created" ON "imports" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "imports_status" ON "imports" USING btree ("status");