CREATE TABLE `contact_metadata` (
	`contact_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`contact_id`, `key`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_metadata_lookup` ON `contact_metadata` (`organization_id`,`key`,`value`,`contact_id`);--> statement-breakpoint
CREATE TABLE `dossier_metadata` (
	`dossier_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`dossier_id`, `key`),
	FOREIGN KEY (`dossier_id`) REFERENCES `dossiers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dossier_metadata_lookup` ON `dossier_metadata` (`organization_id`,`key`,`value`,`dossier_id`);--> statement-breakpoint
ALTER TABLE `contacts` ADD `metadata` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `dossiers` ADD `metadata` text DEFAULT '{}' NOT NULL;