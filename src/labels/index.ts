// Ground-truth labels: the relevant URLs that `evaluate` measures a crawl against
// and that `topic learn` can learn from.
export { type LabelSet, type LabelsOptions, parseLabels, readLabelsFile } from './labels.js';
