CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "events_pending_org_seq" ON "events" USING btree ("organization_id","seq") WHERE "events"."status" = 'pending';