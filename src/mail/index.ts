// Outgoing mail, reminders and digests (C22), engine-independent: no store, no HTTP, no job, no clock.
// How the pieces are meant to be called:
//   - at start, src/config.ts hands DOSSIER_SMTP_URL / DOSSIER_MAIL_FROM to `parseMailSettings` (null:
//     nothing is queued, and `serve` prints `mailStartupNotice(null)`: reminders go to the console only);
//   - in the transaction that causes a message, the service composes it with `composeReminder` or
//     `composeDigest` (null: no digest, but record the day) and stores the OutgoingMail (plain JSON)
//     as a queued row; the unsubscribe link is `unsubscribeUrl(base, memberId, key)`;
//   - the job runner records each attempt before connecting, calls `sender.send(mail)` outside any
//     transaction (`createMailSender(settings, { pool })`, one sender for the process), and records
//     `mailAttemptResult(outcome, attemptsMade, endedAt)`: sent, failed with the reply, or retry at;
//   - for digests, the runner asks `digestsDue(members, now, serverZone)` on its scan and sleeps until
//     `nextDigestWakeUp(...)`; "due that day" is `localDayRange(date, zone)`.
// The calendar feed is src/calendar/feed.ts.
export { composeDigest, composeReminder, digestSections, DIGEST_SECTION_LIMIT, type DigestInput, type MailLinks, type MailRecipient, type MailTask, type ReminderInput } from "./compose";
export { digestsDue, nextDigestWakeUp, type DigestMember, type DueDigest } from "./digest-plan";
export {
  addDays,
  checkTimeZone,
  DIGEST_TIME,
  digestSlot,
  dueDigest,
  InvalidTimeZoneError,
  isTimeZone,
  localDate,
  localDateTime,
  localDayRange,
  memberTimeZone,
  nextDigestAt,
  offsetAt,
  zonedInstant,
  type DigestSlot,
  type LocalDate,
  type LocalDateTime,
} from "./digest-time";
export { headerText, mailOptions, messageId, renderMail, unsubscribeLink, type OutgoingMail } from "./message";
export { MAIL_MAX_ATTEMPTS, MAIL_RETRY_SCHEDULE_MS, mailAttemptResult, nextMailAttemptAt, type MailAttemptResult } from "./schedule";
export { classifySendError, createMailSender, transportOptions, type MailSender, type SenderOptions, type SendOutcome, type SmtpErrorLike } from "./send";
export {
  DEFAULT_MAIL_TIMEOUTS,
  looksLikeEmail,
  mailStartupNotice,
  MailSettingsError,
  parseMailFrom,
  parseMailSettings,
  parseSmtpUrl,
  redact,
  senderDomain,
  type MailAddress,
  type MailEnv,
  type MailSettings,
  type MailTimeouts,
} from "./settings";
export { readUnsubscribeToken, unsubscribeToken, unsubscribeUrl } from "./unsubscribe";
