// Messages as mail programs write them, built by nodemailer's composer (the MIME structure,
// encodings and RFC 2047 headers a real client produces), for the intake tests.
import MailComposer from "nodemailer/lib/mail-composer";
import type Mail from "nodemailer/lib/mailer";

export async function compose(options: Mail.Options): Promise<Uint8Array> {
  const raw = await new MailComposer({ date: new Date("2026-11-27T09:00:00Z"), ...options }).compile().build();
  return new Uint8Array(raw);
}

/** A small valid-looking PDF of about `size` bytes. */
export function pdf(size = 1_000): Uint8Array {
  const head = new TextEncoder().encode("%PDF-1.7\n");
  const bytes = new Uint8Array(Math.max(size, head.length + 6));
  bytes.fill(0x20);
  bytes.set(head, 0);
  bytes.set(new TextEncoder().encode("%%EOF\n"), bytes.length - 6);
  return bytes;
}
