DROP INDEX `dossiers_active_due`;--> statement-breakpoint
ALTER TABLE `dossiers` ADD `overdue_task_visit_id` integer;--> statement-breakpoint
-- Hand-added after drizzle-kit generate: the dossiers whose current stage visit has its follow-up
-- task already (C22) are handled, as the scan of before this migration saw them.
UPDATE `dossiers` SET `overdue_task_visit_id` = v.`id`
  FROM `tasks` t JOIN `stage_visits` v ON v.`id` = t.`stage_visit_id`
 WHERE v.`dossier_id` = `dossiers`.`id` AND v.`organization_id` = `dossiers`.`organization_id` AND v.`stage_id` = `dossiers`.`current_stage_id`
   AND v.`id` = (SELECT max(`id`) FROM `stage_visits` WHERE `dossier_id` = `dossiers`.`id` AND `organization_id` = `dossiers`.`organization_id` AND `left_at` IS NULL);--> statement-breakpoint
CREATE INDEX `dossiers_overdue_todo` ON `dossiers` (`stage_due_at`,`id`) WHERE "dossiers"."status" = 'active' AND "dossiers"."stage_due_at" IS NOT NULL AND "dossiers"."overdue_task_visit_id" IS NULL;--> statement-breakpoint
-- Hand-added: the overdue-tasks job's mark alone (a dossier's overdue_task_visit_id set, updated_at
-- as it was) changes nothing a cache of dossiers holds: it moves no generation (0005), so that a
-- catch-up does not void the dossiers' caches of an organization batch after batch. Every other
-- change of a dossier sets updated_at, or leaves the mark as it was: it moves the generation as before.
DROP TRIGGER `generations_dossiers_update`;--> statement-breakpoint
CREATE TRIGGER `generations_dossiers_update` AFTER UPDATE ON `dossiers`
WHEN OLD.`overdue_task_visit_id` IS NEW.`overdue_task_visit_id` OR OLD.`updated_at` IS NOT NEW.`updated_at`
BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'dossiers', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) SELECT NEW.`organization_id`, 'dossiers', 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
