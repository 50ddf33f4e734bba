// Reading what a request carries, so that each check answers with C3's codes in C3's order:
// src/http/route.ts calls these after authentication and after loading the path's resource.
import type { Static, TObject, TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { ApiError, invalidBody, notFound } from "../errors";
import { isUuid } from "../ids";
import type { CursorPaging, PagedAnswer } from "../services/cursor";

const JSON_LIMIT = 1_048_576; // 1 MB (C8, C10)

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();
function checkerOf<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = TypeCompiler.Compile(schema)));
  return check as TypeCheck<T>;
}

/** Throws invalid_body naming the first problem, when `value` does not match `schema`. */
export function validate<T extends TSchema>(schema: T, value: unknown): Static<T> {
  const check = checkerOf(schema);
  if (check.Check(value)) return value;
  const first = check.Errors(value).First()!;
  // TypeBox points an extra property's error at the property itself (its path ends with the name).
  if (first.type === ValueErrorType.ObjectAdditionalProperties) {
    const field = fieldName(value, first.path);
    throw invalidBody(`unknown field "${field}"`, field);
  }
  if (first.type === ValueErrorType.ObjectRequiredProperty) {
    const field = fieldName(value, first.path);
    throw invalidBody(`${field} is required`, field);
  }
  const problem = explain(first.schema, first.value, first.path, first.message);
  const field = fieldName(value, problem.path);
  throw invalidBody(field ? `${field}: ${problem.message}` : problem.message, field || null);
}

/** A field as the client wrote it: `name`, `stages[2].color`, from TypeBox's JSON pointer. */
function fieldName(root: unknown, pointer: string): string {
  let name = "";
  let node = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    name += Array.isArray(node) ? `[${key}]` : name ? `.${key}` : key;
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  }
  return name;
}

/** What was expected where, in words. A union is TypeBox's "expected union value": an enum of
 * literals (and null) lists its allowed values; a nullable schema says what its non-null member
 * wants, at the place inside the value it failed (`kind[1]`), with "or null" added. */
function explain(schema: TSchema, value: unknown, path: string, message: string): { path: string; message: string } {
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as TSchema[]) : null;
  if (!members) return { path, message: sentenceCase(message) };
  const orNull = members.some((m) => m.type === "null") ? " or null" : "";
  const others = members.filter((m) => m.type !== "null");
  if (others.length > 0 && others.every((m) => m.const !== undefined)) {
    return { path, message: `must be one of ${others.map((m) => JSON.stringify(m.const)).join(", ")}${orNull}` };
  }
  // The member the value was meant for: the only one, or the only one of the value's JSON type
  // (`metadata`: an object of strings, or "").
  const meant = others.length === 1 ? others : others.filter((m) => m.type === jsonType(value));
  const inner = meant.length === 1 ? checkerOf(meant[0]).Errors(value).First() : undefined;
  if (!inner) return { path, message: sentenceCase(message) };
  const found = explain(inner.schema, inner.value, path + inner.path, inner.message);
  return { path: found.path, message: found.path === path ? `${found.message}${orNull}` : found.message };
}

/** A value's type as JSON Schema names it (a number is "number": an integer member is not told apart). */
const jsonType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** TypeBox's message with its first letter lowered, the rest (a pattern, a value) kept as is. */
const sentenceCase = (message: string) => message.charAt(0).toLowerCase() + message.slice(1);

/** C20: after its first period (the body timeout) a body must have come at least this fast on
 * average, 10 KB/s, or it is refused as stalled. */
const MIN_BODY_RATE = 10_240; // bytes per second
const DEFAULT_BODY_TIMEOUT_MS = 30_000;

interface Arrival {
  /** When the headers were read (performance.now()). */
  at: number;
  bodyTimeoutMs: number;
  /** The body has been read to its end. */
  bodyRead: boolean;
}
const arrivals = new WeakMap<Request, Arrival>();

/** Notes when a request's headers arrived, from which its body's deadline counts (C20). */
export function noteArrival(request: Request, bodyTimeoutMs: number) {
  arrivals.set(request, { at: performance.now(), bodyTimeoutMs, bodyRead: false });
}

/** Whether the request announces a body (a Content-Length above 0, or chunks). */
export function carriesBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return request.headers.has("transfer-encoding") || (length !== null && length.trim() !== "0");
}

/** Whether the client may still be sending a body this server has not read (createApp closes the
 * connection of such a request answered 401 or 408). */
export const hasUnreadBody = (request: Request) => !arrivals.get(request)?.bodyRead && carriesBody(request);

