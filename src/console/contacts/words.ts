// The words the contacts screens show for the API's values.
import type { ContactKind } from "./types";

export const capitalizedKind = (kind: ContactKind) => kind.charAt(0).toUpperCase() + kind.slice(1);

export const POOL_WORDS = { in_pool: "In the talent pool", expired: "Pool window passed" } as const;
