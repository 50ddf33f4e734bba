// The mail log (C22): GET /mail-log, newest first, for admins (mail:read).
import { List } from "../../schemas/common";
import { MailLogEntry, MailLogQuery } from "../../schemas/mail";
import { mailLog } from "../../services/mail-log";
import { page, paging } from "../request";
import { defineRoute } from "../route";

export const mailLogRoutes = [
  defineRoute({
    id: "listMailLog",
    method: "GET",
    path: "/mail-log",
    summary: "The mail log",
    tag: "Tasks",
    description: "The reminders and digests the organization's members were sent, newest first: status, attempts, the server's reply or the last error (C22).",
    scopes: ["mail:read"],
    query: MailLogQuery,
    responses: { 200: { schema: List(MailLogEntry), description: "A page of the organization's outgoing mail, newest first, with the total across all pages" } },
    handler: async ({ ctx, principal, query }) => {
      const paged = paging(query);
      const { data, total } = await mailLog(ctx, principal.organizationId, paged);
      return page(data, total, paged);
    },
  }),
];
