// A person's avatar from their name: their initials on a colour chosen by the name, white on each
// colour at WCAG AA contrast (4.5:1 or more) in light and dark themes alike.
export const AVATAR_COLOURS = ["#0b57a8", "#17602e", "#a4161a", "#6b3fa0", "#8a4b08", "#0f6363", "#4f5863", "#9c1f6b"] as const;

/** The first letters of the first and last words of a name ("Ada Lovelace" → "AL"). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const first = [...words[0]][0] ?? "";
  const last = words.length > 1 ? ([...words[words.length - 1]][0] ?? "") : "";
  return (first + last).toUpperCase();
}

/** The same colour for the same name, every time. */
export function colourOf(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return AVATAR_COLOURS[hash % AVATAR_COLOURS.length];
}

/** `label` is what a screen reader says (e.g. "Assigned to Ada Lovelace"); the name by default;
 * "" for an avatar beside the name written out, which a screen reader then skips. */
export function Avatar({ name, label, size = "small" }: { name: string; label?: string; size?: "small" | "large" }) {
  if (label === "") {
    return (
      <span className={`avatar ${size}`} aria-hidden="true" style={{ backgroundColor: colourOf(name) }}>
        {initials(name)}
      </span>
    );
  }
  return (
    <span className={`avatar ${size}`} role="img" aria-label={label ?? name} title={label ?? name} style={{ backgroundColor: colourOf(name) }}>
      <span aria-hidden="true">{initials(name)}</span>
    </span>
  );
}
