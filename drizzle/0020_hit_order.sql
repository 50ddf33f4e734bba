DROP INDEX `rate_hits_at`;--> statement-breakpoint
CREATE INDEX `rate_hits_at` ON `rate_hits` (`subject`,`at`,`cum`);