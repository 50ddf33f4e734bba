CREATE TABLE `dossier_counts` (
	`organization_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`flow_id` text NOT NULL,
	`stage_id` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `type`, `status`, `flow_id`, `stage_id`)
);
