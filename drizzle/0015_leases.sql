CREATE TABLE `leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_pending_org_seq` ON `events` (`organization_id`,`seq`) WHERE "events"."status" = 'pending';