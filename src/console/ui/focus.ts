// The focus after a move to another page (issue 39, point 6): on the new page's first heading, as
// soon as the page draws it (a page that loads its data draws it a moment later). The first page
// of a visit keeps the browser's own focus.
import { useEffect, useRef } from "react";

/** How long a page may take to draw its heading before the focus is left where it is. */
const HEADING_WAIT_MS = 10_000;

export function useFocusHeading(location: string) {
  const main = useRef<HTMLElement>(null);
  // The page the focus was last placed for: the first page, and the same page drawn again, keep it.
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const before = shown.current;
    shown.current = location;
    if (before === null || before === location) return;
    const root = main.current;
    if (!root) return;
    const focus = () => {
      const heading = root.querySelector("h1");
      if (!heading) return false;
      heading.tabIndex = -1;
      heading.focus({ preventScroll: false });
      return true;
    };
    if (focus()) return;
    const observer = new MutationObserver(() => {
      if (focus()) stop();
    });
    const timer = setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    observer.observe(root, { childList: true, subtree: true });
    return stop;
  }, [location]);
  return main;
}
