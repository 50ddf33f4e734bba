// C22: DOSSIER_SMTP_URL and DOSSIER_MAIL_FROM, read and checked at start.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { DEFAULT_MAIL_TIMEOUTS, looksLikeEmail, mailStartupNotice, MailSettingsError, parseMailFrom, parseMailSettings, parseSmtpUrl, redact } from "../../src/mail/settings";

setDefaultTimeout(120_000); // Bun keeps a timeout per test file (test/preload.ts)

describe("DOSSIER_SMTP_URL", () => {
  const rows: [string, ReturnType<typeof parseSmtpUrl>][] = [
    ["smtp://user:pass@mail.example.com:587", { host: "mail.example.com", port: 587, secure: false, starttls: "required", auth: { user: "user", pass: "pass" } }],
    ["smtp://user:pass@mail.example.com", { host: "mail.example.com", port: 587, secure: false, starttls: "required", auth: { user: "user", pass: "pass" } }],
    ["smtps://user:pass@mail.example.com:465", { host: "mail.example.com", port: 465, secure: true, starttls: "implicit", auth: { user: "user", pass: "pass" } }],
    ["smtps://mail.example.com", { host: "mail.example.com", port: 465, secure: true, starttls: "implicit", auth: null }],
    ["smtp://relay.internal:25", { host: "relay.internal", port: 25, secure: false, starttls: "opportunistic", auth: null }],
    ["SMTP://Mail.Example.com:2525/", { host: "Mail.Example.com", port: 2525, secure: false, starttls: "opportunistic", auth: null }],
    ["smtp://apikey:s%40cr%3At%2Fx@[::1]:587", { host: "::1", port: 587, secure: false, starttls: "required", auth: { user: "apikey", pass: "s@cr:t/x" } }],
    ["smtp://me%40example.com:pw@127.0.0.1:1025", { host: "127.0.0.1", port: 1025, secure: false, starttls: "required", auth: { user: "me@example.com", pass: "pw" } }], // credentials: never in the clear
    ["smtp://127.0.0.1:1025", { host: "127.0.0.1", port: 1025, secure: false, starttls: "opportunistic", auth: null }],
    ["smtp://user@mail.example.com", { host: "mail.example.com", port: 587, secure: false, starttls: "required", auth: { user: "user", pass: "" } }],
  ];
  for (const [url, expected] of rows) {
    test(`${url}`, () => expect(parseSmtpUrl(url)).toEqual(expected));
  }

  const bad: [string, RegExp][] = [
    ["mail.example.com:587", /scheme|expected/],
    ["http://mail.example.com", /smtp:\/\/ \(STARTTLS\) or smtps:\/\//],
    ["smtp://", /no host|expected/],
    ["smtp://mail.example.com:99999", /port|expected/],
    ["smtp://mail.example.com:0", /port/],
    ["smtp://mail.example.com/path", /path, query or fragment/],
    ["smtp://mail.example.com?secure=false", /path, query or fragment/],
    ["smtp://:secret@mail.example.com", /password without a user/],
    ["smtp://user:%E0%A4%A@mail.example.com", /percent-encoding/],
  ];
  for (const [url, message] of bad) {
    test(`refused: ${url}`, () => {
      expect(() => parseSmtpUrl(url)).toThrow(MailSettingsError);
      expect(() => parseSmtpUrl(url)).toThrow(message);
    });
  }

  test("a refusal does not print the password", () => {
    try {
      parseSmtpUrl("smtp://user:hunter2@mail.example.com/x");
      throw new Error("not refused");
    } catch (error) {
      expect(String(error)).not.toContain("hunter2");
      expect(String(error)).toContain("smtp://user:***@mail.example.com/x");
    }
    expect(redact("smtps://a:b@c:465")).toBe("smtps://a:***@c:465");
    expect(redact("smtp://c:25")).toBe("smtp://c:25");
  });
});

describe("DOSSIER_MAIL_FROM", () => {
  test("with and without a display name, non-ASCII names included", () => {
    expect(parseMailFrom("Dossier <dossier@example.com>")).toEqual({ name: "Dossier", address: "dossier@example.com" });
    expect(parseMailFrom("dossier@example.com")).toEqual({ name: null, address: "dossier@example.com" });
    expect(parseMailFrom('"Équipe Recrutement, Paris" <rh@example.fr>')).toEqual({ name: "Équipe Recrutement, Paris", address: "rh@example.fr" });
  });

  for (const text of ["", "dossier", "a@b", "a@b.com, c@d.com", "Dossier <>", "two@@example.com", "group: a@b.com;"]) {
    test(`refused: ${JSON.stringify(text)}`, () => expect(() => parseMailFrom(text)).toThrow(MailSettingsError));
  }

  test("C3's email rule", () => {
    expect(looksLikeEmail("a@b.co")).toBe(true);
    for (const no of ["a@b", "@b.co", "a@@b.co", "a b@c.co", "a@b.co.", "<a@b.co>"]) expect(looksLikeEmail(no)).toBe(false);
  });
});

describe("parseMailSettings", () => {
  test("no DOSSIER_SMTP_URL (or an empty one): no outgoing mail", () => {
    expect(parseMailSettings({})).toBeNull();
    expect(parseMailSettings({ DOSSIER_SMTP_URL: "  ", DOSSIER_MAIL_FROM: "a@b.co" })).toBeNull();
  });

  test("DOSSIER_SMTP_URL without DOSSIER_MAIL_FROM: refused, naming the missing setting", () => {
    expect(() => parseMailSettings({ DOSSIER_SMTP_URL: "smtp://mail.example.com" })).toThrow(/DOSSIER_MAIL_FROM is required/);
  });

  test("both: the whole settings, with default timeouts and no extra certificate", () => {
    expect(parseMailSettings({ DOSSIER_SMTP_URL: "smtps://u:p@mail.example.com", DOSSIER_MAIL_FROM: "Dossier <d@example.com>" })).toEqual({
      host: "mail.example.com",
      port: 465,
      secure: true,
      starttls: "implicit",
      auth: { user: "u", pass: "p" },
      from: { name: "Dossier", address: "d@example.com" },
      timeouts: DEFAULT_MAIL_TIMEOUTS,
      tls: { ca: null, servername: null },
    });
  });

  test("timeouts and a certificate authority can be handed in", () => {
    const settings = parseMailSettings({ DOSSIER_SMTP_URL: "smtp://h.example.com", DOSSIER_MAIL_FROM: "d@example.com" }, { timeouts: { greetingMs: 5 }, ca: "PEM" })!;
    expect(settings.timeouts).toEqual({ ...DEFAULT_MAIL_TIMEOUTS, greetingMs: 5 });
    expect(settings.tls.ca).toBe("PEM");
  });
});

describe("what serve says at start", () => {
  test("without DOSSIER_SMTP_URL: reminders go to the console only (C22)", () => {
    expect(mailStartupNotice(null)).toBe("outgoing mail is off (DOSSIER_SMTP_URL is not set): reminders go to the console only");
  });

  test("with it: where and how, never the password", () => {
    const notice = (url: string) => mailStartupNotice(parseMailSettings({ DOSSIER_SMTP_URL: url, DOSSIER_MAIL_FROM: "Dossier <d@example.com>" }));
    expect(notice("smtp://me%40example.com:hunter2@mail.example.com")).toBe("outgoing mail via smtp://me%40example.com:***@mail.example.com:587 (STARTTLS required) from Dossier <d@example.com>");
    expect(notice("smtps://u:hunter2@mail.example.com")).toBe("outgoing mail via smtps://u:***@mail.example.com:465 (TLS) from Dossier <d@example.com>");
    expect(notice("smtp://[::1]:25")).toBe("outgoing mail via smtp://[::1]:25 (STARTTLS when offered) from Dossier <d@example.com>");
  });
});
