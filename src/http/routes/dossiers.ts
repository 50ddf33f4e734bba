import { Elysia } from "elysia";
import type { Context } from "../../context";
import type { Auth } from "../auth";

// Filled in by the dossiers issue.
export const dossierRoutes = (ctx: Context, auth: Auth) => new Elysia().use(auth);
