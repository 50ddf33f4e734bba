// Screen 1 (C14): signing in with email and password. A refusal is shown above the fields in
// words, and what was typed stays. Signed in, the page goes on to the console page that was being
// opened (`?next=`, issue 39), or to the board.
import { useState, type FormEvent } from "react";
import { Redirect, useLocation, useSearchParams } from "wouter";
import { messageOf } from "../api/client";
import { useSession, useSignIn } from "../api/session";

export function SignIn() {
  const session = useSession();
  const signIn = useSignIn();
  const [, navigate] = useLocation();
  const [params] = useSearchParams();
  const next = nextPage(params.get("next"));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  if (session.data) return <Redirect to={next} replace />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password }, { onSuccess: () => navigate(next, { replace: true }) });
  };
  return (
    <main className="auth">
      <h1>Sign in to Dossier</h1>
      <form onSubmit={submit} aria-describedby={signIn.isError ? "sign-in-error" : undefined}>
        {signIn.isError && (
          <p id="sign-in-error" className="error" role="alert">
            {messageOf(signIn.error)}
          </p>
        )}
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit" disabled={signIn.isPending}>
          Sign in
        </button>
      </form>
    </main>
  );
}

/** A console page to go on to: a path of this console only (never another site, nor signing in
 * again); the board otherwise. */
export function nextPage(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return "/";
  if (next.startsWith("/sign-in") || next.startsWith("/setup")) return "/";
  return next;
}
