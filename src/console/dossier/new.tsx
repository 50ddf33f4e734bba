// Screen 5 (C14): a new dossier: type, flow, fields, CV.
export function NewDossier() {
  return <h1>New dossier</h1>;
}
