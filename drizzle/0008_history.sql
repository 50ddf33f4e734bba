CREATE TABLE `dossier_history` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`dossier_id` text NOT NULL,
	`at` text NOT NULL,
	`kind` text NOT NULL,
	`actor_type` text,
	`actor_id` text,
	`actor_name` text,
	`changes` text NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`dossier_id`) REFERENCES `dossiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `dossier_history_dossier` ON `dossier_history` (`organization_id`,`dossier_id`,`seq`);--> statement-breakpoint
CREATE TABLE `dossier_outcomes` (
	`dossier_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`flow_id` text,
	`status` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dossier_outcomes_flow_at` ON `dossier_outcomes` (`organization_id`,`flow_id`,`at`);--> statement-breakpoint
CREATE TABLE `stage_visits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`organization_id` text NOT NULL,
	`flow_id` text,
	`dossier_id` text NOT NULL,
	`stage_id` text NOT NULL,
	`entered_at` text NOT NULL,
	`left_at` text,
	`next_stage_id` text
);
--> statement-breakpoint
CREATE INDEX `stage_visits_dossier` ON `stage_visits` (`dossier_id`,`entered_at`);--> statement-breakpoint
CREATE INDEX `stage_visits_stage_entered` ON `stage_visits` (`organization_id`,`stage_id`,`entered_at`);--> statement-breakpoint
CREATE INDEX `stage_visits_stage_left` ON `stage_visits` (`organization_id`,`stage_id`,`left_at`,`next_stage_id`,`entered_at`);--> statement-breakpoint
-- Keeps stage_visits and dossier_outcomes in step with dossiers inside each writing transaction,
-- whichever service or process moves a dossier.
CREATE TRIGGER `stage_visits_insert` AFTER INSERT ON `dossiers` WHEN NEW.`current_stage_id` IS NOT NULL BEGIN
  INSERT INTO `stage_visits` (`organization_id`, `flow_id`, `dossier_id`, `stage_id`, `entered_at`)
  VALUES (NEW.`organization_id`, NEW.`flow_id`, NEW.`id`, NEW.`current_stage_id`, coalesce(NEW.`stage_entered_at`, NEW.`created_at`));
END;
--> statement-breakpoint
CREATE TRIGGER `stage_visits_move` AFTER UPDATE OF `current_stage_id` ON `dossiers`
WHEN OLD.`current_stage_id` IS NOT NEW.`current_stage_id`
BEGIN
  UPDATE `stage_visits` SET `left_at` = coalesce(NEW.`stage_entered_at`, NEW.`updated_at`), `next_stage_id` = NEW.`current_stage_id`
   WHERE `dossier_id` = NEW.`id` AND `left_at` IS NULL;
  INSERT INTO `stage_visits` (`organization_id`, `flow_id`, `dossier_id`, `stage_id`, `entered_at`)
  SELECT NEW.`organization_id`, NEW.`flow_id`, NEW.`id`, NEW.`current_stage_id`, coalesce(NEW.`stage_entered_at`, NEW.`updated_at`)
   WHERE NEW.`current_stage_id` IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `dossier_outcomes_insert` AFTER INSERT ON `dossiers` WHEN NEW.`status` IN ('won', 'lost') BEGIN
  INSERT INTO `dossier_outcomes` (`dossier_id`, `organization_id`, `flow_id`, `status`, `at`)
  VALUES (NEW.`id`, NEW.`organization_id`, NEW.`flow_id`, NEW.`status`, NEW.`updated_at`);
END;
--> statement-breakpoint
CREATE TRIGGER `dossier_outcomes_update` AFTER UPDATE OF `status` ON `dossiers`
WHEN NEW.`status` IN ('won', 'lost') AND OLD.`status` IS NOT NEW.`status`
BEGIN
  INSERT INTO `dossier_outcomes` (`dossier_id`, `organization_id`, `flow_id`, `status`, `at`)
  VALUES (NEW.`id`, NEW.`organization_id`, NEW.`flow_id`, NEW.`status`, NEW.`updated_at`)
  ON CONFLICT DO UPDATE SET `status` = excluded.`status`, `at` = excluded.`at`, `flow_id` = excluded.`flow_id`;
END;
--> statement-breakpoint
-- The dossiers of before this migration: their current stay (from stage_entered_at) and outcome.
INSERT INTO `stage_visits` (`organization_id`, `flow_id`, `dossier_id`, `stage_id`, `entered_at`)
SELECT `organization_id`, `flow_id`, `id`, `current_stage_id`, coalesce(`stage_entered_at`, `created_at`)
  FROM `dossiers` WHERE `current_stage_id` IS NOT NULL;
--> statement-breakpoint
INSERT INTO `dossier_outcomes` (`dossier_id`, `organization_id`, `flow_id`, `status`, `at`)
SELECT `id`, `organization_id`, `flow_id`, `status`, `updated_at` FROM `dossiers` WHERE `status` IN ('won', 'lost');
