// A human-readable summary of a running test web, for the CLI.
import { getModel, PORTAL_HOST, SIZES } from './model.js';
import type { TestWeb } from './server.js';
import { TOPICS } from './topics.js';

export function describeTestWeb(web: TestWeb): string {
  const m = getModel(web.seed, web.size);
  const topical = new Set(m.hosts.map((h) => h.name));
  const special = web.hosts.filter((h) => !topical.has(h) && h !== PORTAL_HOST);
  const lines = [
    `focuscrawl test web listening on http://127.0.0.1:${web.port} (seed ${web.seed}, size ${web.size}, ${SIZES[web.size].pages} topical pages)`,
    `Crawl it with: --resolve '${web.resolve}'`,
    `Start page: http://${PORTAL_HOST}/   Labels: http://${PORTAL_HOST}/.well-known/focuscrawl/labels.json`,
    `Topical hosts (${m.hosts.length}):`,
  ];
  for (const h of m.hosts) {
    lines.push(`  ${h.name}  ${h.lang}  ${h.topic === null ? 'general' : TOPICS[h.topic].name}`);
  }
  lines.push(`Other hosts (${special.length}):`);
  for (let i = 0; i < special.length; i += 4) lines.push(`  ${special.slice(i, i + 4).join('  ')}`);
  return lines.join('\n');
}
