CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text,
	`prefix` text NOT NULL,
	`key_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	`last_used_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_org` ON `api_keys` (`organization_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`full_name` text NOT NULL,
	`email` text,
	`email_folded` text,
	`phone` text,
	`linkedin_url` text,
	`company` text,
	`role` text,
	`city` text,
	`kind` text NOT NULL,
	`kind_mask` integer NOT NULL,
	`notes` text,
	`pool_added_at` text,
	`pool_expires_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `contacts_org_created` ON `contacts` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_org_email` ON `contacts` (`organization_id`,`email_folded`);--> statement-breakpoint
CREATE TABLE `delivery_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_seq` integer NOT NULL,
	`at` text NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL,
	`response_snippet` text,
	FOREIGN KEY (`event_seq`) REFERENCES `events`(`seq`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_event` ON `delivery_attempts` (`event_seq`,`id`);--> statement-breakpoint
CREATE TABLE `dossier_contacts` (
	`dossier_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`role_on_dossier` text NOT NULL,
	`is_primary` integer NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`dossier_id`, `contact_id`),
	FOREIGN KEY (`dossier_id`) REFERENCES `dossiers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `dossier_contacts_contact` ON `dossier_contacts` (`contact_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `dossier_contacts_one_primary` ON `dossier_contacts` (`dossier_id`) WHERE is_primary = 1;--> statement-breakpoint
CREATE TABLE `dossiers` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`flow_id` text,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`company` text,
	`role` text,
	`contact_person` text,
	`status` text NOT NULL,
	`current_stage_id` text,
	`assigned_to` text,
	`deal_size` real,
	`deal_currency` text,
	`intake_notes` text,
	`cv_url` text,
	`contact_id` text,
	`stage_entered_at` text,
	`stage_due_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`current_stage_id`) REFERENCES `stages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `dossiers_org_created` ON `dossiers` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `dossiers_org_status_created` ON `dossiers` (`organization_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `dossiers_org_type_status_created` ON `dossiers` (`organization_id`,`type`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `dossiers_stage_created` ON `dossiers` (`current_stage_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `dossiers_org_flow_created` ON `dossiers` (`organization_id`,`flow_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `dossiers_org_assigned_created` ON `dossiers` (`organization_id`,`assigned_to`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `dossiers_org_status_due` ON `dossiers` (`organization_id`,`status`,`stage_due_at`);--> statement-breakpoint
CREATE INDEX `dossiers_contact` ON `dossiers` (`contact_id`);--> statement-breakpoint
CREATE TABLE `events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`organization_id` text NOT NULL,
	`type` text NOT NULL,
	`created_at` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_status_code` integer,
	`last_error` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_id` ON `events` (`id`);--> statement-breakpoint
CREATE INDEX `events_pending_due` ON `events` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `events_org_seq` ON `events` (`organization_id`,`seq`);--> statement-breakpoint
CREATE TABLE `flows` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`is_default` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `flows_org_name` ON `flows` (`organization_id`,`name`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `flows_one_default` ON `flows` (`organization_id`,`type`) WHERE is_default = 1;--> statement-breakpoint
CREATE TABLE `notes` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`dossier_id` text NOT NULL,
	`content` text NOT NULL,
	`is_internal` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`dossier_id`) REFERENCES `dossiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notes_dossier_created` ON `notes` (`dossier_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`plan` text NOT NULL,
	`rate_limit` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `stages` (
	`id` text PRIMARY KEY NOT NULL,
	`flow_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`position` integer NOT NULL,
	`deadline_days` integer,
	`win_probability` integer NOT NULL,
	`color` text NOT NULL,
	FOREIGN KEY (`flow_id`) REFERENCES `flows`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stages_flow_position` ON `stages` (`flow_id`,`position`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`disabled_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
