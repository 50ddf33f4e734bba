DROP INDEX "dossiers_active_due";--> statement-breakpoint
ALTER TABLE "dossiers" ADD COLUMN "overdue_task_visit_id" bigint;--> statement-breakpoint
-- Hand-added after drizzle-kit generate: the dossiers whose current stage visit has its follow-up
-- task already (C22) are handled, as the scan of before this migration saw them.
UPDATE "dossiers" SET "overdue_task_visit_id" = v."id"
  FROM "tasks" t JOIN "stage_visits" v ON v."id" = t."stage_visit_id"
 WHERE v."dossier_id" = "dossiers"."id" AND v."organization_id" = "dossiers"."organization_id" AND v."stage_id" = "dossiers"."current_stage_id"
   AND v."id" = (SELECT max("id") FROM "stage_visits" WHERE "dossier_id" = "dossiers"."id" AND "organization_id" = "dossiers"."organization_id" AND "left_at" IS NULL);--> statement-breakpoint
CREATE INDEX "dossiers_overdue_todo" ON "dossiers" USING btree ("stage_due_at","id") WHERE "dossiers"."status" = 'active' AND "dossiers"."stage_due_at" IS NOT NULL AND "dossiers"."overdue_task_visit_id" IS NULL;--> statement-breakpoint
-- Hand-added: the overdue-tasks job's mark alone moves no generation (drizzle/0014 says why).
DROP TRIGGER "generations_dossiers_update" ON "dossiers";--> statement-breakpoint
CREATE TRIGGER "generations_dossiers_update" AFTER UPDATE ON "dossiers" FOR EACH ROW
WHEN (OLD.overdue_task_visit_id IS NOT DISTINCT FROM NEW.overdue_task_visit_id OR OLD.updated_at IS DISTINCT FROM NEW.updated_at)
EXECUTE FUNCTION "generations_step"();
