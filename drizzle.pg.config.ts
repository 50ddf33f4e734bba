// drizzle-kit for the PostgreSQL side (C19): npm run db:generate:pg writes drizzle-pg/ from
// src/db/pg/schema.ts, as drizzle.config.ts does drizzle/ from src/db/schema.ts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/pg/schema.ts",
  out: "./drizzle-pg",
});
