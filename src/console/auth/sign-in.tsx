// Screen 1 (C14): signing in with email and password. A refusal is shown above the fields in the
// API's words, and what was typed stays.
import { useState, type FormEvent } from "react";
import { Redirect, useLocation } from "wouter";
import { messageOf } from "../api/client";
import { useSession, useSignIn } from "../api/session";

export function SignIn() {
  const session = useSession();
  const signIn = useSignIn();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  if (session.data) return <Redirect to="/" replace />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password }, { onSuccess: () => navigate("/", { replace: true }) });
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
