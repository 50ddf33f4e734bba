CREATE TABLE `import_rows` (
	`import_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`row` integer NOT NULL,
	`resource_id` text NOT NULL,
	`action` text NOT NULL,
	`previous` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`import_id`, `row`),
	FOREIGN KEY (`import_id`) REFERENCES `imports`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `imports` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`resource` text NOT NULL,
	`status` text NOT NULL,
	`dry_run` integer NOT NULL,
	`mode` text NOT NULL,
	`match_on` text NOT NULL,
	`emit_events` integer NOT NULL,
	`settings` text NOT NULL,
	`file_name` text,
	`file` text,
	`actor_type` text,
	`actor_id` text,
	`rows` integer NOT NULL,
	`processed` integer NOT NULL,
	`created` integer NOT NULL,
	`updated` integer NOT NULL,
	`skipped` integer NOT NULL,
	`failed` integer NOT NULL,
	`last_row` integer NOT NULL,
	`errors` text NOT NULL,
	`failure` text,
	`revert_undone` integer,
	`revert_skipped` integer,
	`created_at` text NOT NULL,
	`finished_at` text,
	`reverted_at` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `imports_org_created` ON `imports` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `imports_status` ON `imports` (`status`);