// Helpers shared by the stages above (export, report, evaluate, the command line):
// figures for people and the sampling of long series. Pure; imports nothing.
export { Decimator } from './decimator.js';
export { formatBytes, formatCount, formatDuration, formatPercent, formatTime } from './units.js';
