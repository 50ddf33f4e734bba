CREATE TABLE `intake_addresses` (
	`flow_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`token_sealed` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `intake_addresses_token` ON `intake_addresses` (`token_hash`);--> statement-breakpoint
CREATE INDEX `intake_addresses_org` ON `intake_addresses` (`organization_id`);--> statement-breakpoint
CREATE TABLE `intake_messages` (
	`flow_id` text NOT NULL,
	`message_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`dossier_id` text NOT NULL,
	`received_at` text NOT NULL,
	PRIMARY KEY(`flow_id`, `message_id`),
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`dossier_id`) REFERENCES `dossiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `intake_messages_org` ON `intake_messages` (`organization_id`);