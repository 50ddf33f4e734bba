// The API's shapes this folder uses, named once (from the generated schema only, so that tests
// may import them outside the browser's types).
import type { components, operations } from "../api/schema";

export type Dossier = components["schemas"]["Dossier"];
export type Flow = components["schemas"]["Flow"];
export type Member = components["schemas"]["Member"];
export type Note = components["schemas"]["Note"];
export type Contact = components["schemas"]["Contact"];
export type LinkedContact = components["schemas"]["LinkedContact"];
export type LinkRole = components["schemas"]["LinkRole"];
export type DossierType = components["schemas"]["DossierType"];
export type DossierStatus = components["schemas"]["DossierStatus"];
export type PatchDossier = components["schemas"]["PatchDossier"];
export type CreateDossierForm = components["schemas"]["CreateDossierForm"];
type HistoryAnswer = operations["getDossierHistory"]["responses"][200]["content"]["application/json"];
export type HistoryEntry = HistoryAnswer["data"][number];
export type StageStay = HistoryAnswer["meta"]["stages"][number];
export type History = HistoryAnswer;
