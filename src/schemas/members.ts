// Members and sessions (C12, C20): their records, bodies and answers. The services' types come from
// them (src/services/members.ts: `Member`).
import { Type as t } from "@sinclair/typebox";
import { closed, DateTime, Nullable, Uuid } from "./common";

export const MemberRole = t.Union([t.Literal("viewer"), t.Literal("member"), t.Literal("admin"), t.Literal("owner")], {
  description: "viewer: read; member: + write dossiers, contacts, notes; admin: + flows, members, keys, webhooks, events; owner: admin's, and only an owner makes, demotes or removes an owner",
});

const EXAMPLE = {
  id: "9b2f6a1e-8d4c-4f3b-9a7e-2c1d0e5f6a7b",
  organization_id: "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b",
  email: "ada@example.com",
  name: "Ada Lovelace",
  role: "admin",
  created_at: "2026-11-22T04:21:26.123Z",
  last_sign_in_at: null,
  disabled_at: null,
};

export const Member = t.Object(
  {
    id: Uuid,
    organization_id: Uuid,
    email: t.String({ description: "Unique in the installation, compared case-insensitively" }),
    name: t.String(),
    role: MemberRole,
    created_at: DateTime,
    last_sign_in_at: Nullable(DateTime),
    disabled_at: t.Union([DateTime, t.Null()], { description: "Set once the member is disabled (DELETE): it can no longer sign in" }),
  },
  { ...closed, examples: [EXAMPLE] },
);

export const SetupUrl = t.String({
  description: "<base>/console/setup#token=...: sets the member's password; valid 7 days and for one use, voids the member's older links",
  examples: ["https://dossier.example.com/console/setup#token=q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0"],
});

export const NewMember = t.Object(
  { ...Member.properties, setup_url: SetupUrl },
  { ...closed, examples: [{ ...EXAMPLE, setup_url: "https://dossier.example.com/console/setup#token=q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0" }] },
);

export const SetupLink = t.Object({ setup_url: SetupUrl }, closed);

export const CreateMember = t.Object(
  {
    email: t.String({ description: "An email address no member of the installation has (case-insensitively)" }),
    name: t.String({ description: "1 to 200 characters after trimming" }),
    role: MemberRole,
  },
  { ...closed, examples: [{ email: "ada@example.com", name: "Ada Lovelace", role: "member" }] },
);

export const PatchMember = t.Object(
  { name: t.Optional(t.String({ description: "1 to 200 characters after trimming" })), role: t.Optional(MemberRole) },
  { ...closed, examples: [{ role: "admin" }] },
);

const CSRF_TOKEN = t.String({ description: "Send it as X-CSRF-Token with every POST, PATCH, PUT and DELETE made with the session cookie" });

export const Session = t.Object(
  { member: Member, csrf_token: CSRF_TOKEN },
  { ...closed, examples: [{ member: Member.examples[0], csrf_token: "kW3nP0qXvB7yR2tF9sL4mC6hJ1dG8aZ5eU0iO3xN2bQ" }] },
);

export const SignIn = t.Object(
  { email: t.String(), password: t.String() },
  { ...closed, examples: [{ email: "ada@example.com", password: "correct horse battery staple" }] },
);

export const SetupPassword = t.Object(
  {
    token: t.String({ description: "The token of the setup link (after #token=)" }),
    password: t.String({ description: "10 to 256 characters" }),
    email: t.Optional(t.String({ description: "The owner's email: needed by the first start's owner link, ignored by the others" })),
    name: t.Optional(t.String({ description: "The owner's name: needed by the first start's owner link, ignored by the others" })),
  },
  { ...closed, examples: [{ token: "q3V8Y1m0bKf2XcJ5dN7rT9wZ4hL6pA8sE1uG3iO5kM0", password: "correct horse battery staple" }] },
);

export const SignedOut = t.Object({ signed_out: t.Literal(true) }, closed);

