// Public surface of the export stage: streaming exports of a store (JSON Lines, CSV,
// XML, HTML, SQL, WARC), and the figures of `status`, shared with the report.
export {
  META_THRESHOLD,
  META_TOPIC_HISTORY,
  readAdaptation,
  readThresholdHistory,
  readTopicHistory,
} from './adaptation.js';
export {
  CHANGE_COLUMNS,
  type Column,
  type ColumnType,
  HISTORY_COLUMNS,
  LINK_COLUMNS,
  pageColumns,
  URL_COLUMNS,
} from './columns.js';
export { BOM, type Cell, CSV_EOL, csvField, csvRecord, type Json, jsonRecord } from './csv.js';
export {
  EXPORT_FORMATS,
  EXPORT_WHATS,
  type ExportFormat,
  type ExportOptions,
  type ExportOptionsInput,
  type ExportWhat,
  exportChunks,
  exportLines,
  exportOptionsSchema,
  exportStore,
  PAGE_STATES,
  pageText,
  type TextExportFormat,
  type TextExportOptionsInput,
} from './export.js';
export { formatStatus } from './format-status.js';
export { htmlEscape } from './html.js';
export {
  fieldsJson,
  flatRecordColumns,
  LIST_SEPARATOR,
  RECORD_COLUMNS,
  type RecordField,
  type RecordRow,
  recordRows,
} from './records.js';
export type { RevisitMeta, RevisitPlanStatus, RevisitStatus } from './revisit-status.js';
export { exportToFile, type FileSink, openFileSink } from './sink.js';
export { SQL_DIALECTS, type SqlDialect, sqlLiteral } from './sql.js';
export { gatherStatus, type RunInfo, type StatusData } from './status.js';
export { formatTable } from './table.js';
export { base32, sha1Digest, WARC_USER_AGENT } from './warc.js';
export { XML_SCHEMA_VERSION, xmlAttr, xmlClean, xmlText } from './xml.js';
