// The console's entry: one query cache, the router under /console, the screens.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { ApiFailure } from "./api/client";
import { App } from "./app";

// A 401 from any call means the session is gone (ended elsewhere, expired, the member disabled):
// forgetting it sends the page to signing in.
const onError = (error: unknown) => {
  if (error instanceof ApiFailure && error.status === 401) client.setQueryData(["session"], null);
};

const client: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
