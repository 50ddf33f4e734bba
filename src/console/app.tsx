// Which screen a path shows. Signing in and the setup link are open; every other screen needs a
// session and sends to the sign-in page without one.
import { Redirect, Route, Router, Switch } from "wouter";
import { useSession } from "./api/session";
import { SetUpPassword } from "./auth/setup";
import { SignIn } from "./auth/sign-in";
import { Board } from "./board/board";
import { Home } from "./board/home";
import { Layout } from "./ui/layout";
import { Status } from "./ui/status";

export const BASE = "/console";

function SignedIn() {
  const session = useSession();
  if (session.isPending) return <Status>Loading…</Status>;
  if (session.isError) return <Status error>{session.error.message}</Status>;
  if (!session.data) return <Redirect to="/sign-in" replace />;
  return (
    <Layout>
      <Switch>
        <Route path="/">
          <Home />
        </Route>
        <Route path="/board/:flowId">{({ flowId }) => <Board flowId={flowId} />}</Route>
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