/** A small body (at most 64 KiB declared) that has already arrived whole, read and dropped: true
 * when it came within one turn of the event loop. A connection closed with unread bytes in its
 * receive buffer is reset, not closed, and a client that gets the reset before the answer never
 * sees the answer; so a refused request whose small body is here is answered on a connection
 * that stays open. A body still on its way is not waited for (false). */
export async function dropArrivedBody(request: Request): Promise<boolean> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (!(declared <= 65_536) || !request.body) return false;
  const read = request.arrayBuffer().then(
    () => true,
    () => false,
  );
  const turn = new Promise<boolean>((resolve) => setImmediate(() => resolve(false)));
  const arrived = await Promise.race([read, turn]);
  const arrival = arrivals.get(request);
  if (arrived && arrival) arrival.bodyRead = true;
  return arrived;
}

const requestTimeout = () => new ApiError("request_timeout", "the request body did not arrive in time");

const TIMED_OUT = Symbol("timed out");
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), TIMED_OUT)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads at most `limit` bytes of the body; throws `tooLarge` past it, before buffering more. A body
 * that stalls for the body timeout (from the headers, or from its last chunk), or that after that
 * first period has come slower than 10 KB/s on average, is refused with 408 (C20). */
export async function readBytes(request: Request, limit: number, tooLarge: () => ApiError): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge();
  const arrival = arrivals.get(request) ?? { at: performance.now(), bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS, bodyRead: false };
  if (!request.body) {
    arrival.bodyRead = true;
    return new Uint8Array();
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let last = arrival.at;
  try {
    for (;;) {
      const stalled = last + arrival.bodyTimeoutMs;
      const tooSlow = arrival.at + Math.max(arrival.bodyTimeoutMs, (size / MIN_BODY_RATE) * 1000);
      const next = await within(reader.read(), Math.min(stalled, tooSlow) - performance.now());
      if (next === TIMED_OUT) throw requestTimeout();
      if (next.done) break;
      last = performance.now();
      size += next.value.byteLength;
      if (size > limit) throw tooLarge();
      chunks.push(next.value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    if (error instanceof ApiError) throw error;
    // The client closed the connection before the end of its body, or sent a malformed chunked
    // body: a fault of the request, not of the server (found by fuzzing the wire).
    throw invalidBody("the body ended before it was complete");
  }
  arrival.bodyRead = true;
  return Buffer.concat(chunks);
}

const payloadTooLarge = () => new ApiError("payload_too_large", "the JSON body is larger than 1 MB");

function isJson(request: Request): boolean {
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  return type === "application/json";
}

/** The JSON body checked against `schema` (C3: not JSON, or no JSON Content-Type: 400). */
export async function readJson<T extends TSchema>(request: Request, schema: T): Promise<Static<T>> {
  if (!isJson(request)) throw invalidBody("the body must be JSON with Content-Type: application/json");
  const bytes = await readBytes(request, JSON_LIMIT, payloadTooLarge);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw invalidBody("the body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidBody("the body must be a JSON object");
  return validate(schema, value);
}

/** A path id that is not a UUID names no resource: 404, never 400 (C3). */
export function pathId(id: string): string {
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

export interface Paging {
  page: number;
  perPage: number;
}

/** The page a list asks for, from its query's `page` and `per_page` (schemas/common.ts). */
export const paging = (query: { page: number; per_page: number }): Paging => ({ page: query.page, perPage: query.per_page });

/** The page a list that takes `after` asks for (issue 38). `after` with `page` is 400 naming
 * `page`: the two name different positions, and answering either one would hide the other from a
 * client that meant it. `page` is told apart from its default by the query as sent. */
export function cursorPaging(query: { page: number; per_page: number; after?: string }, request: Request): CursorPaging {
  if (query.after === undefined) return paging(query);
  if (searchParams(request).has("page")) throw invalidBody("page: not with after; after names the position, page the offset: send one of them", "page");
  return { page: 1, perPage: query.per_page, after: query.after };
}

/** A page of a list that takes `after`: meta with next_after (null when no row follows). */
export const pagedAnswer = <T>({ data, total, next_after }: PagedAnswer<T>, p: CursorPaging) => ({
  data,
  meta: { total, page: p.page, per_page: p.perPage, next_after },
});

/** The query of the request. The server's URLs are absolute and carry no fragment, so the query is
 * all after the first "?": parsing that alone skips a whole URL parse per request. */
export function searchParams(request: Request): URLSearchParams {
  const { url } = request;
  const start = url.indexOf("?");
  return new URLSearchParams(start < 0 ? "" : url.slice(start + 1));
}

const INTEGER = /^\d+$/;

/** The query parameters `schema` declares, read from `params` (others are ignored), each checked
 * and converted by its schema: an enum (a union of literals), a uuid (lower-cased; a non-uuid is
 * 400 here, unlike a path id: C10), a boolean ("true" or "false"), an integer within its bounds (a
 * page beyond 2^53 - 1 is no integer JavaScript holds exactly, and its offset would overflow
 * SQLite's: 400 like any other bad page), or a plain string. An array parameter may repeat (absent:
 * []); any other takes its first value, and its default when absent. The first parameter of the
 * schema that fails is named in the invalid_body. */
export function parseQuery<T extends TObject>(schema: T, params: URLSearchParams): Static<T> {
  // Only the parameters given are looked up (a list declares a dozen, a request sends one or two:
  // issue 33's profile of the deep page), in the schema's order all the same.
  const given = new Set<string>();
  let bracketed = false;
  for (const name of params.keys()) {
    given.add(name);
    if (name.includes("[")) bracketed = true;
  }
  const query: Record<string, unknown> = {};
  for (const [name, property] of propertiesOf(schema)) {
    if (property.type === "object") {
      const pairs = bracketed || given.has(name) ? deepObject(name, params) : undefined;
      if (pairs !== undefined) query[name] = pairs;
      continue;
    }
    if (!given.has(name)) {
      if (property.type === "array") query[name] = [];
      else if (property.default !== undefined) query[name] = property.default;
      continue;
    }
    if (property.type === "array") query[name] = params.getAll(name).map((raw) => queryValue(name, property.items as TSchema, raw));
    else query[name] = queryValue(name, property, params.get(name)!);
  }
  return query as Static<T>;
}

/** A query schema's properties, listed once per schema. */
const propertyLists = new WeakMap<TObject, [string, TSchema][]>();
function propertiesOf(schema: TObject): [string, TSchema][] {
  let list = propertyLists.get(schema);
  if (!list) propertyLists.set(schema, (list = Object.entries(schema.properties as Record<string, TSchema>)));
  return list;
}

/** An object parameter in OpenAPI's deepObject style, `name[key]=value` (the lists' `metadata`
 * filter, issue 38): its pairs, or undefined when none is given. `name` alone, a key given twice
 * or `name[a][b]` is 400 naming the parameter. */
function deepObject(name: string, params: URLSearchParams): Record<string, string> | undefined {
  if (params.has(name)) throw invalidBody(`${name} must be given as ${name}[key]=value`, name);
  const pairs = new Map<string, string>();
  for (const [given, value] of params) {
    if (!given.startsWith(`${name}[`)) continue;
    const key = given.slice(name.length + 1, -1);
    if (!given.endsWith("]") || key.includes("[") || key.includes("]")) throw invalidBody(`${given}: must be ${name}[key]=value`, given);
    if (pairs.has(key)) throw invalidBody(`${given}: given more than once`, given);
    pairs.set(key, value);
  }
  // fromEntries makes each key an own property, `__proto__` too.
  return pairs.size === 0 ? undefined : Object.fromEntries(pairs);
}

function queryValue(name: string, schema: TSchema, raw: string): unknown {
  if (Array.isArray(schema.anyOf)) {
    const values = (schema.anyOf as TSchema[]).map((member) => String(member.const));
    if (!values.includes(raw)) throw invalidBody(`${name} must be one of ${values.join(", ")}`, name);
    return raw;
  }
  switch (schema.type) {
    case "boolean":
      if (raw === "true") return true;
      if (raw === "false") return false;
      throw invalidBody(`${name} must be true or false`, name);
    case "integer": {
      const min = (schema.minimum as number | undefined) ?? 0;
      const max = (schema.maximum as number | undefined) ?? Number.MAX_SAFE_INTEGER;
      const value = Number(raw);
      if (!INTEGER.test(raw) || value < min || value > max) throw invalidBody(`${name} must be an integer from ${min} to ${max}`, name);
      return value;
    }
    case "string":
      if (schema.format === "uuid") {
        if (!isUuid(raw)) throw invalidBody(`${name} must be a uuid`, name);
        return raw.toLowerCase();
      }
      return raw;
    default:
      throw new Error(`query parameter ${name}: no reading for its schema`);
  }
}

export const one = <T>(data: T) => ({ data });
export const page = <T>(data: T[], total: number, p: Paging) => ({ data, meta: { total, page: p.page, per_page: p.perPage } });
/** An unpaginated list: meta is {total: n, page: 1, per_page: n} (C3, C10). */
export const all = <T>(data: T[]) => ({ data, meta: { total: data.length, page: 1, per_page: data.length } });
