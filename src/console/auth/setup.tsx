// Screen 1 (C14): choosing a password from a setup link, `/console/setup#token=...` (C12). The
// token stays in the fragment, which no request carries; it is taken out of the address once used.
// The first start's owner link also sets the owner's email and name; an invitation already holds
// them, so the page asks only for the password (issue 39), and asks for email and name once the
// server says the link needs them (it refuses before using the link: the link stays good).
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { ApiFailure } from "../api/client";
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
  // Whether this is the first start's owner link, which needs an email and a name.
  const [first, setFirst] = useState(false);
  // The refusal that showed it, which is no error of the person's.
  const [asked, setAsked] = useState<unknown>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { token, password, ...(email ? { email } : {}), ...(name ? { name } : {}) };
    setUp.mutate(body, {
      onSuccess: () => navigate("/", { replace: true }),
      onError: (error) => {
        if (!first && error instanceof ApiFailure && error.code === "invalid_body" && (error.param === "email" || error.param === "name")) {
          setFirst(true);
          setAsked(error);
        }
      },
    });
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
        {first && (
          <p className="hint" role="alert">
            This is the link of Dossier's first start: give your email and name too, to make the owner's account.
          </p>
        )}
        <Alert error={setUp.error === asked ? null : setUp.error} />
        {first && (
          <>
            <label htmlFor="setup-email">Email</label>
            <input id="setup-email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
            <label htmlFor="setup-name">Your name</label>
            <input id="setup-name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
          </>
        )}
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
