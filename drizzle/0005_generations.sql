CREATE TABLE `generations` (
	`organization_id` text NOT NULL,
	`table_name` text NOT NULL,
	`generation` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `table_name`)
);
--> statement-breakpoint
-- Hand-written below. Each insert, update or delete of an organization's rows moves that
-- organization's generation of the table, inside the writing transaction (src/db/generations.ts).
-- An update that moves a row to another organization moves both organizations' generations.
CREATE TRIGGER `generations_organizations_insert` AFTER INSERT ON `organizations` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (NEW.`id`, 'organizations', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_organizations_delete` AFTER DELETE ON `organizations` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`id`, 'organizations', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_organizations_update` AFTER UPDATE ON `organizations` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`id`, 'organizations', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) SELECT NEW.`id`, 'organizations', 1 WHERE NEW.`id` IS NOT OLD.`id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_api_keys_insert` AFTER INSERT ON `api_keys` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (NEW.`organization_id`, 'api_keys', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_api_keys_delete` AFTER DELETE ON `api_keys` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'api_keys', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
-- A key's last_used_at is bookkeeping that no cached answer shows: writing it keeps the generation.
CREATE TRIGGER `generations_api_keys_update` AFTER UPDATE OF `id`, `organization_id`, `name`, `prefix`, `key_hash`, `scopes`, `expires_at`, `revoked_at`, `created_at` ON `api_keys` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'api_keys', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) SELECT NEW.`organization_id`, 'api_keys', 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_flows_insert` AFTER INSERT ON `flows` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (NEW.`organization_id`, 'flows', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_flows_delete` AFTER DELETE ON `flows` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'flows', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_flows_update` AFTER UPDATE ON `flows` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'flows', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) SELECT NEW.`organization_id`, 'flows', 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_stages_insert` AFTER INSERT ON `stages` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (NEW.`organization_id`, 'stages', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_stages_delete` AFTER DELETE ON `stages` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'stages', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_stages_update` AFTER UPDATE ON `stages` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'stages', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) SELECT NEW.`organization_id`, 'stages', 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_dossiers_insert` AFTER INSERT ON `dossiers` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (NEW.`organization_id`, 'dossiers', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_dossiers_delete` AFTER DELETE ON `dossiers` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'dossiers', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_dossiers_update` AFTER UPDATE ON `dossiers` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'dossiers', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) SELECT NEW.`organization_id`, 'dossiers', 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_dossier_contacts_insert` AFTER INSERT ON `dossier_contacts` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (NEW.`organization_id`, 'dossier_contacts', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_dossier_contacts_delete` AFTER DELETE ON `dossier_contacts` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'dossier_contacts', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `generations_dossier_contacts_update` AFTER UPDATE ON `dossier_contacts` BEGIN
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) VALUES (OLD.`organization_id`, 'dossier_contacts', 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `generations` (`organization_id`, `table_name`, `generation`) SELECT NEW.`organization_id`, 'dossier_contacts', 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
