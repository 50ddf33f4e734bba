// The contact search and its caches are store code: src/db/contact-search.ts. This name stays
// only for test/http/answer-cache-switch.test.ts's import; it goes once that import moves.
export { cacheStats } from "../db/contact-search";
