import { Elysia } from "elysia";
import type { Context } from "../../context";
import type { Auth } from "../auth";

// Filled in by the links issue.
export const linkRoutes = (ctx: Context, auth: Auth) => new Elysia().use(auth);
