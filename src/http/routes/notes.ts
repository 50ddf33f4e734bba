import { Elysia } from "elysia";
import type { Context } from "../../context";
import type { Auth } from "../auth";

// Filled in by the notes issue.
export const noteRoutes = (ctx: Context, auth: Auth) => new Elysia().use(auth);
