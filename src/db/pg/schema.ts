// The PostgreSQL side of the storage model (C19, issue 34): the same tables, columns and indexes as
// src/db/schema.ts, which says what each one is for; test/db/schema-drift.test.ts fails when they
// differ. drizzle-kit generates drizzle-pg/ from this file (npm run db:generate:pg); what SQLite does
// with triggers, FTS5 and json_* is in the hand-written drizzle-pg/0001_triggers_search.sql
// (docs/decisions.md, "PostgreSQL schema").
// Kinds: text stays text, timestamps included (ISO 8601 UTC with milliseconds, the same bytes as on
// SQLite, so ETags and cursors match); booleans are boolean; real is double precision; integers are
// integer, but for the counters that only grow (sequences, generations) and epoch milliseconds,
// which are bigint read as JavaScript numbers ({ mode: "number" }: exact up to 2^53). Bun's SQL
// returns bigint as a string when read raw: cast with ::int (counts) or ::float8, or use Number().
// SQLite's AUTOINCREMENT keys are identities BY DEFAULT, so that `dossier migrate --to` can copy
// rows with their numbers (then setval the sequence).
import { sql } from "drizzle-orm";
import { bigint, boolean, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";

export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan", { enum: ["free", "pro", "growth"] }).notNull(),
  rateLimit: integer("rate_limit").notNull(),
  createdAt: text("created_at").notNull(),
});

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name"),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    lastUsedAt: text("last_used_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.keyHash), index("api_keys_org").on(t.organizationId)],
);

export const flows = pgTable(
  "flows",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    type: text("type", { enum: ["candidate", "sales"] }).notNull(),
    isDefault: boolean("is_default").notNull(),
    createdAt: text("created_at").notNull(),
    overdueTasks: boolean("overdue_tasks").notNull().default(true),
  },
  (t) => [
    index("flows_org_name").on(t.organizationId, t.name, t.id),
    uniqueIndex("flows_one_default").on(t.organizationId, t.type).where(sql`is_default`),
  ],
);

export const stages = pgTable(
  "stages",
  {
    id: text("id").primaryKey(),
    flowId: text("flow_id").notNull().references(() => flows.id),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    position: integer("position").notNull(),
    deadlineDays: integer("deadline_days"),
    winProbability: integer("win_probability").notNull(),
    color: text("color").notNull(),
  },
  (t) => [uniqueIndex("stages_flow_position").on(t.flowId, t.position)],
);

export const dossiers = pgTable(
  "dossiers",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    flowId: text("flow_id").references(() => flows.id),
    type: text("type", { enum: ["candidate", "sales"] }).notNull(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    company: text("company"),
    role: text("role"),
    contactPerson: text("contact_person"),
    status: text("status", { enum: ["active", "won", "lost", "archived"] }).notNull(),
    currentStageId: text("current_stage_id").references(() => stages.id),
    assignedTo: text("assigned_to"),
    dealSize: doublePrecision("deal_size"),
    dealCurrency: text("deal_currency"),
    intakeNotes: text("intake_notes"),
    cvUrl: text("cv_url"),
    contactId: text("contact_id"),
    stageEnteredAt: text("stage_entered_at"),
    stageDueAt: text("stage_due_at"),
    overdueTaskVisitId: bigint("overdue_task_visit_id", { mode: "number" }),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    metadata: text("metadata").notNull().default("{}"),
  },
  (t) => [
    index("dossiers_org_created").on(t.organizationId, t.createdAt, t.id),
    index("dossiers_org_status_created").on(t.organizationId, t.status, t.createdAt, t.id),
    index("dossiers_org_type_status_created").on(t.organizationId, t.type, t.status, t.createdAt, t.id),
    index("dossiers_stage_created").on(t.currentStageId, t.createdAt, t.id),
    index("dossiers_org_flow_created").on(t.organizationId, t.flowId, t.createdAt, t.id),
    index("dossiers_org_assigned_created").on(t.organizationId, t.assignedTo, t.createdAt, t.id),
    index("dossiers_org_status_due").on(t.organizationId, t.status, t.stageDueAt),
    index("dossiers_contact").on(t.contactId),
    index("dossiers_org_created_cover").on(t.organizationId, t.createdAt.desc(), t.id.desc(), t.status),
    index("dossiers_org_updated").on(t.organizationId, t.updatedAt),
    index("dossiers_overdue_todo")
      .on(t.stageDueAt, t.id)
      .where(sql`${t.status} = 'active' AND ${t.stageDueAt} IS NOT NULL AND ${t.overdueTaskVisitId} IS NULL`),
    index("dossiers_flow_active_figures")
      .on(t.organizationId, t.flowId, t.currentStageId, t.dealCurrency, t.stageDueAt, t.dealSize)
      .where(sql`${t.status} = 'active'`),
  ],
);

