// Screen 6 (C14): one contact: detail with linked dossiers, edit, delete.
export function ContactPage({ id }: { id: string }) {
  return <h1>Contact {id}</h1>;
}
