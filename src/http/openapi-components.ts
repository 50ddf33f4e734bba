// The schemas the OpenAPI document names (`components.schemas`), and the one conversion from a
// TypeBox schema to the document's JSON: wherever a named schema appears inside another, the
// document says `$ref` to its name instead of repeating it, so a generated client gets one type
// per resource (`Dossier`, `Contact`, ...) rather than the same shape inline in every operation.
import type { TSchema } from "@sinclair/typebox";
import { ErrorBody, List, Meta, Metadata, One, PageMeta, Paged } from "../schemas/common";
import { CreateMember, Member, MemberRole, NewMember, PatchMember, Session, SetupLink, SetupPassword, SignedOut, SignIn } from "../schemas/members";
import {
  Contact,
  ContactKind,
  CreateContact,
  CreateLink,
  DeletedContact,
  Link,
  LinkItem,
  LinkRole,
  PatchContact,
  Unlinked,
} from "../schemas/contacts";
import { CsvFile, Import, ImportError, ImportForm, ImportRevert, ImportStatus } from "../schemas/imports";
import { ArchivedDossier, CreateDossier, CreateDossierForm, CvForm, CvRaw, Dossier, DossierStatus, DossierType, PatchDossier } from "../schemas/dossiers";
import {
  DossierCreatedEvent,
  DossierDeletedEvent,
  DossierStageChangedEvent,
  DossierUpdatedEvent,
  Event,
  EventFeed,
  EventFeedMeta,
  EventType,
  NoteCreatedEvent,
  PreviousAttributes,
  StageChange,
} from "../schemas/events";
import { CreateFlow, CreateStage, DeletedStage, Flow, FlowType, NewFlowStage, PatchFlow, PatchStage, Stage } from "../schemas/flows";
import { Actor, DossierHistory, HistoryItem, StageStay } from "../schemas/history";
import { IntakeAddress, IntakeReceipt, RawMessage } from "../schemas/intake";
import { ApiKey, CreatedKey, CreateKey, ScopeName } from "../schemas/keys";
import { Note } from "../schemas/notes";
import { FlowStats, FlowStatsAnswer, Pipeline, StageFigures } from "../schemas/stats";
import { CalendarLink, MailLogEntry, MailStatus, MemberSettings, PatchMemberSettings } from "../schemas/mail";
import { CreateTask, DeletedTask, PatchTask, Task, TaskCreator, TaskStatus } from "../schemas/tasks";
import {
  Delivery,
  DeliveryAttempt,
  DeliveryStatus,
  DeliveryWithAttempts,
  RemovedWebhookEndpoint,
  RotatedSecret,
  SetWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from "../schemas/webhooks";

/** Name -> schema, in the order the document lists them. An envelope is `<Record>Envelope`
 * (`{data}`) or `<Record>List` (`{data: [...], meta}`). Every answer's body is one of these (issue
 * 38: a generator then names its types after them, never `ListKeys200DataItem`); a test fails on
 * an inline one. CreateNote stays inline: openapi-typescript makes a member with a `default`
 * required in a named schema (it cannot tell a request's from an answer's), and `is_internal` may
 * be left out. */
const NAMED: Record<string, TSchema> = {
  Dossier,
  DossierType,
  DossierStatus,
  ArchivedDossier,
  Contact,
  ContactKind,
  DeletedContact,
  Note,
  Flow,
  FlowType,
  Stage,
  Link,
  LinkRole,
  LinkedContact: LinkItem,
  Unlinked,
  Meta,
  PageMeta,
  Metadata,
  Error: ErrorBody,
  DossierEnvelope: One(Dossier),
  DossierList: Paged(Dossier),
  ArchivedDossierEnvelope: One(ArchivedDossier),
  ContactEnvelope: One(Contact),
  ContactList: Paged(Contact),
  DeletedContactEnvelope: One(DeletedContact),
  NoteEnvelope: One(Note),
  NoteList: Paged(Note),
  FlowList: List(Flow),
  StageList: List(Stage),
  LinkEnvelope: One(Link),
  LinkedContactList: List(LinkItem),
  UnlinkedEnvelope: One(Unlinked),
  CreateDossier,
  CreateDossierForm,
  PatchDossier,
  CvForm,
  CreateContact,
  PatchContact,
  CreateLink,
  DossierCreatedEvent,
  DossierUpdatedEvent,
  DossierStageChangedEvent,
  DossierDeletedEvent,
  NoteCreatedEvent,
  StageChange,
  PreviousAttributes,
  Member,
  MemberRole,
  NewMember,
  SetupLink,
  Session,
  SignedOut,
  MemberEnvelope: One(Member),
  MemberList: List(Member),
  NewMemberEnvelope: One(NewMember),
  SetupLinkEnvelope: One(SetupLink),
  SessionEnvelope: One(Session),
  SignedOutEnvelope: One(SignedOut),
  CreateMember,
  PatchMember,
  SignIn,
  SetupPassword,
  FlowEnvelope: One(Flow),
  StageEnvelope: One(Stage),
  DeletedStage,
  DeletedStageEnvelope: One(DeletedStage),
  CreateFlow,
  NewFlowStage,
  PatchFlow,
  CreateStage,
  PatchStage,
  FlowStats,
  StageStats: StageFigures,
  PipelineValue: Pipeline,
  FlowStatsEnvelope: FlowStatsAnswer,
  DossierHistory,
  HistoryItem,
  HistoryActor: Actor,
  StageStay,
  IntakeAddress,
  IntakeAddressEnvelope: One(IntakeAddress),
  IntakeReceipt,
  IntakeReceiptEnvelope: One(IntakeReceipt),
  EmailMessage: RawMessage,
  PdfFile: CvRaw,
  CsvFile,
  Import,
  ImportError,
  ImportRevert,
  ImportStatus,
  ImportForm,
  ImportEnvelope: One(Import),
  ImportList: Paged(Import),
  Scope: ScopeName,
  ApiKey,
  ApiKeyList: List(ApiKey),
  ApiKeyEnvelope: One(ApiKey),
  CreateKey,
  CreatedKey,
  CreatedKeyEnvelope: One(CreatedKey),
  WebhookEndpoint,
  WebhookEndpointEnvelope: One(WebhookEndpoint),
  SetWebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEndpointWithSecretEnvelope: One(WebhookEndpointWithSecret),
  RemovedWebhookEndpoint,
  RemovedWebhookEndpointEnvelope: One(RemovedWebhookEndpoint),
  RotatedWebhookSecret: RotatedSecret,
  RotatedWebhookSecretEnvelope: One(RotatedSecret),
  WebhookDeliveryStatus: DeliveryStatus,
  WebhookDelivery: Delivery,
  WebhookDeliveryList: Paged(Delivery),
  WebhookDeliveryAttempt: DeliveryAttempt,
  WebhookDeliveryWithAttempts: DeliveryWithAttempts,
  WebhookDeliveryWithAttemptsEnvelope: One(DeliveryWithAttempts),
  EventType,
  Event,
  EventEnvelope: One(Event),
  EventFeedMeta,
  EventFeed,
  Task,
  TaskStatus,
  TaskCreator,
  TaskEnvelope: One(Task),
  TaskList: Paged(Task),
  DeletedTask,
  DeletedTaskEnvelope: One(DeletedTask),
  CreateTask,
  PatchTask,
  MailStatus,
  MailLogEntry,
  MailLogList: List(MailLogEntry),
  MemberSettings,
  MemberSettingsEnvelope: One(MemberSettings),
  PatchMemberSettings,
  CalendarLink,
  CalendarLinkEnvelope: One(CalendarLink),
};

const nameOf = new Map<TSchema, string>(Object.entries(NAMED).map(([name, schema]) => [schema, name]));

/** Named schemas by each object they hold as a member: a copy of one shares those objects. */
const holders = new Map<unknown, TSchema[]>();
for (const schema of nameOf.keys()) {
  for (const member of Object.values(schema)) if (member && typeof member === "object") holders.set(member, [...(holders.get(member) ?? []), schema]);
}

/** The name of `schema`, also when it is TypeBox's shallow copy of a named schema (`t.Optional`
 * copies the schema it marks: same members, same member objects). */
function named(schema: object): string | undefined {
  const exact = nameOf.get(schema as TSchema);
  if (exact) return exact;
  const members = Object.entries(schema);
  for (const [, member] of members) {
    for (const candidate of holders.get(member) ?? []) {
      const own = Object.entries(candidate);
      if (own.length === members.length && own.every(([key, value]) => (schema as Record<string, unknown>)[key] === value)) return nameOf.get(candidate);
    }
  }
  return undefined;
}

/** Formats the document states where the service checks the value itself (with its own message
 * and `param`), so that the validating schema leaves them out: a contact's pool dates (issue 38:
 * every date-time has its format). */
const DOCUMENT_FORMATS = new Map<unknown, string>([
  ...(["pool_added_at", "pool_expires_at"] as const).map((field) => [((CreateContact.properties[field] as TSchema).anyOf as TSchema[])[0], "date-time"] as const),
  // A task's due_at and remind_at (C22): the service names the field of a bad date-time.
  ...[CreateTask, PatchTask].flatMap((body) => (["due_at", "remind_at"] as const).map((field) => [((body.properties[field] as TSchema).anyOf as TSchema[])[0], "date-time"] as const)),
]);

/** Members whose values are data, not schemas: never replaced by a reference. */
const DATA_MEMBERS = new Set(["examples", "example", "default", "const", "enum"]);

/** TypeBox's union of literals (`anyOf: [{const: "a", type: "string"}, ...]`) as the document's
 * `enum` of one type: what a reference page shows as a list of choices and a generator as a union
 * or an enum type (a list of `const` shows as "Any of const" with a free-text box, issue 38). The
 * same values are accepted: only the document's spelling changes. */
function enumOf(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const members = schema.anyOf;
  if (!Array.isArray(members) || members.length === 0) return undefined;
  const literal = (m: unknown): m is { const: string | number | boolean; type: string } =>
    !!m && typeof m === "object" && "const" in m && Object.keys(m).every((key) => key === "const" || key === "type");
  if (!members.every(literal)) return undefined;
  const types = new Set(members.map((m) => m.type));
  if (types.size !== 1 || members.some((m) => m.type === undefined)) return undefined;
  const { anyOf: _, ...rest } = schema;
  return { type: members[0].type, enum: members.map((m) => m.const), ...rest };
}

/** A union of one object, the empty string and maybe null (metadata on a create or a PATCH: "" clears
 * it) as one schema of several types: a reference page shows it as an object that may also be ""
 * (and null), not as "Any of". `maxLength: 0` applies to the string alone, the object's members
 * to the object alone: the same values as the union. */
function objectOrEmpty(schema: Record<string, unknown>, convert: (value: unknown) => unknown): Record<string, unknown> | undefined {
  const members = schema.anyOf;
  if (!Array.isArray(members)) return undefined;
  const objects = members.filter((m) => m?.type === "object");
  const empty = members.filter((m) => m?.type === "string" && m.const === "" && Object.keys(m).length === 2);
  const nulls = members.filter((m) => m?.type === "null" && Object.keys(m).length === 1);
  if (objects.length !== 1 || empty.length !== 1 || objects.length + empty.length + nulls.length !== members.length) return undefined;
  const { anyOf: _, ...rest } = schema;
  const object = convert(objects[0]) as Record<string, unknown>;
  return { ...object, ...rest, type: ["object", "string", ...(nulls.length > 0 ? ["null"] : [])], maxLength: 0 };
}

export const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });

type Json = Record<string, unknown>;

/** The JSON type(s) a TypeBox schema's values have, when it says: `type`, or a union's members'. */
function typesOf(schema: TSchema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  const members = schema.anyOf;
  if (!Array.isArray(members) || members.length === 0) return undefined;
  const types = new Set<string>();
  for (const member of members as TSchema[]) {
    const own = typesOf(member);
    if (own === undefined) return undefined;
    for (const type of own) types.add(type);
  }
  return [...types];
}

/** A union that may be null (TypeBox's `anyOf: [X, {type: "null"}]`) as one schema of two types,
 * `{...X, type: [X's type, "null"]}` (an `enum` takes `null` too): the same values, which Scalar's
 * reader of the document (/docs) accepts as a schema, where a schema with no `type` fails its
 * check, and costs it every other form of schema tried on every member (issue 38: the page spent
 * most of its time there). Outer members (the property's description) are kept beside X's. A named
 * X stays a `$ref` in the union, which then says its types. */
function nullable(schema: Json, convert: (value: unknown) => unknown): Json | undefined {
  const members = schema.anyOf;
  if (!Array.isArray(members) || members.length !== 2) return undefined;
  const isNull = (m: TSchema) => m?.type === "null" && Object.keys(m).length === 1;
  const nulls = members.filter(isNull);
  if (nulls.length !== 1) return undefined;
  const other = members.find((m) => !isNull(m)) as TSchema;
  const converted = convert(other) as Json;
  const { anyOf: _, ...rest } = schema;
  const types = typesOf(other);
  if (typeof converted.$ref === "string") return types === undefined ? undefined : { ...rest, type: [...types, "null"], anyOf: [converted, { type: "null" }] };
  if (typeof converted.type !== "string" || "const" in converted || ["anyOf", "oneOf", "allOf"].some((key) => key in converted)) return undefined;
  const description = [converted.description, rest.description].filter((text): text is string => typeof text === "string");
  return {
    ...converted,
    ...rest,
    type: [converted.type, "null"],
    ...(Array.isArray(converted.enum) ? { enum: [...converted.enum, null] } : {}),
    ...(description.length === 2 && description[0] !== description[1] ? { description: `${description[1].replace(/\.$/, "")}. ${description[0]}` } : {}),
  };
}