export const dossierCounts = pgTable(
  "dossier_counts",
  {
    organizationId: text("organization_id").notNull(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    flowId: text("flow_id").notNull(),
    stageId: text("stage_id").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.type, t.status, t.flowId, t.stageId] })],
);

export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    fullName: text("full_name").notNull(),
    email: text("email"),
    emailFolded: text("email_folded"),
    phone: text("phone"),
    linkedinUrl: text("linkedin_url"),
    company: text("company"),
    role: text("role"),
    city: text("city"),
    kind: text("kind").notNull(),
    kindMask: integer("kind_mask").notNull(),
    notes: text("notes"),
    poolAddedAt: text("pool_added_at"),
    poolExpiresAt: text("pool_expires_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    metadata: text("metadata").notNull().default("{}"),
  },
  (t) => [
    index("contacts_org_created").on(t.organizationId, t.createdAt, t.id),
    uniqueIndex("contacts_org_email").on(t.organizationId, t.emailFolded),
    index("contacts_org_created_kind").on(t.organizationId, t.createdAt.desc(), t.id.desc(), t.kindMask),
    index("contacts_org_updated").on(t.organizationId, t.updatedAt),
  ],
);

export const dossierMetadata = pgTable(
  "dossier_metadata",
  {
    dossierId: text("dossier_id").notNull().references(() => dossiers.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.dossierId, t.key] }), index("dossier_metadata_lookup").on(t.organizationId, t.key, t.value, t.dossierId)],
);

export const contactMetadata = pgTable(
  "contact_metadata",
  {
    contactId: text("contact_id").notNull().references(() => contacts.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.key] }), index("contact_metadata_lookup").on(t.organizationId, t.key, t.value, t.contactId)],
);

export const contactKindCounts = pgTable(
  "contact_kind_counts",
  {
    organizationId: text("organization_id").notNull(),
    kindMask: integer("kind_mask").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.kindMask] })],
);

export const contactGenerations = pgTable("contact_generations", {
  organizationId: text("organization_id").primaryKey(),
  generation: bigint("generation", { mode: "number" }).notNull(),
  searchEdits: bigint("search_edits", { mode: "number" }).notNull().default(0),
});

export const generations = pgTable(
  "generations",
  {
    organizationId: text("organization_id").notNull(),
    tableName: text("table_name").notNull(),
    generation: bigint("generation", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.tableName] })],
);

export const dossierContacts = pgTable(
  "dossier_contacts",
  {
    dossierId: text("dossier_id").notNull().references(() => dossiers.id),
    contactId: text("contact_id").notNull().references(() => contacts.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    roleOnDossier: text("role_on_dossier", {
      enum: ["primary", "hiring_manager", "decision_maker", "champion", "gatekeeper", "introducer", "other"],
    }).notNull(),
    isPrimary: boolean("is_primary").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.dossierId, t.contactId] }),
    index("dossier_contacts_contact").on(t.contactId),
    uniqueIndex("dossier_contacts_one_primary").on(t.dossierId).where(sql`is_primary`),
  ],
);

export const notes = pgTable(
  "notes",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    dossierId: text("dossier_id").notNull().references(() => dossiers.id),
    content: text("content").notNull(),
    isInternal: boolean("is_internal").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("notes_dossier_created").on(t.dossierId, t.createdAt, t.id)],
);

export const webhookEndpoints = pgTable("webhook_endpoints", {
  organizationId: text("organization_id").primaryKey().references(() => organizations.id),
  url: text("url").notNull(),
  secret: text("secret").notNull(),
  previousSecret: text("previous_secret"),
  previousSecretExpiresAt: text("previous_secret_expires_at"),
  disabledAt: text("disabled_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const events = pgTable(
  "events",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    id: text("id").notNull(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    type: text("type").notNull(),
    createdAt: text("created_at").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed", "skipped"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
  },
  (t) => [
    uniqueIndex("events_id").on(t.id),
    index("events_pending_due").on(t.status, t.nextAttemptAt),
    index("events_org_seq").on(t.organizationId, t.seq),
    index("events_org_dossier_seq").on(t.organizationId, sql`(CASE WHEN ${t.type} = 'note.created' THEN ${t.body}::jsonb -> 'data' ->> 'dossier_id' ELSE ${t.body}::jsonb -> 'data' ->> 'id' END)`, t.seq),
  ],
);

export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  position: bigint("position", { mode: "number" }).notNull().default(0),
});

export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    eventSeq: bigint("event_seq", { mode: "number" }).notNull().references(() => events.seq),
    at: text("at").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    responseSnippet: text("response_snippet"),
  },
  (t) => [index("delivery_attempts_event").on(t.eventSeq, t.id)],
);

