CREATE TABLE `rate_counters` (
	`subject` text PRIMARY KEY NOT NULL,
	`cum` integer NOT NULL,
	`n` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `rate_hits` (
	`subject` text NOT NULL,
	`cum` integer NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`subject`, `cum`)
);
--> statement-breakpoint
CREATE INDEX `rate_hits_at` ON `rate_hits` (`subject`,`at`);--> statement-breakpoint
CREATE TABLE `sign_in_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sign_in_failures_key` ON `sign_in_failures` (`key`,`at`);