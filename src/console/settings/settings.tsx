// Screen 7 (C14): settings, for admins and owners: members, API keys, the webhook endpoint, flows
// and stages, the mail log (C22), each at its own address under /console/settings. Anyone else is told so and given
// no control (their role's scopes could not use one, C12).
import { Link, Redirect, Route, Switch, useLocation } from "wouter";
import { canManageSettings, useMember } from "../api/session";
import { FlowsSettings } from "./flows";
import { KeysSettings } from "./keys";
import { MailLogSettings } from "./mail-log";
import { MembersSettings } from "./members";
import { WebhookSettings } from "./webhook";

const SECTIONS = [
  { path: "/members", label: "Members" },
  { path: "/keys", label: "API keys" },
  { path: "/webhook", label: "Webhook" },
  { path: "/flows", label: "Flows and stages" },
  { path: "/mail", label: "Mail log" },
] as const;

export function Settings() {
  const member = useMember();
  const [location] = useLocation();
  if (!canManageSettings(member)) {
    return (
      <>
        <h1>Settings</h1>
        <p role="alert">Only admins see settings. Ask an admin or the owner of your organization for what you need.</p>
      </>
    );
  }
  return (
    <div className="settings">
      <nav aria-label="Settings" className="settings-nav">
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.path}>
              <Link href={section.path} aria-current={location === section.path ? "page" : undefined}>
                {section.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-body">
        <Switch>
          <Route path="/members">
            <MembersSettings />
          </Route>
          <Route path="/keys">
            <KeysSettings />
          </Route>
          <Route path="/webhook">
            <WebhookSettings />
          </Route>
          <Route path="/flows">
            <FlowsSettings />
          </Route>
          <Route path="/mail">
            <MailLogSettings />
          </Route>
          <Route path="/">
            <Redirect to="/members" replace />
          </Route>
          <Route>
            <h1>No such settings page</h1>
            <p>Pick a section from the list.</p>
          </Route>
        </Switch>
      </div>
    </div>
  );
}
