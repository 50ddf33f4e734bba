-- Contact search (api-v1 "Contacts", C6, C10): a case-insensitive substring match over full_name,
-- email, company and role, served by an FTS5 trigram index.
-- contact_search holds each contact's four fields folded as JavaScript's toLowerCase() does; the
-- triggers on contacts keep it in step (SQLite's lower() folds ASCII only, so the service rewrites
-- a row whose text is not ASCII, in the same transaction; an update leaves the folded text of the
-- fields it did not change as it was). Its INTEGER PRIMARY KEY gives the FTS
-- index a rowid that VACUUM never renumbers. contacts_fts is an external-content trigram index over
-- it, kept in step by the triggers on contact_search.
CREATE TABLE `contact_search` (
	`id` integer PRIMARY KEY NOT NULL,
	`contact_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`full_name` text NOT NULL,
	`email` text,
	`company` text,
	`role` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_search_contact` ON `contact_search` (`contact_id`);
--> statement-breakpoint
CREATE INDEX `contact_search_org` ON `contact_search` (`organization_id`);
--> statement-breakpoint
CREATE VIRTUAL TABLE `contacts_fts` USING fts5(
	full_name, email, company, role,
	content='contact_search', content_rowid='id',
	tokenize='trigram case_sensitive 1'
);
--> statement-breakpoint
CREATE TRIGGER `contact_search_ai` AFTER INSERT ON `contact_search` BEGIN
	INSERT INTO contacts_fts (rowid, full_name, email, company, role) VALUES (new.id, new.full_name, new.email, new.company, new.role);
END;
--> statement-breakpoint
CREATE TRIGGER `contact_search_ad` AFTER DELETE ON `contact_search` BEGIN
	INSERT INTO contacts_fts (contacts_fts, rowid, full_name, email, company, role) VALUES ('delete', old.id, old.full_name, old.email, old.company, old.role);
END;
--> statement-breakpoint
CREATE TRIGGER `contact_search_au` AFTER UPDATE ON `contact_search` BEGIN
	INSERT INTO contacts_fts (contacts_fts, rowid, full_name, email, company, role) VALUES ('delete', old.id, old.full_name, old.email, old.company, old.role);
	INSERT INTO contacts_fts (rowid, full_name, email, company, role) VALUES (new.id, new.full_name, new.email, new.company, new.role);
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_ai` AFTER INSERT ON `contacts` BEGIN
	INSERT INTO contact_search (contact_id, organization_id, full_name, email, company, role)
	VALUES (new.id, new.organization_id, lower(new.full_name), new.email_folded, lower(new.company), lower(new.role));
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_au` AFTER UPDATE OF `full_name`, `email_folded`, `company`, `role` ON `contacts` BEGIN
	UPDATE contact_search SET
		full_name = CASE WHEN new.full_name IS old.full_name THEN full_name ELSE lower(new.full_name) END,
		email = new.email_folded,
		company = CASE WHEN new.company IS old.company THEN company ELSE lower(new.company) END,
		role = CASE WHEN new.role IS old.role THEN role ELSE lower(new.role) END
	WHERE contact_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_ad` AFTER DELETE ON `contacts` BEGIN
	DELETE FROM contact_search WHERE contact_id = old.id;
END;
--> statement-breakpoint
INSERT INTO contact_search (contact_id, organization_id, full_name, email, company, role)
SELECT id, organization_id, lower(full_name), email_folded, lower(company), lower(role) FROM contacts;
