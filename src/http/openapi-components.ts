// The schemas the OpenAPI document names (`components.schemas`), and the one conversion from a
// TypeBox schema to the document's JSON: wherever a named schema appears inside another, the
// document says `$ref` to its name instead of repeating it, so a generated client gets one type
// per resource (`Dossier`, `Contact`, ...) rather than the same shape inline in every operation.
import type { TSchema } from "@sinclair/typebox";
import { ErrorBody, List, Meta, One } from "../schemas/common";
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
import { ArchivedDossier, CreateDossier, CreateDossierForm, CvForm, Dossier, DossierStatus, DossierType, PatchDossier } from "../schemas/dossiers";
import {
  DossierCreatedEvent,
  DossierDeletedEvent,
  DossierStageChangedEvent,
  DossierUpdatedEvent,
  NoteCreatedEvent,
  PreviousAttributes,
  StageChange,
} from "../schemas/events";
import { Flow, FlowType, Stage } from "../schemas/flows";
import { Note } from "../schemas/notes";

/** Name -> schema, in the order the document lists them. An envelope is `<Record>Envelope`
 * (`{data}`) or `<Record>List` (`{data: [...], meta}`). CreateNote stays inline: openapi-typescript
 * makes a member with a `default` required in a named schema (it cannot tell a request's from an
 * answer's), and `is_internal` may be left out. */
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
  Error: ErrorBody,
  DossierEnvelope: One(Dossier),
  DossierList: List(Dossier),
  ArchivedDossierEnvelope: One(ArchivedDossier),
  ContactEnvelope: One(Contact),
  ContactList: List(Contact),
  DeletedContactEnvelope: One(DeletedContact),
  NoteEnvelope: One(Note),
  NoteList: List(Note),
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

/** Members whose values are data, not schemas: never replaced by a reference. */
const DATA_MEMBERS = new Set(["examples", "example", "default", "const", "enum"]);

export const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The document's JSON of a schema: TypeBox's markers dropped, named subschemas as `$ref`. The
 * schema itself is referenced too when it is named, unless `inline` (a component's own body). */
export function documentSchema(schema: TSchema, inline = false): Record<string, unknown> {
  const convert = (value: unknown, root: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => convert(item, false));
    if (!value || typeof value !== "object") return value;
    const name = root && inline ? undefined : named(value);
    if (name) return refTo(name);
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, DATA_MEMBERS.has(key) ? member : convert(member, false)]));
  };
  return convert(schema, true) as Record<string, unknown>;
}

/** `components.schemas`: every named schema, each referring to the others by name. */
export const componentSchemas = (): Record<string, unknown> =>
  Object.fromEntries(Object.entries(NAMED).map(([name, schema]) => [name, documentSchema(schema, true)]));
