-- GET /flows/{id}/stats reads a flow's active dossiers (active, overdue, the pipeline) from this
-- index alone, already in the order it groups them by (stage, currency). Partial, so it holds only
-- active dossiers and no list query (status bound as a parameter) is drawn to it.
CREATE INDEX `dossiers_flow_active_figures` ON `dossiers` (`organization_id`,`flow_id`,`current_stage_id`,`deal_currency`,`stage_due_at`,`deal_size`) WHERE `status` = 'active';
--> statement-breakpoint
-- dossier_outcomes keeps only the outcomes that still stand: a dossier that stops being won or lost
-- loses its row (becoming so again writes it anew, migration 0008), so won and lost are two counts
-- over this index with no look-up of each dossier's status.
CREATE TRIGGER `dossier_outcomes_reopen` AFTER UPDATE OF `status` ON `dossiers`
WHEN OLD.`status` IN ('won', 'lost') AND NEW.`status` NOT IN ('won', 'lost')
BEGIN
  DELETE FROM `dossier_outcomes` WHERE `dossier_id` = NEW.`id`;
END;
--> statement-breakpoint
DELETE FROM `dossier_outcomes`
 WHERE NOT EXISTS (SELECT 1 FROM `dossiers` d WHERE d.`id` = `dossier_outcomes`.`dossier_id` AND d.`status` = `dossier_outcomes`.`status`);
--> statement-breakpoint
DROP INDEX `dossier_outcomes_flow_at`;
--> statement-breakpoint
CREATE INDEX `dossier_outcomes_flow_status_at` ON `dossier_outcomes` (`organization_id`,`flow_id`,`status`,`at`);
