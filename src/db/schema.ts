// The whole storage model as code, for both engines: drizzle-kit generates the migrations in drizzle/
// from this file, and src/db/pg/schema-gen.ts the PostgreSQL tables (src/db/pg/schema.ts, then
// drizzle-pg/) by the rules it states (npm run db:generate:pg).
// Timestamps are ISO 8601 strings with milliseconds (C3), so text order is time order.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, type SQLiteColumn, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan", { enum: ["free", "pro", "growth"] }).notNull(),
  rateLimit: integer("rate_limit").notNull(),
  createdAt: text("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name"),
    prefix: text("prefix").notNull(),
    // SHA-256 of the whole key, hex: the key itself is never stored (C8).
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes").notNull(), // comma separated
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    lastUsedAt: text("last_used_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.keyHash), index("api_keys_org").on(t.organizationId)],
);

export const flows = sqliteTable(
  "flows",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    type: text("type", { enum: ["candidate", "sales"] }).notNull(),
    isDefault: integer("is_default", { mode: "boolean" }).notNull(),
    createdAt: text("created_at").notNull(),
    // C22: an overdue stage makes a follow-up task, unless the flow turns it off.
    overdueTasks: integer("overdue_tasks", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [
    index("flows_org_name").on(t.organizationId, t.name, t.id),
    // C4: at most one default flow per type per organization.
    uniqueIndex("flows_one_default").on(t.organizationId, t.type).where(sql`is_default = 1`),
  ],
);

export const stages = sqliteTable(
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

export const dossiers = sqliteTable(
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
    dealSize: real("deal_size"),
    dealCurrency: text("deal_currency"),
    intakeNotes: text("intake_notes"),
    cvUrl: text("cv_url"),
    // The primary linked contact, kept in step by the link rules of C6.
    contactId: text("contact_id"),
    stageEnteredAt: text("stage_entered_at"),
    // Stored rather than derived so that `overdue` can use an index.
    stageDueAt: text("stage_due_at"),
    // C22: the stage visit whose overdue follow-up is made (set in the unit that makes the task,
    // cleared by a move to another stage), so that the job's scan reads only the dossiers still
    // to handle (dossiers_overdue_todo). Null: not handled.
    overdueTaskVisitId: integer("overdue_task_visit_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    // Issue 38: the integrator's metadata as the representation shows it (JSON text, keys sorted,
    // src/services/metadata.ts); its pairs are also rows of dossier_metadata, for the list's filter.
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
    // Issue 6, deep pages: the default list's order (created_at DESC, id DESC) with status beside it,
    // so that `SELECT id ... INDEXED BY dossiers_org_created_cover ... LIMIT ? OFFSET ?` skips the
    // archived rows and steps over the offset without reading a single table row.
    index("dossiers_org_created_cover").on(t.organizationId, sql`${t.createdAt} desc`, sql`${t.id} desc`, t.status),
    // C17's updated_since: a client catching up asks for the few rows changed lately.
    index("dossiers_org_updated").on(t.organizationId, t.updatedAt),
    // C22: the job runner's scan for active dossiers whose stage deadline has passed and whose
    // stage visit is not handled yet, across organizations, in (stage_due_at, id) order: a keyset
    // cursor (src/db/tasks.ts overdueVisits). Handled dossiers leave it (0014).
    index("dossiers_overdue_todo")
      .on(t.stageDueAt, t.id)
      .where(sql`${t.status} = 'active' AND ${t.stageDueAt} IS NOT NULL AND ${t.overdueTaskVisitId} IS NULL`),
    // GET /flows/{id}/stats: a flow's active dossiers in (stage, currency) order, read alone (0011).
    index("dossiers_flow_active_figures")
      .on(t.organizationId, t.flowId, t.currentStageId, t.dealCurrency, t.stageDueAt, t.dealSize)
      .where(sql`${t.status} = 'active'`),
  ],
);

// Exact totals for GET /dossiers without scanning: the number of dossiers per
// (organization, type, status, flow, stage), kept by triggers on dossiers in the writing
// transaction itself (migration 0003). '' stands for a null flow or stage, so that the key is unique.
export const dossierCounts = sqliteTable(
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

export const contacts = sqliteTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    fullName: text("full_name").notNull(),
    email: text("email"),
    // email.toLowerCase(): the database enforces uniqueness on it (C6, C10).
    emailFolded: text("email_folded"),
    phone: text("phone"),
    linkedinUrl: text("linkedin_url"),
    company: text("company"),
    role: text("role"),
    city: text("city"),
    kind: text("kind").notNull(), // JSON array, order of first appearance
    // One bit per kind, so that `kind=a&kind=b` is one integer test.
    kindMask: integer("kind_mask").notNull(),
    notes: text("notes"),
    poolAddedAt: text("pool_added_at"),
    poolExpiresAt: text("pool_expires_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    // Issue 38, as on dossiers: the JSON text shown, its pairs in contact_metadata.
    metadata: text("metadata").notNull().default("{}"),
  },
  (t) => [
    index("contacts_org_created").on(t.organizationId, t.createdAt, t.id),
    uniqueIndex("contacts_org_email").on(t.organizationId, t.emailFolded),
    // GET /contacts?kind=: the list's order with kind_mask beside it, so that the kind test of a
    // page skips non-matching contacts in the index, reading table rows only for the page's own.
    index("contacts_org_created_kind").on(t.organizationId, sql`${t.createdAt} desc`, sql`${t.id} desc`, t.kindMask),
    // C17's updated_since, as on dossiers.
    index("contacts_org_updated").on(t.organizationId, t.updatedAt),
  ],
);

// Issue 38: one row per metadata pair of a dossier, written in the same unit as the dossier's
// `metadata` column, so that `GET /dossiers?metadata[key]=value` is an index lookup (organization,
// key, value) rather than a scan of JSON. Gone with the dossier.
export const dossierMetadata = sqliteTable(
  "dossier_metadata",
  {
    dossierId: text("dossier_id").notNull().references(() => dossiers.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.dossierId, t.key] }), index("dossier_metadata_lookup").on(t.organizationId, t.key, t.value, t.dossierId)],
);

