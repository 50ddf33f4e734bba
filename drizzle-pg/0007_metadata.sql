CREATE TABLE "contact_metadata" (
	"contact_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "contact_metadata_contact_id_key_pk" PRIMARY KEY("contact_id","key")
);
--> statement-breakpoint
CREATE TABLE "dossier_metadata" (
	"dossier_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "dossier_metadata_dossier_id_key_pk" PRIMARY KEY("dossier_id","key")
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "metadata" text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "dossiers" ADD COLUMN "metadata" text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_metadata" ADD CONSTRAINT "contact_metadata_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dossier_metadata" ADD CONSTRAINT "dossier_metadata_dossier_id_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."dossiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_metadata_lookup" ON "contact_metadata" USING btree ("organization_id","key","value","contact_id");--> statement-breakpoint
CREATE INDEX "dossier_metadata_lookup" ON "dossier_metadata" USING btree ("organization_id","key","value","dossier_id");