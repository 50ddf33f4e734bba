DROP INDEX "events_pending_org_seq";--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "position" bigint DEFAULT 0 NOT NULL;