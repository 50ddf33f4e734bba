import { messageOf } from "../api/client";

/** A refusal or failure in words, announced to screen readers: `message`, or else the words of
 * `error` (a query's or a mutation's, null while there is none); nothing when there is neither. */
export function Alert({ message, error }: { message?: string | null; error?: unknown }) {
  const words = message || (error ? messageOf(error) : null);
  if (!words) return null;
  return (
    <p className="error" role="alert">
      {words}
    </p>
  );
}
