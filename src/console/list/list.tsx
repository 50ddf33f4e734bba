// Screen 3 (C14): the dossiers as a list, with GET /dossiers's filters, its total and its pages.
export function DossierList() {
  return <h1>Dossiers</h1>;
}
