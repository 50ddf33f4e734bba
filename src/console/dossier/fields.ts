// The dossier's text fields as both the new-dossier form and the dossier page show them: one list,
// so that a field added to the API is added to both screens at once.
export type TextName = "name" | "email" | "phone" | "company" | "role" | "contact_person" | "deal_size" | "deal_currency" | "intake_notes";

export interface TextField {
  name: TextName;
  label: string;
  type?: "email" | "tel";
  multiline?: boolean;
  numeric?: boolean;
  hint?: string;
  salesOnly?: boolean;
}

export const TEXT_FIELDS: TextField[] = [
  { name: "name", label: "Name", hint: "The person's name, or for sales the deal's or account's." },
  { name: "email", label: "Email", type: "email" },
  { name: "phone", label: "Phone", type: "tel" },
  { name: "company", label: "Company" },
  { name: "role", label: "Role" },
  { name: "contact_person", label: "Contact person", salesOnly: true },
  { name: "deal_size", label: "Deal size", numeric: true, hint: "In the main unit of the currency, e.g. 12500.50", salesOnly: true },
  { name: "deal_currency", label: "Currency", hint: "ISO 4217 code, e.g. EUR", salesOnly: true },
  { name: "intake_notes", label: "Intake notes", multiline: true },
];
