// The frame of every signed-in screen: the product's name, the flows' boards, who is signed in,
// and signing out. It wraps onto more lines on a narrow screen, Sign out always in view (issue 39).
// After a move to another page, the focus goes to that page's heading, so that a keyboard or a
// screen reader starts there and not at the top of the document.
import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { messageOf } from "../api/client";
import { canManageSettings, useMember, useSignOut } from "../api/session";
import { useFlows } from "../board/queries";
import { Avatar } from "./avatar";
import { useFocusHeading } from "./focus";

export function Layout({ children }: { children: ReactNode }) {
  const member = useMember();
  const signOut = useSignOut();
  const flows = useFlows();
  const [location, navigate] = useLocation();
  const main = useFocusHeading(location);
  return (
    <div className="shell">
      <a className="skip" href="#content">
        Skip to content
      </a>
      <header className="top">
        <Link href="/" className="brand">
          Dossier
        </Link>
        <nav aria-label="Sections">
          <ul>
            <li>
              <Link href="/dossiers" aria-current={location === "/dossiers" ? "page" : undefined}>
                Dossiers
              </Link>
            </li>
            <li>
              <Link href="/contacts" aria-current={location === "/contacts" ? "page" : undefined}>
                Contacts
              </Link>
            </li>
            <li>
              <Link href="/tasks" aria-current={location === "/tasks" ? "page" : undefined}>
                My tasks
              </Link>
            </li>
            <li>
              <Link href="/imports" aria-current={location === "/imports" ? "page" : undefined}>
                Import
              </Link>
            </li>
            {canManageSettings(member) && (
              <li>
                <Link href="/settings" aria-current={location.startsWith("/settings") ? "page" : undefined}>
                  Settings
                </Link>
              </li>
            )}
          </ul>
        </nav>
        <nav aria-label="Boards">
          <ul>
            {flows.data?.map((flow) => (
              <li key={flow.id}>
                <Link href={`/board/${flow.id}`} aria-current={location === `/board/${flow.id}` ? "page" : undefined}>
                  {flow.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <Avatar name={member.name} label="" />
          <span className="who-name">
            {member.name} <span className="role">({member.role})</span>
          </span>
          <Link href="/me" aria-current={location === "/me" ? "page" : undefined}>
            My settings
          </Link>
          <button type="button" className="quiet" onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate("/sign-in") })} disabled={signOut.isPending}>
            Sign out
          </button>
          {signOut.isError && <span role="alert">{messageOf(signOut.error)}</span>}
        </div>
      </header>
      <main id="content" tabIndex={-1} ref={main}>
        {children}
      </main>
    </div>
  );
}
