// The console's first page: the default flow's board, or the list of flows to choose from.
import { Redirect } from "wouter";
import { messageOf } from "../api/client";
import { useFlows } from "./queries";

export function Home() {
  const flows = useFlows();
  if (flows.isPending) return <p role="status">Loading the flows…</p>;
  if (flows.isError) return <p role="alert">{messageOf(flows.error)}</p>;
  const first = flows.data.find((flow) => flow.is_default) ?? flows.data[0];
  if (first) return <Redirect to={`/board/${first.id}`} replace />;
  return (
    <>
      <h1>No flows yet</h1>
      <p>An admin creates the flows dossiers move through.</p>
    </>
  );
}
