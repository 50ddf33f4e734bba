// Moved to src/db/dossier-page.ts; kept for test/http/answer-cache-switch.test.ts's import until
// that test imports from there.
export { pageBoundaries } from "../db/dossier-page";
