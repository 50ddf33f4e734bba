// Screen 1 (C14): choosing a password from a setup link, `/console/setup#token=...` (C12). The
// token stays in the fragment, which no request carries; it is taken out of the address once used.
// The first start's owner link also sets the owner's email and name; other links ignore them.
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { useSetUpPassword } from "../api/session";
import { Alert } from "../ui/alert";

const tokenOf = (hash: string) => new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? "";

export function SetUpPassword() {
  const [token] = useState(() => tokenOf(window.location.hash));
  const setUp = useSetUpPassword();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { token, password, ...(email ? { email } : {}), ...(name ? { name } : {}) };
    setUp.mutate(body, { onSuccess: () => navigate("/", { replace: true }) });
  };
  if (!token) {
    return (
      <main className="auth">
        <h1>Set your password</h1>
        <p role="alert" className="error">
          This address holds no setup token. Open the whole link you were given, or ask an admin for a new one.
        </p>
      </main>
    );
  }
  return (
    <main className="auth">
      <h1>Set your password</h1>
      <form onSubmit={submit}>
        <Alert error={setUp.error} />
        <label htmlFor="setup-email">Email</label>
        <input id="setup-email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} aria-describedby="setup-first" />
        <label htmlFor="setup-name">Your name</label>
        <input id="setup-name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} aria-describedby="setup-first" />
        <p id="setup-first" className="hint">
          Email and name are asked for by the first start's owner link only; an invitation already holds them.
        </p>
        <label htmlFor="setup-password">New password</label>
        <input
          id="setup-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          maxLength={256}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby="setup-password-hint"
        />
        <p id="setup-password-hint" className="hint">
          10 to 256 characters.
        </p>
        <button type="submit" disabled={setUp.isPending}>
          Set password and sign in
        </button>
      </form>
    </main>
  );
}