// The same for contacts (GET /contacts?metadata[key]=value).
export const contactMetadata = sqliteTable(
  "contact_metadata",
  {
    contactId: text("contact_id").notNull().references(() => contacts.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.key] }), index("contact_metadata_lookup").on(t.organizationId, t.key, t.value, t.contactId)],
);

// Exact totals for GET /contacts?kind=: contacts per (organization, kind_mask), kept by
// triggers on contacts in the writing transaction itself (migration 0004). A kind filter's total
// is the sum of n over the few masks that share a bit with it.
export const contactKindCounts = sqliteTable(
  "contact_kind_counts",
  {
    organizationId: text("organization_id").notNull(),
    kindMask: integer("kind_mask").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.kindMask] })],
);

// A per-organization counter that triggers bump in the writing transaction whenever one of the
// organization's contacts or dossier links is inserted, updated or deleted (migration 0004). The
// server's in-memory cache of GET /contacts compares it with one indexed read per request, which
// also sees writes made by another process (the CLI) on the same file.
// search_edits moves only on the writes that can change which contacts a search matches or their
// order other than by adding new ones (a delete, or an update of a searched field, kind_mask,
// created_at): between two equal values, the matches of a search only gained new contacts, whose
// contact_search ids are above every earlier id of the organization, so a cached result is brought
// up to date by looking at those alone.
export const contactGenerations = sqliteTable("contact_generations", {
  organizationId: text("organization_id").primaryKey(),
  generation: integer("generation").notNull(),
  searchEdits: integer("search_edits").notNull().default(0),
});

// The one rule of the server's caches: a generation per organization and table, moved by triggers
// (migration 0005) in the same transaction as any insert, update or delete of that organization's
// rows, so a cache entry remembered with the generations it was read under is valid exactly while
// they are unchanged, whoever wrote (this process or the CLI from another). See src/db/generations.ts.
export const generations = sqliteTable(
  "generations",
  {
    organizationId: text("organization_id").notNull(),
    tableName: text("table_name").notNull(),
    generation: integer("generation").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.tableName] })],
);

