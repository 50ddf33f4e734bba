// Screen 7 (C14): settings, for admins: members, API keys, the webhook endpoint, flows and stages.
export function Settings() {
  return <h1>Settings</h1>;
}
