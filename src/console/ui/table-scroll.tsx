import type { ReactNode } from "react";

/** A wide table's box, which scrolls sideways on a narrow screen (issue 39) rather than the page;
 * it takes the focus so that the keyboard can scroll it too, and is named by `label`. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