export const members = pgTable(
  "members",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    email: text("email").notNull(),
    emailFolded: text("email_folded").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: ["viewer", "member", "admin", "owner"] }).notNull(),
    passwordHash: text("password_hash"),
    createdAt: text("created_at").notNull(),
    lastSignInAt: text("last_sign_in_at"),
    disabledAt: text("disabled_at"),
    timeZone: text("time_zone"),
    digest: boolean("digest").notNull().default(true),
    lastDigestDate: text("last_digest_date"),
    calendarTokenHash: text("calendar_token_hash"),
  },
  (t) => [
    uniqueIndex("members_email").on(t.emailFolded),
    index("members_org_created").on(t.organizationId, t.createdAt, t.id),
    uniqueIndex("members_calendar_token").on(t.calendarTokenHash),
  ],
);

export const setupLinks = pgTable(
  "setup_links",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    memberId: text("member_id").references(() => members.id),
    role: text("role", { enum: ["viewer", "member", "admin", "owner"] }),
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [uniqueIndex("setup_links_hash").on(t.tokenHash), index("setup_links_member").on(t.memberId)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    memberId: text("member_id").notNull().references(() => members.id),
    tokenHash: text("token_hash").notNull(),
    csrfToken: text("csrf_token").notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at").notNull(),
  },
  (t) => [uniqueIndex("sessions_hash").on(t.tokenHash), index("sessions_member").on(t.memberId)],
);

export const intakeAddresses = pgTable(
  "intake_addresses",
  {
    flowId: text("flow_id").primaryKey().references(() => flows.id),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    tokenHash: text("token_hash").notNull(),
    tokenSealed: text("token_sealed").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("intake_addresses_token").on(t.tokenHash), index("intake_addresses_org").on(t.organizationId)],
);

export const intakeMessages = pgTable(
  "intake_messages",
  {
    flowId: text("flow_id").notNull().references(() => flows.id),
    messageId: text("message_id").notNull(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    dossierId: text("dossier_id").notNull().references(() => dossiers.id),
    receivedAt: text("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.messageId] }), index("intake_messages_org").on(t.organizationId)],
);

export const dossierHistory = pgTable(
  "dossier_history",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    dossierId: text("dossier_id").notNull().references(() => dossiers.id),
    at: text("at").notNull(),
    kind: text("kind").notNull(),
    actorType: text("actor_type"),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    changes: text("changes").notNull(),
  },
  (t) => [index("dossier_history_dossier").on(t.organizationId, t.dossierId, t.seq)],
);

export const stageVisits = pgTable(
  "stage_visits",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    organizationId: text("organization_id").notNull(),
    flowId: text("flow_id"),
    dossierId: text("dossier_id").notNull(),
    stageId: text("stage_id").notNull(),
    enteredAt: text("entered_at").notNull(),
    leftAt: text("left_at"),
    nextStageId: text("next_stage_id"),
  },
  (t) => [
    index("stage_visits_dossier").on(t.dossierId, t.enteredAt),
    index("stage_visits_stage_entered").on(t.organizationId, t.stageId, t.enteredAt),
    index("stage_visits_stage_left").on(t.organizationId, t.stageId, t.leftAt, t.nextStageId, t.enteredAt),
  ],
);

export const dossierOutcomes = pgTable(
  "dossier_outcomes",
  {
    dossierId: text("dossier_id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    flowId: text("flow_id"),
    status: text("status").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("dossier_outcomes_flow_status_at").on(t.organizationId, t.flowId, t.status, t.at)],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    principalId: text("principal_id").notNull(),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    bodyHash: text("body_hash").notNull(),
    status: integer("status").notNull(),
    contentType: text("content_type"),
    location: text("location"),
    body: text("body").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.principalId, t.key] }), index("idempotency_keys_created").on(t.createdAt)],
);

export const tasks = pgTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    dossierId: text("dossier_id").references(() => dossiers.id),
    contactId: text("contact_id"),
    title: text("title").notNull(),
    notes: text("notes"),
    dueAt: text("due_at"),
    remindAt: text("remind_at"),
    remindedAt: text("reminded_at"),
    assignedTo: text("assigned_to"),
    status: text("status", { enum: ["open", "done"] }).notNull(),
    doneAt: text("done_at"),
    createdByKind: text("created_by_kind").notNull(),
    createdById: text("created_by_id"),
    stageVisitId: bigint("stage_visit_id", { mode: "number" }),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("tasks_org_due").on(t.organizationId, t.dueAt, t.createdAt, t.id),
    index("tasks_org_assigned_due").on(t.organizationId, t.assignedTo, t.status, t.dueAt),
    index("tasks_org_dossier").on(t.organizationId, t.dossierId),
    index("tasks_org_contact").on(t.organizationId, t.contactId),
    index("tasks_remind_due").on(t.remindAt).where(sql`${t.remindedAt} IS NULL AND ${t.status} = 'open'`),
    uniqueIndex("tasks_stage_visit").on(t.stageVisitId),
  ],
);

