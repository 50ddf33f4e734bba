// The signed-in member (GET /session) as a query: null when nobody is signed in. Signing in, setting
// a password from a setup link and signing out replace it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiFailure, unwrap, setCsrfToken, type Member, type Session } from "./client";

const SESSION = ["session"] as const;

async function currentSession(): Promise<Session | null> {
  const answer = await api.GET("/api/v1/session");
  if (answer.response.status === 401) return null;
  return unwrap(answer).data;
}

export function useSession() {
  return useQuery({
    queryKey: SESSION,
    queryFn: async () => {
      const session = await currentSession();
      setCsrfToken(session?.csrf_token ?? null);
      return session;
    },
    staleTime: Infinity,
    retry: false,
  });
}

/** The signed-in member; only under a screen that the app shows to a signed-in member. */
export function useMember(): Member {
  const { data } = useSession();
  if (!data) throw new ApiFailure(401, "unauthorized", "you are not signed in");
  return data.member;
}

/** Whether the member's role may change dossiers (C12: a viewer only reads). */
export const canWriteDossiers = (member: Member) => member.role !== "viewer";

/** Whether the member's role may open settings (C12: owners and admins). */
export const canManageSettings = (member: Member) => member.role === "owner" || member.role === "admin";

function useSignedIn() {
  const client = useQueryClient();
  return (session: Session) => {
    setCsrfToken(session.csrf_token);
    client.setQueryData(SESSION, session);
  };
}

export function useSignIn() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: async (body: { email: string; password: string }) => unwrap(await api.POST("/api/v1/session", { body })).data,
    onSuccess: signedIn,
  });
}

export function useSetUpPassword() {
  const signedIn = useSignedIn();
  return useMutation({
    mutationFn: async (body: { token: string; password: string; email?: string; name?: string }) =>
      unwrap(await api.POST("/api/v1/session/setup", { body })).data,
    onSuccess: signedIn,
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await api.DELETE("/api/v1/session")),
    onSuccess: () => {
      setCsrfToken(null);
      client.clear();
      client.setQueryData(SESSION, null);
    },
  });
}