export const dossierContacts = sqliteTable(
  "dossier_contacts",
  {
    dossierId: text("dossier_id").notNull().references(() => dossiers.id),
    contactId: text("contact_id").notNull().references(() => contacts.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    roleOnDossier: text("role_on_dossier", {
      enum: ["primary", "hiring_manager", "decision_maker", "champion", "gatekeeper", "introducer", "other"],
    }).notNull(),
    isPrimary: integer("is_primary", { mode: "boolean" }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.dossierId, t.contactId] }),
    index("dossier_contacts_contact").on(t.contactId),
    // C6: at most one primary contact per dossier.
    uniqueIndex("dossier_contacts_one_primary").on(t.dossierId).where(sql`is_primary = 1`),
  ],
);

export const notes = sqliteTable(
  "notes",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    dossierId: text("dossier_id").notNull().references(() => dossiers.id),
    content: text("content").notNull(),
    isInternal: integer("is_internal", { mode: "boolean" }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("notes_dossier_created").on(t.dossierId, t.createdAt, t.id)],
);

export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  organizationId: text("organization_id").primaryKey().references(() => organizations.id),
  url: text("url").notNull(),
  secret: text("secret").notNull(),
  // After a rotation the replaced secret still signs for 24 h (C7).
  previousSecret: text("previous_secret"),
  previousSecretExpiresAt: text("previous_secret_expires_at"),
  disabledAt: text("disabled_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

// The transactional outbox (C7): one row per event, written in the change's own transaction.
// Its delivery state lives on the same row so that recording an event is a single insert.
export const events = sqliteTable(
  "events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    type: text("type").notNull(),
    createdAt: text("created_at").notNull(),
    body: text("body").notNull(), // the exact JSON sent to the receiver
    status: text("status", { enum: ["pending", "succeeded", "failed", "skipped"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"), // epoch ms; null unless pending
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
  },
  (t) => [
    uniqueIndex("events_id").on(t.id),
    index("events_pending_due").on(t.status, t.nextAttemptAt),
    index("events_org_seq").on(t.organizationId, t.seq),
    // GET /events?dossier_id= (C20): the dossier an event is about, as the feed's query writes it
    // (src/db/events.ts, DOSSIER_OF), so that the filter seeks instead of reading every body.
    index("events_org_dossier_seq").on(t.organizationId, sql`(CASE WHEN ${t.type} = 'note.created' THEN ${t.body} ->> '$.data.dossier_id' ELSE ${t.body} ->> '$.data.id' END)`, t.seq),
  ],
);

// Leases (C19, several nodes on one database): work that one node at a time may do, an
// organization's webhook lane (`webhooks:<org>`) or a job's run (`job:<name>`), is claimed with a
// row here, held until `expires_at` (epoch ms by the database's clock, the one clock every node
// shares) and renewed while the work goes on; a node killed mid-work leaves it to the others once
// that has passed. `position` is where the work stands, for the next holder: for a lane, the event
// number at or below which every first attempt of the organization is recorded, so that a lane
// taken on reads on from there (src/webhooks/lanes.ts) rather than from the organization's first
// event. A SQLite store serves one process (its data folder is locked) and leaves this table
// empty: it is declared for both engines all the same (one schema, test/db/schema-drift).
export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: integer("expires_at").notNull(),
  position: integer("position").notNull().default(0),
});

export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventSeq: integer("event_seq").notNull().references(() => events.seq),
    at: text("at").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    responseSnippet: text("response_snippet"),
  },
  (t) => [index("delivery_attempts_event").on(t.eventSeq, t.id)],
);

// People who sign in (C12). `email` is kept as given; `email_folded` (its lower case) is unique in
// the whole installation, so that signing in needs no organization (C20).
export const members = sqliteTable(
  "members",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    email: text("email").notNull(),
    emailFolded: text("email_folded").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: ["viewer", "member", "admin", "owner"] }).notNull(),
    // argon2id (PHC string); null until the member first uses a setup link.
    passwordHash: text("password_hash"),
    createdAt: text("created_at").notNull(),
    lastSignInAt: text("last_sign_in_at"),
    // A disabled member's row stays, so that `assigned_to` and history keep resolving.
    disabledAt: text("disabled_at"),
    // C22: the member's IANA zone (null: the server's DOSSIER_TIME_ZONE), whether the morning digest
    // goes, the local day of the last digest made (sent or found empty), and the SHA-256 of the
    // calendar feed's token (a new link replaces it).
    timeZone: text("time_zone"),
    digest: integer("digest", { mode: "boolean" }).notNull().default(true),
    lastDigestDate: text("last_digest_date"),
    calendarTokenHash: text("calendar_token_hash"),
  },
  (t) => [
    uniqueIndex("members_email").on(t.emailFolded),
    index("members_org_created").on(t.organizationId, t.createdAt, t.id),
    uniqueIndex("members_calendar_token").on(t.calendarTokenHash),
  ],
);

