import { Elysia } from "elysia";

const SAFE = /^[A-Za-z0-9._:-]{1,100}$/;

/** Every response carries X-Request-Id: the client's when it is safe (C3, C10), else a new one;
 * and X-Content-Type-Options, so that browsers take each answer as the type it declares (a CV as
 * a PDF, an error as JSON). Both go into the headers Elysia builds the answer with. */
export const requestId = new Elysia({ name: "request-id" }).onRequest(({ request, set }) => {
  const given = request.headers.get("x-request-id");
  set.headers["x-request-id"] = given && SAFE.test(given) ? given : crypto.randomUUID();
  set.headers["x-content-type-options"] = "nosniff";
});