export const outgoingMail = pgTable(
  "outgoing_mail",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    memberId: text("member_id"),
    taskId: text("task_id"),
    kind: text("kind").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    status: text("status", { enum: ["queued", "sending", "sent", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }),
    lastAttemptAt: text("last_attempt_at"),
    lastError: text("last_error"),
    reply: text("reply"),
    sentAt: text("sent_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("outgoing_mail_due").on(t.status, t.nextAttemptAt),
    index("outgoing_mail_org_created").on(t.organizationId, t.createdAt, t.id),
  ],
);

// CSV imports (C21): one row per upload, with its settings, its progress (recorded in the same
// transaction as each batch it closes, so that a restart goes on after `last_row` and no row is
// made twice) and its first 1,000 errors (JSON). The file waits under the files folder while the
// import runs (`file`, relative to it) and is removed when it ends.
export const imports = pgTable(
  "imports",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    resource: text("resource", { enum: ["contacts", "dossiers"] }).notNull(),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "reverted"] }).notNull(),
    dryRun: boolean("dry_run").notNull(),
    mode: text("mode", { enum: ["create", "update", "upsert"] }).notNull(),
    matchOn: text("match_on", { enum: ["email", "id"] }).notNull(),
    emitEvents: boolean("emit_events").notNull(),
    // JSON: the mapping, the dossiers' flow_id and type, and what the inspection found (encoding,
    // delimiter, headers, header row).
    settings: text("settings").notNull(),
    fileName: text("file_name"),
    file: text("file"),
    // Who started it (C18's actor of the request), for the revert's and the log's sake.
    actorType: text("actor_type"),
    actorId: text("actor_id"),
    rows: integer("rows").notNull(),
    processed: integer("processed").notNull(),
    created: integer("created").notNull(),
    updated: integer("updated").notNull(),
    skipped: integer("skipped").notNull(),
    failed: integer("failed").notNull(),
    lastRow: integer("last_row").notNull(),
    // JSON: [{row, column, message}], the first 1,000.
    errors: text("errors").notNull(),
    failure: text("failure"),
    revertUndone: integer("revert_undone"),
    revertSkipped: integer("revert_skipped"),
    createdAt: text("created_at").notNull(),
    finishedAt: text("finished_at"),
    revertedAt: text("reverted_at"),
  },
  (t) => [index("imports_org_created").on(t.organizationId, t.createdAt, t.id), index("imports_status").on(t.status)],
);

// What an import did to each row it changed, for its revert (C21): the record, whether it was
// created or updated, the old values of the fields an update changed (JSON), and the record's
// updated_at once the import had written it: a record whose updated_at moved since was touched by
// a later change, and the revert leaves it alone.
export const importRows = pgTable(
  "import_rows",
  {
    importId: text("import_id").notNull().references(() => imports.id),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    row: integer("row").notNull(),
    resourceId: text("resource_id").notNull(),
    action: text("action", { enum: ["created", "updated"] }).notNull(),
    previous: text("previous"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.row] })],
);

// Shared counters (src/db/schema.ts says what each is for). UNLOGGED (drizzle-pg/0009): counts need
// no WAL, and a crash of the database server empties them, as a restart empties SQLite's.
export const rateCounters = pgTable("rate_counters", {
  subject: text("subject").primaryKey(),
  cum: bigint("cum", { mode: "number" }).notNull(),
  n: integer("n").notNull(),
});

export const rateHits = pgTable(
  "rate_hits",
  {
    subject: text("subject").notNull(),
    cum: bigint("cum", { mode: "number" }).notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.subject, t.cum] }), index("rate_hits_at").on(t.subject, t.at)],
);

export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    key: text("key").notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [index("sign_in_failures_key").on(t.key, t.at)],
);

export type Organization = typeof organizations.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
export type FlowRow = typeof flows.$inferSelect;
export type StageRow = typeof stages.$inferSelect;
export type DossierRow = typeof dossiers.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;
export type DossierContactRow = typeof dossierContacts.$inferSelect;
export type NoteRow = typeof notes.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type MemberRow = typeof members.$inferSelect;
export type SetupLinkRow = typeof setupLinks.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type TaskRow = typeof tasks.$inferSelect;
export type OutgoingMailRow = typeof outgoingMail.$inferSelect;
export type ImportRow = typeof imports.$inferSelect;
export type ImportedRecordRow = typeof importRows.$inferSelect;