// One-use links that set a password (C12, C20): only a SHA-256 hash of the token is stored. A link
// with no member is the first start's owner link: whoever uses it chooses the owner's email and name.
export const setupLinks = sqliteTable(
  "setup_links",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    memberId: text("member_id").references(() => members.id),
    // The role a link without a member gives; null on a member's link (the member has one).
    role: text("role", { enum: ["viewer", "member", "admin", "owner"] }),
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [uniqueIndex("setup_links_hash").on(t.tokenHash), index("setup_links_member").on(t.memberId)],
);

// Signed-in browsers (C12): only a SHA-256 hash of the cookie's token is stored. The CSRF token is
// stored as is: GET /session hands it back to the console after a reload, and alone it opens
// nothing (every request it guards must also carry the cookie, whose token is never stored).
export const sessions = sqliteTable(
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

// Each flow's intake address (C15): its token is a secret, so the row keeps its SHA-256 (looked up
// on receipt) and the token sealed under the data folder's master key (shown again by
// GET /flows/{id}/intake), as webhook secrets are.
export const intakeAddresses = sqliteTable(
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

// The messages each flow took in, by Message-ID (C15): a mail server's retry of one message finds
// its row and creates nothing. The primary key, not a look-up first, settles two deliveries of one
// message at the same moment (round2-notes).
export const intakeMessages = sqliteTable(
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

// What happened to each dossier (C18), kept as long as the dossier (events go after 30 days).
// Written by the services in the unit of the change; `seq` orders the items of one millisecond.
export const dossierHistory = sqliteTable(
  "dossier_history",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    dossierId: text("dossier_id").notNull().references(() => dossiers.id),
    at: text("at").notNull(),
    kind: text("kind").notNull(),
    actorType: text("actor_type"),
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    // JSON: field → [old, new].
    changes: text("changes").notNull(),
  },
  (t) => [index("dossier_history_dossier").on(t.organizationId, t.dossierId, t.seq)],
);

// Each stay of a dossier in a stage (C18: meta.stages and the flow's figures), kept by triggers on
// dossiers.current_stage_id in the writing transaction (migration 0008), so that every way a
// dossier moves is seen. `next_stage_id` is where it went (null: still there, or moved to no stage).
export const stageVisits = sqliteTable(
  "stage_visits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
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
    // Covering for the figures of those that left: where they went and how long they stayed.
    index("stage_visits_stage_left").on(t.organizationId, t.stageId, t.leftAt, t.nextStageId, t.enteredAt),
  ],
);

// When each dossier now `won` or `lost` last became so (C20 "Stats edge cases"), kept by triggers on
// dossiers.status (migration 0008; a dossier reopened loses its row, 0011).
export const dossierOutcomes = sqliteTable(
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

// The first answer to each Idempotency-Key (C16, C20), written in the unit that made the request's
// effect, so that a retry after a crash between the commit and the answer gets that answer. A key
// belongs to the principal (API key or member) within the organization; rows go after 24 hours.
export const idempotencyKeys = sqliteTable(
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

// Tasks (C22): follow-ups with a due date, an assignee and a reminder. `stage_visit_id` is set on the
// task an overdue stage made: unique, so a stage visit makes one task whatever runs the scan.
// `reminded_at` is when the reminder was handled (queued, or nothing to send); a new remind_at
// clears it.
export const tasks = sqliteTable(
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
    stageVisitId: integer("stage_visit_id"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // The list's order: due_at ascending with no due date last, then created_at, then id.
    index("tasks_org_due").on(t.organizationId, t.dueAt, t.createdAt, t.id),
    index("tasks_org_assigned_due").on(t.organizationId, t.assignedTo, t.status, t.dueAt),
    index("tasks_org_dossier").on(t.organizationId, t.dossierId),
    index("tasks_org_contact").on(t.organizationId, t.contactId),
    // The reminders still to handle, across organizations (the job runner).
    index("tasks_remind_due").on(t.remindAt).where(sql`${t.remindedAt} IS NULL AND ${t.status} = 'open'`),
    uniqueIndex("tasks_stage_visit").on(t.stageVisitId),
  ],
);

// Outgoing mail (C22): each message queued in the transaction of its cause, as plain JSON
// (src/mail/message.ts's OutgoingMail), then sent by the job runner: `attempts` counts the attempts
// begun (recorded before connecting), `next_attempt_at` (epoch ms) is when a queued message is
// due; `sending` marks an attempt begun and not yet recorded (after a crash it is due again: the
// one duplicate C22 allows).
export const outgoingMail = sqliteTable(
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
    nextAttemptAt: integer("next_attempt_at"),
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
export const imports = sqliteTable(
  "imports",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull().references(() => organizations.id),
    resource: text("resource", { enum: ["contacts", "dossiers"] }).notNull(),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "reverted"] }).notNull(),
    dryRun: integer("dry_run", { mode: "boolean" }).notNull(),
    mode: text("mode", { enum: ["create", "update", "upsert"] }).notNull(),
    matchOn: text("match_on", { enum: ["email", "id"] }).notNull(),
    emitEvents: integer("emit_events", { mode: "boolean" }).notNull(),
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
export const importRows = sqliteTable(
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

// Counters every node of one PostgreSQL database shares (C8, C15, C19, C20: rate limits, intake
// limits and sign-in throttles count across nodes; src/db/pg/counters.ts). SQLite's one process
// counts in memory (src/http/rate-limiter.ts, src/services/throttle.ts) and leaves them empty: they
// are declared here so that both engines keep one schema.
// A subject (an organization's id, or "intake:" and an intake token's SHA-256) has one counter: `cum`
// counts its counted requests since the first, `n` what the last check added (0: refused, 1: counted).
export const rateCounters = sqliteTable("rate_counters", {
  subject: text("subject").primaryKey(),
  cum: integer("cum").notNull(),
  n: integer("n").notNull(),
});

// The counted requests of one check (one admission statement on PostgreSQL): their subject, the
// place of the last in the subject's count (`cum`), how many (`n`, places cum - n + 1 to cum) and
// their one time (epoch ms). The rows of the last 60 s give the sliding window (C8) exactly; older
// ones are swept. A row a request (n = 1) is what nodes before drizzle-pg/0013 wrote. rate_hits_at
// holds the order the window's lookups ask for, (at, cum), whole: with `at` alone, PostgreSQL with
// statistics older than the window's hits found the window's edge by sorting all of a subject's
// hits (drizzle-pg/0014).
export const rateHits = sqliteTable(
  "rate_hits",
  {
    subject: text("subject").notNull(),
    cum: integer("cum").notNull(),
    at: integer("at").notNull(),
    n: integer("n").notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.subject, t.cum] }), index("rate_hits_at").on(t.subject, t.at, t.cum)],
);

// Failed sign-ins by throttle key ("a:<address>", "e:<address>:<email>", src/services/throttle.ts)
// and time (epoch ms); rows older than the throttle's window are swept.
export const signInFailures = sqliteTable(
  "sign_in_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("sign_in_failures_key").on(t.key, t.at)],
);

// PostgreSQL's kind of each integer above is integer, but bigint (read as a JavaScript number, exact
// to 2^53) for an AUTOINCREMENT key, a column whose foreign key names a bigint, and these: counters
// that only grow, the stage visits' ids kept without a foreign key, and epoch milliseconds.
// src/db/pg/schema-gen.ts writes src/db/pg/schema.ts from this file by that rule.
export const PG_BIGINT: SQLiteColumn[] = [
  contactGenerations.generation,
  contactGenerations.searchEdits,
  generations.generation,
  rateCounters.cum,
  rateHits.cum,
  dossiers.overdueTaskVisitId,
  tasks.stageVisitId,
  events.nextAttemptAt,
  outgoingMail.nextAttemptAt,
  leases.expiresAt,
  leases.position,
  rateHits.at,
  signInFailures.at,
];

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
