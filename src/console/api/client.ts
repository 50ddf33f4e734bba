// The one way the console talks to the server: openapi-fetch over the types generated from the
// app's own /openapi.json (api/schema.d.ts), so that every path, query and body is checked against
// the document. Changes carry the session's CSRF token (C12).
import createClient, { type Middleware } from "openapi-fetch";
import { explain } from "../ui/words";
import type { components, paths } from "./schema";

export type Dossier = components["schemas"]["Dossier"];
export type Flow = components["schemas"]["Flow"];
export type Stage = components["schemas"]["Stage"];
export type Member = components["schemas"]["Member"];
export type Session = components["schemas"]["Session"];
export type Role = Member["role"];

let csrfToken: string | null = null;

/** The token GET /session and the sign-in answers give; null once signed out. */
export function setCsrfToken(token: string | null) {
  csrfToken = token;
}

const CHANGES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

const csrf: Middleware = {
  onRequest({ request }) {
    if (csrfToken && CHANGES.has(request.method)) request.headers.set("x-csrf-token", csrfToken);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: "same-origin" });
api.use(csrf);

/** An error answer of the API, with its code, message and the field at fault (api-v1 "Errors");
 * `words` is the same for people (ui/words.ts). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
  }
  get words(): string {
    return explain(this.code, this.message, this.param);
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a success, or an ApiFailure carrying the API's own words. */
export function unwrap<T>({ data, error, response }: Answer<T>): T {
  if (response.ok && data !== undefined) return data;
  const envelope = (error as { error?: { code?: string; message?: string; param?: string } } | undefined)?.error;
  throw new ApiFailure(response.status, envelope?.code ?? "unknown", envelope?.message ?? `the server answered ${response.status}`, envelope?.param ?? null);
}

/** Words for any failure, for the page: the API's refusals in people's words (ui/words.ts). */
export const messageOf = (error: unknown) =>
  error instanceof ApiFailure
    ? error.words
    : error instanceof Error
      ? "The server could not be reached. Check your connection and try again."
      : String(error);
