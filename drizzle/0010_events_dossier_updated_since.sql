CREATE INDEX `contacts_org_updated` ON `contacts` (`organization_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `dossiers_org_updated` ON `dossiers` (`organization_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `events_org_dossier_seq` ON `events` (`organization_id`,(CASE WHEN "type" = 'note.created' THEN "body" ->> '$.data.dossier_id' ELSE "body" ->> '$.data.id' END),`seq`);