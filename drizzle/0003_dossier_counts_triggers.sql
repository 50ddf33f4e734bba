-- Keeps dossier_counts (migration 0002) in step with dossiers inside each writing transaction.
CREATE TRIGGER `dossier_counts_insert` AFTER INSERT ON `dossiers` BEGIN
  INSERT INTO `dossier_counts` (`organization_id`, `type`, `status`, `flow_id`, `stage_id`, `n`)
  VALUES (NEW.`organization_id`, NEW.`type`, NEW.`status`, coalesce(NEW.`flow_id`, ''), coalesce(NEW.`current_stage_id`, ''), 1)
  ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `dossier_counts_update` AFTER UPDATE OF `organization_id`, `type`, `status`, `flow_id`, `current_stage_id` ON `dossiers`
WHEN OLD.`organization_id` IS NOT NEW.`organization_id` OR OLD.`type` IS NOT NEW.`type` OR OLD.`status` IS NOT NEW.`status`
  OR OLD.`flow_id` IS NOT NEW.`flow_id` OR OLD.`current_stage_id` IS NOT NEW.`current_stage_id`
BEGIN
  UPDATE `dossier_counts` SET `n` = `n` - 1
   WHERE `organization_id` = OLD.`organization_id` AND `type` = OLD.`type` AND `status` = OLD.`status`
     AND `flow_id` = coalesce(OLD.`flow_id`, '') AND `stage_id` = coalesce(OLD.`current_stage_id`, '');
  INSERT INTO `dossier_counts` (`organization_id`, `type`, `status`, `flow_id`, `stage_id`, `n`)
  VALUES (NEW.`organization_id`, NEW.`type`, NEW.`status`, coalesce(NEW.`flow_id`, ''), coalesce(NEW.`current_stage_id`, ''), 1)
  ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `dossier_counts_delete` AFTER DELETE ON `dossiers` BEGIN
  UPDATE `dossier_counts` SET `n` = `n` - 1
   WHERE `organization_id` = OLD.`organization_id` AND `type` = OLD.`type` AND `status` = OLD.`status`
     AND `flow_id` = coalesce(OLD.`flow_id`, '') AND `stage_id` = coalesce(OLD.`current_stage_id`, '');
END;
--> statement-breakpoint
INSERT INTO `dossier_counts` (`organization_id`, `type`, `status`, `flow_id`, `stage_id`, `n`)
SELECT `organization_id`, `type`, `status`, coalesce(`flow_id`, ''), coalesce(`current_stage_id`, ''), count(*)
  FROM `dossiers`
 GROUP BY `organization_id`, `type`, `status`, coalesce(`flow_id`, ''), coalesce(`current_stage_id`, '');
