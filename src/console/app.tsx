// Which screen a path shows. Signing in and the setup link are open; every other screen needs a
// session and sends to the sign-in page without one.
import { Redirect, Route, Router, Switch } from "wouter";
import { messageOf } from "./api/client";
import { useSession } from "./api/session";
import { SetUpPassword } from "./auth/setup";
import { SignIn } from "./auth/sign-in";
import { Board } from "./board/board";
import { Home } from "./board/home";
import { ContactPage } from "./contacts/contact";
import { Contacts } from "./contacts/contacts";
import { NewDossier } from "./dossier/new";
import { Imports } from "./imports/imports";
import { DossierPage } from "./dossier/page";
import { DossierList } from "./list/list";
import { Settings } from "./settings/settings";
import { MySettings } from "./tasks/my-settings";
import { MyTasks } from "./tasks/my-tasks";
import { Layout } from "./ui/layout";
import { Status } from "./ui/status";

export const BASE = "/console";

/** The sign-in page, with the page that was being opened to return to after it (issue 39). */
export function signInFor(pathname: string, search: string): string {
  const here = (pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname) + search;
  return here === "" || here === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(here)}`;
}

function SignedIn() {
  const session = useSession();
  if (session.isPending) return <Status>Loading…</Status>;
  if (session.isError) return <Status error>{messageOf(session.error)}</Status>;
  if (!session.data) return <Redirect to={signInFor(window.location.pathname, window.location.search)} replace />;
  return (
    <Layout>
      <Switch>
        <Route path="/">
          <Home />
        </Route>
        <Route path="/board/:flowId">{({ flowId }) => <Board flowId={flowId} />}</Route>
        <Route path="/dossiers">
          <DossierList />
        </Route>
        <Route path="/dossiers/new">
          <NewDossier />
        </Route>
        <Route path="/dossiers/:id">{({ id }) => <DossierPage id={id} key={id} />}</Route>
        <Route path="/contacts">
          <Contacts />
        </Route>
        <Route path="/contacts/:id">{({ id }) => <ContactPage id={id} key={id} />}</Route>
        <Route path="/tasks">
          <MyTasks />
        </Route>
        <Route path="/me">
          <MySettings />
        </Route>
        <Route path="/imports">
          <Imports />
        </Route>
        <Route path="/settings" nest>
          <Settings />
        </Route>
        <Route>
          <h1>No such page</h1>
          <p>This address shows nothing in the console.</p>
        </Route>
      </Switch>
    </Layout>
  );
}

export function App() {
  return (
    <Router base={BASE}>
      <Switch>
        <Route path="/sign-in">
          <SignIn />
        </Route>
        <Route path="/setup">
          <SetUpPassword />
        </Route>
        <Route>
          <SignedIn />
        </Route>
      </Switch>
    </Router>
  );
}
