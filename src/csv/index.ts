// CSV import and export (C21), engine-independent: no store, no HTTP, no job. The export route and
// `dossier export` write with `csvStream`/`csvChunks`; the import route checks the file with
// `inspectCsv` and the mapping with `parseMapping` + `checkMappingForMode` (or `guessMapping`),
// and the import job reads `readCsv` batch by batch (≤ 500 rows, resuming with `afterRow`), turning
// each batch into bodies with `mapBatch` for the services to validate and write. The route reads its
// form with `parseImportForm` and, once the file is inspected, `resolveMapping`; the job adds each
// batch's outcome to the Import's counts with `addBatch`.
export { ARRAY_FIELDS, CSV_RESOURCES, EXPORT_COLUMNS, IMPORT_FIELDS, NUMBER_FIELDS, READ_ONLY_FIELDS, type CsvResource } from "./columns";
export { CsvFileError, type CsvProblem, type CsvRowError } from "./errors";
export {
  checkMappingForMode,
  guessMapping,
  mapBatch,
  normalizeHeader,
  parseMapOption,
  parseMapping,
  readNumber,
  rowBody,
  type ImportMode,
  type ImportSettings,
  type Mapping,
  type MatchOn,
} from "./mapping";
export {
  CSV_BATCH_ROWS,
  CSV_LIMITS,
  IMPORT_FORM_LIMIT,
  inspectCsv,
  openCsv,
  readCsv,
  type CsvBatch,
  type CsvDelimiter,
  type CsvEncoding,
  type CsvInspection,
  type CsvLimits,
  type CsvRow,
  type CsvSource,
  type ReadOptions,
} from "./reader";
export { cellText, csvCell, csvChunks, csvHeader, csvLine, csvStream, CSV_CONTENT_TYPE, exportFilename, exportHeaders, resourceColumns, type CsvColumns } from "./writer";
export { importSettings, parseImportForm, resolveMapping, type ImportForm } from "./import-form";
export { addBatch, MAX_IMPORT_ERRORS, progressLine, startCounts, type BatchOutcome, type ImportCounts } from "./progress";
export { keysetBatches } from "./batches";
