import type { ReactNode } from "react";

/** A whole-page state (loading, or a failure in words). */
export function Status({ children, error = false }: { children: ReactNode; error?: boolean }) {
  return (
    <main className="status">
      <p role={error ? "alert" : "status"}>{children}</p>
    </main>
  );
}
