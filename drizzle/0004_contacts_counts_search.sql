CREATE TABLE `contact_generations` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`generation` integer NOT NULL,
	`search_edits` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `contact_kind_counts` (
	`organization_id` text NOT NULL,
	`kind_mask` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `kind_mask`)
);
--> statement-breakpoint
CREATE INDEX `contacts_org_created_kind` ON `contacts` (`organization_id`,"created_at" desc,"id" desc,`kind_mask`);--> statement-breakpoint
CREATE INDEX `dossiers_org_created_cover` ON `dossiers` (`organization_id`,"created_at" desc,"id" desc,`status`);
--> statement-breakpoint
-- Hand-written below (issue 6). contact_kind_counts and contact_generations are kept by triggers on
-- contacts inside each writing transaction, like dossier_counts (migration 0003).
CREATE TRIGGER `contacts_counts_insert` AFTER INSERT ON `contacts` BEGIN
  INSERT INTO `contact_kind_counts` (`organization_id`, `kind_mask`, `n`) VALUES (NEW.`organization_id`, NEW.`kind_mask`, 1)
  ON CONFLICT DO UPDATE SET `n` = `n` + 1;
  INSERT INTO `contact_generations` (`organization_id`, `generation`) VALUES (NEW.`organization_id`, 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_counts_delete` AFTER DELETE ON `contacts` BEGIN
  UPDATE `contact_kind_counts` SET `n` = `n` - 1 WHERE `organization_id` = OLD.`organization_id` AND `kind_mask` = OLD.`kind_mask`;
  INSERT INTO `contact_generations` (`organization_id`, `generation`, `search_edits`) VALUES (OLD.`organization_id`, 1, 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1, `search_edits` = `search_edits` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_counts_update` AFTER UPDATE OF `kind_mask`, `organization_id` ON `contacts`
WHEN OLD.`kind_mask` IS NOT NEW.`kind_mask` OR OLD.`organization_id` IS NOT NEW.`organization_id`
BEGIN
  UPDATE `contact_kind_counts` SET `n` = `n` - 1 WHERE `organization_id` = OLD.`organization_id` AND `kind_mask` = OLD.`kind_mask`;
  INSERT INTO `contact_kind_counts` (`organization_id`, `kind_mask`, `n`) VALUES (NEW.`organization_id`, NEW.`kind_mask`, 1)
  ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
-- Any change of a contact counts (GET /contacts caches whole pages, not only which contacts match),
-- and so does any link: a contact's dossier_count is the number of its dossier_contacts rows.
CREATE TRIGGER `contacts_generation_update` AFTER UPDATE ON `contacts` BEGIN
  INSERT INTO `contact_generations` (`organization_id`, `generation`) VALUES (OLD.`organization_id`, 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `contact_generations` (`organization_id`, `generation`) SELECT NEW.`organization_id`, 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
-- search_edits (see src/db/schema.ts): an update of what a search or kind filter reads, or of the
-- order; a plain insert does not move it.
CREATE TRIGGER `contacts_search_edits_update` AFTER UPDATE OF `full_name`, `email_folded`, `company`, `role`, `kind_mask`, `organization_id`, `created_at` ON `contacts` BEGIN
  INSERT INTO `contact_generations` (`organization_id`, `generation`, `search_edits`) VALUES (OLD.`organization_id`, 1, 1)
  ON CONFLICT DO UPDATE SET `search_edits` = `search_edits` + 1;
  INSERT INTO `contact_generations` (`organization_id`, `generation`, `search_edits`) SELECT NEW.`organization_id`, 1, 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `search_edits` = `search_edits` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `dossier_contacts_generation_insert` AFTER INSERT ON `dossier_contacts` BEGIN
  INSERT INTO `contact_generations` (`organization_id`, `generation`) VALUES (NEW.`organization_id`, 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `dossier_contacts_generation_delete` AFTER DELETE ON `dossier_contacts` BEGIN
  INSERT INTO `contact_generations` (`organization_id`, `generation`) VALUES (OLD.`organization_id`, 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `dossier_contacts_generation_update` AFTER UPDATE OF `contact_id`, `organization_id` ON `dossier_contacts` BEGIN
  INSERT INTO `contact_generations` (`organization_id`, `generation`) VALUES (OLD.`organization_id`, 1)
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
  INSERT INTO `contact_generations` (`organization_id`, `generation`) SELECT NEW.`organization_id`, 1 WHERE NEW.`organization_id` IS NOT OLD.`organization_id`
  ON CONFLICT DO UPDATE SET `generation` = `generation` + 1;
END;
--> statement-breakpoint
INSERT INTO `contact_kind_counts` (`organization_id`, `kind_mask`, `n`)
SELECT `organization_id`, `kind_mask`, count(*) FROM `contacts` GROUP BY `organization_id`, `kind_mask`;
--> statement-breakpoint
-- contact_search (migration 0001) gets the contact's created_at, so that search matches are sorted
-- in the list's order without a join to contacts. The FTS trigger on contact_search is narrowed to
-- the indexed columns first, so the backfill below does not re-index every row.
DROP TRIGGER `contact_search_au`;
--> statement-breakpoint
CREATE TRIGGER `contact_search_au` AFTER UPDATE OF `full_name`, `email`, `company`, `role` ON `contact_search` BEGIN
	INSERT INTO contacts_fts (contacts_fts, rowid, full_name, email, company, role) VALUES ('delete', old.id, old.full_name, old.email, old.company, old.role);
	INSERT INTO contacts_fts (rowid, full_name, email, company, role) VALUES (new.id, new.full_name, new.email, new.company, new.role);
END;
--> statement-breakpoint
ALTER TABLE `contact_search` ADD `created_at` text NOT NULL DEFAULT '';
--> statement-breakpoint
UPDATE `contact_search` SET `created_at` = (SELECT c.`created_at` FROM `contacts` c WHERE c.`id` = `contact_search`.`contact_id`);
--> statement-breakpoint
DROP TRIGGER `contacts_search_ai`;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_ai` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO contact_search (contact_id, organization_id, full_name, email, company, role, created_at)
	VALUES (new.id, new.organization_id, lower(new.full_name), new.email_folded, lower(new.company), lower(new.role), new.created_at);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_created` AFTER UPDATE OF `created_at` ON `contacts` BEGIN
	UPDATE contact_search SET created_at = new.created_at WHERE contact_id = new.id;
END;
