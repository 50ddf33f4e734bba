// The events feed (C17, C20): what a receiver that was down reads to catch up.
//   GET /events        the organization's events after a cursor, oldest first
//   GET /events/:id    one event
import { notFound } from "../../errors";
import { One } from "../../schemas/common";
import { Event, EVENT_ID, EventFeed, EventQuery } from "../../schemas/events";
import { getEvent, listEvents } from "../../services/events";
import { defineRoute, type Reply } from "../route";

const TAG = "Events";

/** The bodies are the events' stored JSON text, put in their envelope as they are. */
function json(set: Reply, text: string): string {
  set.headers["content-type"] = "application/json;charset=utf-8";
  return text;
}

export const eventRoutes = [
  defineRoute({
    id: "listEvents",
    method: "GET",
    path: "/events",
    summary: "Read the events feed",
    tag: TAG,
    description:
      "The organization's events as their webhook bodies, oldest first (commit order), whether or not a webhook endpoint is set. " +
      "Read with `after=meta.next_after` until `has_more` is false: nothing is missed and nothing repeated, even while events are " +
      "being written. Events are kept 30 days (DOSSIER_EVENT_RETENTION); an `after` that is unknown, another organization's or " +
      "older than that answers 410 cursor_expired: start again without `after`.",
    scopes: ["events:read"],
    query: EventQuery,
    responses: { 200: { schema: EventFeed, description: "Up to `limit` events after `after`, oldest first, and where to read on" } },
    errors: ["cursor_expired"],
    handler: async ({ ctx, principal, query, set }) => {
      const found = await listEvents(ctx, principal.organizationId, {
        after: query.after,
        types: query.type,
        dossierId: query.dossier_id,
        limit: query.limit,
      });
      const meta = JSON.stringify({ has_more: found.hasMore, next_after: found.nextAfter });
      return json(set, `{"data":[${found.bodies.join(",")}],"meta":${meta}}`);
    },
  }),
  defineRoute({
    id: "getEvent",
    method: "GET",
    path: "/events/:id",
    summary: "Get one event",
    tag: TAG,
    description: "An event of the organization within the retention, as its webhook body.",
    scopes: ["events:read"],
    params: { id: "The event's id (evt_...)" },
    idPattern: EVENT_ID,
    responses: { 200: { schema: One(Event), description: "The event, as its webhook body" } },
    handler: async ({ ctx, principal, params, set }) => {
      const body = await getEvent(ctx, principal.organizationId, params.id);
      if (body === null) throw notFound("event not found");
      return json(set, `{"data":${body}}`);
    },
  }),
];
