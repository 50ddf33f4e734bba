// "My settings" (C22): the member's time zone (their digest comes at 08:00 there), the morning
// digest on or off, and a private calendar link, shown once.
import { useState, type FormEvent } from "react";
import { Alert } from "../ui/alert";
import { errorFor, Field } from "../ui/field";
import { useMySettings, useNewCalendarLink, useSaveMySettings } from "./queries";

const ZONES: string[] = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];

export function MySettings() {
  const settings = useMySettings();
  // Here, not in the form: a saved change gives the form new values (a new key), and "Saved." stays.
  const save = useSaveMySettings();
  return (
    <>
      <title>My settings · Dossier</title>
      <h1>My settings</h1>
      {settings.isPending && <p role="status">Loading your settings…</p>}
      <Alert error={settings.error} />
      {settings.data && <DigestForm key={`${settings.data.time_zone}|${settings.data.digest}`} save={save} zone={settings.data.time_zone} digest={settings.data.digest} used={settings.data.effective_time_zone} />}
      {settings.data && <CalendarLink hasOne={settings.data.calendar_link} />}
    </>
  );
}

function DigestForm({ save, zone, digest, used }: { save: ReturnType<typeof useSaveMySettings>; zone: string | null; digest: boolean; used: string }) {
  const [timeZone, setTimeZone] = useState(zone ?? "");
  const [wanted, setWanted] = useState(digest);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ time_zone: timeZone.trim() === "" ? null : timeZone.trim(), digest: wanted });
  };
  return (
    <section aria-labelledby="digest-heading">
      <h2 id="digest-heading">Morning digest</h2>
      <form aria-label="Morning digest" onSubmit={submit} noValidate>
        <Field label="Time zone" hint={`Empty: the server's (${used} now). Your digest comes at 08:00 in this zone.`} error={errorFor(save.error, "time_zone", ["time_zone"])}>
          {(control) => (
            <>
              <input {...control} list="time-zones" value={timeZone} placeholder={used} onChange={(event) => setTimeZone(event.target.value)} />
              <datalist id="time-zones">
                {ZONES.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <label className="check">
          <input type="checkbox" checked={wanted} onChange={(event) => setWanted(event.target.checked)} /> Email me a digest of my tasks due and overdue each morning
        </label>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
        {save.isSuccess && <p role="status">Saved.</p>}
      </form>
    </section>
  );
}

function CalendarLink({ hasOne }: { hasOne: boolean }) {
  const make = useNewCalendarLink();
  return (
    <section aria-labelledby="calendar-heading">
      <h2 id="calendar-heading">Calendar</h2>
      <p>
        Subscribe to your open tasks with a due date in Google Calendar, Apple Calendar or Outlook. The link is private: anyone who has it reads your tasks.
        {hasOne && " Making a new link stops the old one."}
      </p>
      {make.data && (
        <Field label="Your calendar link" hint="Shown this once: copy it into your calendar app now.">
          {(control) => <input {...control} readOnly value={make.data} onFocus={(event) => event.target.select()} />}
        </Field>
      )}
      <Alert error={make.error} />
      <button type="button" onClick={() => make.mutate()} disabled={make.isPending}>
        {hasOne ? "Make a new calendar link" : "Make a calendar link"}
      </button>
    </section>
  );
}