/** Any JSON value, as a schema that says its types: an array's `items: {}` (TypeBox's Unknown) is a
 * schema Scalar's reader refuses (see `nullable`). Spectral wants `items` beside a type that holds
 * "array", and a generator reads the whole as any value (an object of anything among them). */
const ANY_VALUE = { type: ["null", "boolean", "number", "string", "array", "object"], items: {}, additionalProperties: true };

const isEmpty = (value: unknown) => !!value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0;

/** A union of named schemas that all say their type (the events' union, `Event`) says it too, so
 * that Scalar's reader takes it as a schema (see `nullable`); it allows the same values. */
function typedUnion(schema: Json, converted: Json): Json {
  if (!Array.isArray(schema.anyOf) || "type" in schema) return converted;
  const types = typesOf(schema as TSchema);
  return types === undefined ? converted : { type: types.length === 1 ? types[0] : types, ...converted };
}

/** The document's JSON of a schema: TypeBox's markers dropped, named subschemas as `$ref`. The
 * schema itself is referenced too when it is named, unless `inline` (a component's own body). */
export function documentSchema(schema: TSchema, inline = false): Record<string, unknown> {
  const convert = (value: unknown, root: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => convert(item, false));
    if (!value || typeof value !== "object") return value;
    const name = root && inline ? undefined : named(value);
    if (name) return refTo(name);
    const member = (sub: unknown) => convert(sub, false);
    const choices = enumOf(value as Json) ?? objectOrEmpty(value as Json, member) ?? nullable(value as Json, member);
    if (choices) return choices;
    const format = DOCUMENT_FORMATS.get(value);
    const converted = Object.fromEntries([
      ...Object.entries(value).map(([key, sub]) => [key, DATA_MEMBERS.has(key) ? sub : key === "items" && isEmpty(sub) ? ANY_VALUE : member(sub)]),
      ...(format ? [["format", format]] : []),
    ]);
    return typedUnion(value as Json, converted);
  };
  return convert(schema, true) as Record<string, unknown>;
}

