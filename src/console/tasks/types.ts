// The API's shapes this folder uses, named once (from the generated schema only).
import type { components } from "../api/schema";

export type Task = components["schemas"]["Task"];
export type CreateTask = components["schemas"]["CreateTask"];
export type PatchTask = components["schemas"]["PatchTask"];
export type MemberSettings = components["schemas"]["MemberSettings"];
export type MailLogEntry = components["schemas"]["MailLogEntry"];
