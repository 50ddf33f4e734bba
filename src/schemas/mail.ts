// Outgoing mail's records (C22): the mail log, a member's own settings (time zone, digest), and the
// private calendar link.
import { Type as t } from "@sinclair/typebox";
import { closed, DateTime, Nullable, PagingQuery, Uuid } from "./common";
import "./dossiers"; // registers the uuid and date-time formats

export const MailStatus = t.Union([t.Literal("queued"), t.Literal("sending"), t.Literal("sent"), t.Literal("failed")], {
  description: "queued: waiting for its (next) attempt; sending: an attempt is under way; sent: the server took it; failed: refused for good (5xx) or out of attempts",
});

export const MailLogEntry = t.Object(
  {
    id: Uuid,
    kind: t.String({ description: "reminder or digest" }),
    recipient: t.String({ description: "The address the message is sent to" }),
    subject: t.String(),
    member_id: Nullable(Uuid),
    task_id: Nullable(t.String({ format: "uuid", description: "The task of a reminder" })),
    status: MailStatus,
    attempts: t.Integer({ minimum: 0, description: "Attempts begun (at most 5: then, 1 min, 5 min, 30 min and 2 h after each failure)" }),
    next_attempt_at: Nullable(t.String({ format: "date-time", description: "When a queued message is tried (again)" })),
    last_error: Nullable(t.String({ description: "The server's reply, or what went wrong, at the last failed attempt" })),
    reply: Nullable(t.String({ description: "The server's reply when it took the message" })),
    created_at: DateTime,
    sent_at: Nullable(t.String({ format: "date-time" })),
  },
  {
    ...closed,
    examples: [
      {
        id: "4c1d2e3f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
        kind: "reminder",
        recipient: "ada@example.com",
        subject: "Reminder: Call Jane about the proposal",
        member_id: "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
        task_id: "6d2e8f1a-3b4c-4d5e-9f6a-7b8c9d0e1f2a",
        status: "sent",
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        reply: "250 2.0.0 OK queued",
        created_at: "2026-12-01T08:30:00.000Z",
        sent_at: "2026-12-01T08:30:01.204Z",
      },
    ],
  },
);

export const MailLogQuery = t.Object(PagingQuery);

export const MemberSettings = t.Object(
  {
    time_zone: Nullable(t.String({ description: "The member's IANA time zone; null: the server's (DOSSIER_TIME_ZONE, else UTC)" })),
    effective_time_zone: t.String({ description: "The zone in use: time_zone, else the server's" }),
    digest: t.Boolean({ description: "Whether the morning digest (08:00 in effective_time_zone) is sent" }),
    calendar_link: t.Boolean({ description: "Whether the member has a calendar feed link (the link itself is shown once)" }),
  },
  { ...closed, examples: [{ time_zone: "Europe/Paris", effective_time_zone: "Europe/Paris", digest: true, calendar_link: false }] },
);

export const PatchMemberSettings = t.Object(
  {
    time_zone: t.Optional(Nullable(t.String({ description: "An IANA time zone name (Europe/Paris, America/New_York, UTC); null: the server's" }))),
    digest: t.Optional(t.Boolean({ description: "false turns the morning digest off" })),
  },
  { additionalProperties: false, examples: [{ time_zone: "Europe/Paris", digest: true }] },
);

export const CalendarLink = t.Object(
  {
    url: t.String({
      description: "<base>/calendar/<token>.ics: the member's private feed of open tasks with a due date; shown once; a new link voids the old one",
      examples: ["https://dossier.example.com/calendar/q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0.ics"],
    }),
  },
  { ...closed, examples: [{ url: "https://dossier.example.com/calendar/q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0.ics" }] },
);
