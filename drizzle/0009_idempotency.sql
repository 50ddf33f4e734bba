CREATE TABLE `idempotency_keys` (
	`organization_id` text NOT NULL,
	`principal_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`body_hash` text NOT NULL,
	`status` integer NOT NULL,
	`content_type` text,
	`location` text,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`organization_id`, `principal_id`, `key`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);