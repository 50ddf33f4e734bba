// The bodies of the five webhook events (api-v1 "Events", C7, C10): what src/services/outbox.ts
// writes and the dispatcher POSTs. The OpenAPI document lists them under `webhooks`.
import { Type as t, type TSchema } from "@sinclair/typebox";
import { closed, DateTime, Nullable, Uuid } from "./common";
import { Dossier, DossierStatus, PatchDossier } from "./dossiers";
import { Note } from "./notes";

/** The fields whose old values `dossier.updated` reports: those of the PATCH table and, for a CV
 * upload, `cv_url` (C10). Derived fields are not listed. */
const PREVIOUS_FIELDS = [...(Object.keys(PatchDossier.properties) as (keyof typeof PatchDossier.properties)[]), "cv_url" as const];

export const PreviousAttributes = t.Partial(t.Pick(Dossier, PREVIOUS_FIELDS), {
  ...closed,
  description: "The fields the request changed, with their values before it",
  examples: [{ status: "active", deal_size: 10000 }],
});

export const StageChange = t.Object(
  {
    id: Uuid,
    current_stage_id: Nullable(t.String({ format: "uuid", description: "The stage the dossier is in now; null when the PATCH left it in no stage" })),
    previous_stage_id: Nullable(t.String({ format: "uuid", description: "The stage it was in before" })),
    status: DossierStatus,
  },
  {
    ...closed,
    examples: [
      {
        id: "0b5c3a4e-8f1d-4c2a-9e6b-1d2f3a4b5c6d",
        current_stage_id: "5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
        previous_stage_id: "6b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
        status: "active",
      },
    ],
  },
);

const EventId = t.String({ pattern: "^evt_[0-9A-Za-z]{26,}$", description: "Unique per event; a receiver that sees an id again has the event already (delivery is at least once)" });

/** One event body: `{id, type, created_at, organization_id, data}`, and `previous_attributes` on
 * `dossier.updated`. */
function eventBody<D extends TSchema>(type: string, description: string, data: D, extra: { previous_attributes?: typeof PreviousAttributes } = {}) {
  return t.Object(
    {
      id: EventId,
      type: t.Literal(type),
      created_at: DateTime,
      organization_id: Uuid,
      data,
      ...extra,
    },
    { ...closed, description },
  );
}

export const DossierCreatedEvent = eventBody("dossier.created", "A dossier was created (POST /dossiers); data is the whole new dossier", Dossier);
export const DossierUpdatedEvent = eventBody(
  "dossier.updated",
  "A field of a dossier changed (PATCH /dossiers/{id}, POST /dossiers/{id}/cv); data is the whole dossier after the change",
  Dossier,
  { previous_attributes: PreviousAttributes },
);
export const DossierStageChangedEvent = eventBody(
  "dossier.stage_changed",
  "current_stage_id changed (PATCH /dossiers/{id}); sent before the dossier.updated of the same request",
  StageChange,
);
export const DossierDeletedEvent = eventBody("dossier.deleted", "A dossier was archived (DELETE /dossiers/{id}); data is the whole archived dossier", Dossier);
export const NoteCreatedEvent = eventBody("note.created", "A note was added to a dossier (POST /dossiers/{id}/notes); data is the note", Note);

/** Each event type and its body, in api-v1's order. */
export const EVENT_BODIES = {
  "dossier.created": DossierCreatedEvent,
  "dossier.updated": DossierUpdatedEvent,
  "dossier.stage_changed": DossierStageChangedEvent,
  "dossier.deleted": DossierDeletedEvent,
  "note.created": NoteCreatedEvent,
} as const;

/** Any event body: what the feed (GET /events, C17) lists and GET /events/{id} answers. */
export const Event = t.Union(Object.values(EVENT_BODIES), {
  description: "An event as its webhook body (C7); `type` tells which",
});

export const EventType = t.Union(
  (Object.keys(EVENT_BODIES) as (keyof typeof EVENT_BODIES)[]).map((type) => t.Literal(type)),
  { description: "One of the event types" },
);

/** Where the id of one event is a path parameter: an event id of either form (C20). */
export const EVENT_ID = /^evt_[0-9A-Za-z]{26,}$/;

/** The query of GET /events (C17, C20). */
export const EventQuery = t.Object({
  after: t.Optional(
    t.String({
      description:
        "An event id (a previous answer's `meta.next_after`): only the events recorded after it. An id that is unknown, " +
        "another organization's, or older than the retention answers 410 cursor_expired",
      examples: ["evt_00000000000000000000000042"],
    }),
  ),
  type: t.Array(EventType, { description: "Only events of these types; may repeat (any of them); an unknown type is 400" }),
  dossier_id: t.Optional(
    t.String({ format: "uuid", description: "Only this dossier's own events and the note.created of its notes; a non-uuid is 400" }),
  ),
  limit: t.Integer({ minimum: 1, maximum: 100, default: 50, description: "How many events at most, 1 to 100" }),
});

export const EventFeedMeta = t.Object(
  {
    has_more: t.Boolean({ description: "Whether more events follow now: read again at once with after=next_after" }),
    next_after: Nullable(
      t.String({
        pattern: EVENT_ID.source,
        description:
          "The `after` of the next read: the id of the last event in data; when data is empty, the `after` that was sent " +
          "(null when none was)",
      }),
    ),
  },
  { ...closed, examples: [{ has_more: false, next_after: "evt_00000000000000000000000042" }] },
);

/** `{data: [event...], meta: {has_more, next_after}}` */
export const EventFeed = t.Object({ data: t.Array(Event), meta: EventFeedMeta }, closed);
