// Public surface of the export stage: streaming JSON Lines / CSV exports of a store,
// and the figures of `status`, shared with the report.
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
  HISTORY_COLUMNS,
  LINK_COLUMNS,
  pageColumns,
  URL_COLUMNS,
} from './columns.js';
export { BOM, type Cell, CSV_EOL, csvField, csvRecord, jsonRecord } from './csv.js';
export {
  EXPORT_FORMATS,
  EXPORT_WHATS,
  type ExportFormat,
  type ExportOptions,
  type ExportOptionsInput,
  type ExportWhat,
  exportLines,
  exportOptionsSchema,
  exportStore,
  pageText,
} from './export.js';
export { formatStatus } from './format-status.js';
export type { RevisitMeta, RevisitPlanStatus, RevisitStatus } from './revisit-status.js';
export { exportToFile, type FileSink, openFileSink } from './sink.js';
export { gatherStatus, type RunInfo, type StatusData } from './status.js';
export { formatTable } from './table.js';
