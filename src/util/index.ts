// Helpers shared by the stages above (export, report, evaluate, the command line):
// figures for people, the sampling of long series, why a file could not be read, the
// value a schema issue's path points at. Pure; imports nothing.
export { Decimator } from './decimator.js';
export { unreadableReason } from './files.js';
export { seededRandom } from './random.js';
export { formatBytes, formatCount, formatDuration, formatPercent, formatTime } from './units.js';
export { valueAt } from './values.js';
