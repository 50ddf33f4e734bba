DROP INDEX `events_pending_org_seq`;--> statement-breakpoint
ALTER TABLE `leases` ADD `position` integer DEFAULT 0 NOT NULL;