import { Elysia } from "elysia";
import type { Context } from "../../context";
import type { Auth } from "../auth";

// Filled in by the contacts issue.
export const contactRoutes = (ctx: Context, auth: Auth) => new Elysia().use(auth);