/** `components.schemas`: every named schema, each referring to the others by name. */
export const componentSchemas = (): Record<string, unknown> =>
  Object.fromEntries(Object.entries(NAMED).map(([name, schema]) => [name, documentSchema(schema, true)]));

/** Answers declared outside defineRoute, whose schemas the registry above cannot see (GET /healthz
 * declares its own), named by operation and status. */
const ANSWER_NAMES: Record<string, string> = {
  "getHealthz 200": "Health",
  "getHealthz 503": "HealthUnavailable",
};

const KIND = Symbol.for("TypeBox.Kind");

/** Each operation's request and answer schemas as the document writes them: a TypeBox schema that
 * an operation declared as it is (outside defineRoute) converted like the others, and an answer's
 * inline body named (ANSWER_NAMES) and added to `schemas`. */
export function nameInlineAnswers(paths: Record<string, Record<string, Record<string, unknown>>>, schemas: Record<string, unknown>) {
  for (const operations of Object.values(paths)) {
    for (const op of Object.values(operations)) {
      const responses = (op.responses ?? {}) as Record<string, { content?: Record<string, { schema?: unknown }> }>;
      for (const [status, response] of Object.entries(responses)) {
        for (const media of Object.values(response.content ?? {})) {
          if (media.schema && typeof media.schema === "object" && KIND in media.schema) media.schema = documentSchema(media.schema as unknown as TSchema);
          const name = ANSWER_NAMES[`${op.operationId} ${status}`];
          if (name && media.schema && !("$ref" in (media.schema as object))) {
            schemas[name] = media.schema;
            media.schema = refTo(name);
          }
        }
      }
    }
  }
  return paths;
}
