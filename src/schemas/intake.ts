// Email intake (C15): a flow's intake address, and what POST /intake/{token} answers.
import { Type as t } from "@sinclair/typebox";

export const IntakeAddress = t.Object(
  {
    address: t.String({
      description: "Mail to this address becomes a dossier of the flow: a random token of 26 lower-case letters and digits at DOSSIER_INTAKE_DOMAIN",
    }),
  },
  { examples: [{ address: "7qk2m9x4c8v1b6n3z5p0r2t4wd@jobs.example.com" }] },
);

export const IntakeReceipt = t.Object(
  { id: t.String({ format: "uuid", description: "The dossier the message became (never the dossier itself: the sender holds no key)" }) },
  { examples: [{ id: "2f6d8a1c-4b3e-4d5f-9a7b-8c9d0e1f2a3b" }] },
);

export const RawMessage = t.String({
  format: "binary",
  description: "The raw message (RFC 5322), at most 25 MB (26,214,400 bytes)",
  examples: ["From: Jane Doe <jane@example.com>\r\nSubject: Application\r\nMessage-ID: <1@example.com>\r\n\r\nPlease find my CV attached.\r\n"],
});
