// The contact shapes of the API document, by the names the contacts screens use.
import type { components, operations } from "../api/schema";

export type Contact = components["schemas"]["Contact"];
export type ContactKind = components["schemas"]["ContactKind"];
export type CreateContact = components["schemas"]["CreateContact"];
export type PatchContact = components["schemas"]["PatchContact"];
export type ContactQuery = NonNullable<operations["listContacts"]["parameters"]["query"]>;

export const KINDS: readonly ContactKind[] = ["candidate", "prospect", "client", "supplier", "partner"];
export const POOLS = ["in_pool", "expired"] as const;
