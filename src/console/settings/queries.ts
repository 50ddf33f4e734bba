// The settings' data (C13): members, API keys, the webhook endpoint and its delivery log, flows and
// stages. Each change refreshes what it touched, the board's flows and member names included.
import { useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { api, ApiFailure, unwrap } from "../api/client";
import type { DeliveryStatus, FlowType, Role, Scope } from "./types";

const MEMBERS = ["settings", "members"] as const;
const KEYS = ["settings", "keys"] as const;
const ENDPOINT = ["settings", "webhook-endpoint"] as const;
const DELIVERIES = ["settings", "deliveries"] as const;
/** How often the webhook screen reads the endpoint's state and the delivery log again. */
const LOG_REFRESH_MS = 3000;
// The board's queries (board/queries.ts) of the same data: they follow every change made here.
const BOARD_MEMBERS = ["members"] as const;
const FLOWS = ["flows"] as const;
// The signed-in member (api/session.ts): changing one's own role changes what the console shows.
const SESSION = ["session"] as const;

/** A mutation that refreshes `keys` once it succeeded. */
function useChange<In, Out>(keys: QueryKey[], run: (input: In) => Promise<Out>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

// ---- Members (C12)

export function useMembers() {
  return useQuery({ queryKey: MEMBERS, queryFn: async () => unwrap(await api.GET("/api/v1/members")).data });
}

export const useInvite = () =>
  useChange([MEMBERS, BOARD_MEMBERS], async (body: { email: string; name: string; role: Role }) => unwrap(await api.POST("/api/v1/members", { body })).data);

export const useChangeRole = () =>
  useChange([MEMBERS, SESSION], async ({ id, role }: { id: string; role: Role }) =>
    unwrap(await api.PATCH("/api/v1/members/{id}", { params: { path: { id } }, body: { role } })).data,
  );

export const useDisableMember = () =>
  useChange([MEMBERS], async (id: string) => unwrap(await api.DELETE("/api/v1/members/{id}", { params: { path: { id } } })).data);

export const useNewSetupLink = () =>
  useChange([], async (id: string) => unwrap(await api.POST("/api/v1/members/{id}/setup-link", { params: { path: { id } } })).data);

// ---- API keys (C13)

export function useKeys() {
  return useQuery({ queryKey: KEYS, queryFn: async () => unwrap(await api.GET("/api/v1/keys")).data });
}

export const useCreateKey = () =>
  useChange([KEYS], async (body: { scopes: Scope[]; name?: string; expires_at?: string }) => unwrap(await api.POST("/api/v1/keys", { body })).data);

export const useRevokeKey = () => useChange([KEYS], async (id: string) => unwrap(await api.DELETE("/api/v1/keys/{id}", { params: { path: { id } } })).data);

// ---- The webhook endpoint and its deliveries (C7, C13)

/** The endpoint, or null when none is set (the API answers 404). */
export function useEndpoint() {
  return useQuery({
    queryKey: ENDPOINT,
    // The server disables the endpoint itself when the receiver answers 410 Gone (C7): the page
    // reads its state again as often as the delivery log's (issue 39, point 4).
    refetchInterval: LOG_REFRESH_MS,
    refetchOnWindowFocus: true,
    queryFn: async () => {
      try {
        return unwrap(await api.GET("/api/v1/webhook-endpoint")).data;
      } catch (error) {
        if (error instanceof ApiFailure && error.status === 404) return null;
        throw error;
      }
    },
  });
}

export const useSetEndpoint = () =>
  useChange([ENDPOINT], async (url: string) => unwrap(await api.PUT("/api/v1/webhook-endpoint", { body: { url } })).data);

export const useRemoveEndpoint = () => useChange([ENDPOINT], async () => unwrap(await api.DELETE("/api/v1/webhook-endpoint")).data);

export const useRotateSecret = () => useChange([], async () => unwrap(await api.POST("/api/v1/webhook-endpoint/rotate-secret")).data);

export const DELIVERY_PAGE = 20;
// The log changes while the page is open (the dispatcher sends and retries in the background).

export function useDeliveries(page: number, status: DeliveryStatus | undefined) {
  return useQuery({
    queryKey: [...DELIVERIES, page, status ?? "all"],
    queryFn: async () => unwrap(await api.GET("/api/v1/webhook-deliveries", { params: { query: { page, per_page: DELIVERY_PAGE, status } } })),
    refetchInterval: LOG_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
}

/** One delivery with its attempts. */
export function useDelivery(eventId: string) {
  return useQuery({
    queryKey: [...DELIVERIES, "one", eventId],
    queryFn: async () => unwrap(await api.GET("/api/v1/webhook-deliveries/{event_id}", { params: { path: { event_id: eventId } } })).data,
    refetchInterval: LOG_REFRESH_MS,
  });
}

/** Sends a failed delivery again; the log and the endpoint's state are read again either way (a
 * retry refused because the endpoint was disabled meanwhile shows why). */
export function useRetryDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (eventId: string) =>
      unwrap(await api.POST("/api/v1/webhook-deliveries/{event_id}/retry", { params: { path: { event_id: eventId } } })).data,
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: DELIVERIES }), client.invalidateQueries({ queryKey: ENDPOINT })]),
  });
}

// ---- Flows and stages (C4, C13); the list is the board's useFlows.

export const useCreateFlow = () =>
  useChange([FLOWS], async (body: { type: FlowType; name: string; stages: { name: string }[] }) => unwrap(await api.POST("/api/v1/flows", { body })).data);

export const usePatchFlow = () =>
  useChange([FLOWS], async ({ id, ...body }: { id: string; name?: string; is_default?: boolean }) =>
    unwrap(await api.PATCH("/api/v1/flows/{id}", { params: { path: { id } }, body })).data,
  );

export const useAddStage = () =>
  useChange([FLOWS], async ({ flowId, name }: { flowId: string; name: string }) =>
    unwrap(await api.POST("/api/v1/flows/{id}/stages", { params: { path: { id: flowId } }, body: { name } })).data,
  );

export const usePatchStage = () =>
  useChange([FLOWS], async ({ id, ...body }: { id: string; name?: string; position?: number; deadline_days?: number | null; win_probability?: number; color?: string }) =>
    unwrap(await api.PATCH("/api/v1/stages/{id}", { params: { path: { id } }, body })).data,
  );

export const useDeleteStage = () => useChange([FLOWS], async (id: string) => unwrap(await api.DELETE("/api/v1/stages/{id}", { params: { path: { id } } })).data);
