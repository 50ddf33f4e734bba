// Screen 6 (C14): contacts: search, create.
export function Contacts() {
  return <h1>Contacts</h1>;
}
