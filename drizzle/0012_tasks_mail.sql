CREATE TABLE `outgoing_mail` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`member_id` text,
	`task_id` text,
	`kind` text NOT NULL,
	`to_address` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_attempt_at` text,
	`last_error` text,
	`reply` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `outgoing_mail_due` ON `outgoing_mail` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outgoing_mail_org_created` ON `outgoing_mail` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`dossier_id` text,
	`contact_id` text,
	`title` text NOT NULL,
	`notes` text,
	`due_at` text,
	`remind_at` text,
	`reminded_at` text,
	`assigned_to` text,
	`status` text NOT NULL,
	`done_at` text,
	`created_by_kind` text NOT NULL,
	`created_by_id` text,
	`stage_visit_id` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`dossier_id`) REFERENCES `dossiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tasks_org_due` ON `tasks` (`organization_id`,`due_at`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_org_assigned_due` ON `tasks` (`organization_id`,`assigned_to`,`status`,`due_at`);--> statement-breakpoint
CREATE INDEX `tasks_org_dossier` ON `tasks` (`organization_id`,`dossier_id`);--> statement-breakpoint
CREATE INDEX `tasks_org_contact` ON `tasks` (`organization_id`,`contact_id`);--> statement-breakpoint
CREATE INDEX `tasks_remind_due` ON `tasks` (`remind_at`) WHERE "tasks"."reminded_at" IS NULL AND "tasks"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_stage_visit` ON `tasks` (`stage_visit_id`);--> statement-breakpoint
ALTER TABLE `flows` ADD `overdue_tasks` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `members` ADD `time_zone` text;--> statement-breakpoint
ALTER TABLE `members` ADD `digest` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `members` ADD `last_digest_date` text;--> statement-breakpoint
ALTER TABLE `members` ADD `calendar_token_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `members_calendar_token` ON `members` (`calendar_token_hash`);--> statement-breakpoint
CREATE INDEX `dossiers_active_due` ON `dossiers` (`stage_due_at`) WHERE "dossiers"."status" = 'active';