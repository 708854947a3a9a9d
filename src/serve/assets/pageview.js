// The search box and the page view (one page: its score explained, links, fields, history).

import { api, itemsOf, readHref, withQuery } from './api.js';
import { $, count, fill, h, score, snippet, table, time } from './dom.js';
import { urlCell } from './tables.js';

/** Hits the search box asks for. */
const SEARCH_HITS = 20;

/** The search box: full-text hits (`/api/search`), each opening the page view. */
export class SearchBox {
  constructor(openPage) {
    this.openPage = openPage;
    $('search-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.run();
    });
  }

  async run() {
    const q = $('search-input').value.trim();
    const box = $('search-results');
    if (q === '') {
      fill(box);
      box.dataset.hits = '0';
      return;
    }
    box.setAttribute('aria-busy', 'true');
    try {
      const data = await api(withQuery('api/search', { q, limit: SEARCH_HITS }));
      const hits = itemsOf(data, 'hits');
      box.dataset.hits = String(hits.length);
      box.dataset.query = q;
      if (hits.length === 0) {
        fill(box, h('p', { class: 'empty' }, `No kept page contains “${q}”.`));
        return;
      }
      fill(
        box,
        h(
          'ol',
          { class: 'hits', 'data-testid': 'search-hits' },
          ...hits.map((x) =>
            h(
              'li',
              { 'data-url': x.url },
              urlCell(x.url, this.openPage, x.title || x.url),
              h(
                'span',
                { class: 'hit-figures' },
                ` relevance ${score(x.relevance)}`,
                x.score !== null && x.score !== undefined ? ` · P ${score(x.score)}` : '',
              ),
              typeof x.snippet === 'string'
                ? h('p', { class: 'snippet' }, snippet(x.snippet))
                : null,
            ),
          ),
        ),
      );
    } catch (e) {
      box.dataset.hits = '0';
      fill(box, h('p', { class: 'error' }, e.message));
    } finally {
      box.removeAttribute('aria-busy');
    }
  }
}

const dl = (pairs) =>
  h(
    'dl',
    { class: 'meta' },
    ...pairs
      .filter(([, v]) => v !== undefined)
      .flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v === null ? '—' : v)]),
  );

/**
 * Each keyword's share of the keyword model's relevance (DESIGN 1.1, relevance/vsm.ts):
 * with x_i = f_i / max f, relevance = Σ w_i²·x_i / (|w|·|w∘x|), so keyword i adds
 * w_i²·x_i / (|w|·|w∘x|). Null without counts.
 */
export function contributions(keywords) {
  if (keywords.some((k) => typeof k.count !== 'number')) return null;
  const fMax = Math.max(0, ...keywords.map((k) => k.count));
  if (fMax <= 0) return keywords.map(() => 0);
  let aa = 0;
  let bb = 0;
  for (const k of keywords) {
    const x = k.count / fMax;
    aa += k.weight * k.weight;
    bb += x * x * k.weight * k.weight;
  }
  if (aa === 0 || bb === 0) return keywords.map(() => 0);
  const norm = Math.sqrt(aa) * Math.sqrt(bb);
  return keywords.map((k) => (k.weight * k.weight * (k.count / fMax)) / norm);
}

/** Why the page has its relevance: the topic's keywords counted in its stored text. */
function explanation(ex, fallbackThreshold) {
  if (ex === null || ex === undefined) {
    return h('p', { class: 'empty' }, 'No explanation.');
  }
  const keywords = Array.isArray(ex.keywords) ? ex.keywords : [];
  const rel = ex.stored;
  const threshold = typeof ex.threshold === 'number' ? ex.threshold : fallbackThreshold;
  const verdict =
    typeof rel === 'number' && typeof threshold === 'number'
      ? rel >= threshold
        ? `kept: at or above the threshold ${score(threshold)}`
        : `discarded: below the threshold ${score(threshold)}`
      : null;
  const shares = contributions(keywords);
  const rows = keywords.map((k, i) => ({ ...k, share: shares === null ? null : shares[i] }));
  rows.sort((a, b) => (b.share ?? 0) - (a.share ?? 0) || b.weight - a.weight);
  const found = keywords.filter((k) => (k.count ?? 0) > 0).length;
  return h(
    'div',
    { 'data-testid': 'page-explanation' },
    h(
      'p',
      { class: 'score-line' },
      h('strong', {}, `relevance ${score(rel)}`),
      verdict !== null ? ` — ${verdict}` : '',
    ),
    shares === null
      ? null
      : h(
          'p',
          { class: 'score-line' },
          `${count(found)} of ${count(keywords.length)} keywords found in ${count(ex.textChars)} characters of text; `,
          `their counts give a relevance of ${score(ex.recomputed)} (the shares below add up to it).`,
        ),
    typeof ex.note === 'string' ? h('p', { class: 'note' }, ex.note) : null,
    rows.length === 0
      ? null
      : table(
          [
            { label: 'keyword', cell: (k) => k.word },
            { label: 'weight', num: true, cell: (k) => score(k.weight) },
            { label: 'count', num: true, cell: (k) => (k.count === null ? '—' : count(k.count)) },
            { label: 'share of the relevance', num: true, cell: (k) => score(k.share) },
          ],
          rows,
          { class: 'data compact', 'data-testid': 'page-keywords' },
        ),
  );
}

function linksTable(links, openPage) {
  if (links.length === 0) return h('p', { class: 'empty' }, 'None.');
  return table(
    [
      { label: 'URL', cell: (l) => urlCell(l.url, openPage) },
      { label: 'anchor', cell: (l) => l.anchor ?? '' },
      { label: 'state', cell: (l) => l.state ?? 'unknown' },
      { label: 'relevance', num: true, cell: (l) => score(l.relevance) },
    ],
    links,
    { class: 'data compact' },
  );
}

function fieldsList(fields) {
  if (fields.length === 0) return h('p', { class: 'empty' }, 'No field extracted.');
  return table(
    [
      { label: 'rule set', cell: (f) => f.ruleSet },
      { label: 'field', cell: (f) => (f.position > 0 ? `${f.field} [${f.position}]` : f.field) },
      { label: 'value', cell: (f) => f.value ?? '—' },
    ],
    fields,
    { class: 'data compact' },
  );
}

function historyTable(rows) {
  if (rows.length === 0) return h('p', { class: 'empty' }, 'Never fetched.');
  return table(
    [
      { label: 'fetched', cell: (r) => time(r.fetchedAt) },
      { label: 'state', cell: (r) => r.state },
      { label: 'HTTP', num: true, cell: (r) => (r.status === null ? '—' : String(r.status)) },
      { label: 'relevance', num: true, cell: (r) => score(r.relevance) },
      { label: 'attempt', num: true, cell: (r) => count(r.attempt) },
      { label: 'error / target', cell: (r) => r.error ?? r.location ?? '' },
    ],
    rows,
    { class: 'data compact' },
  );
}

function visitsTable(rows) {
  if (rows.length === 0) return h('p', { class: 'empty' }, 'Not revisited.');
  return table(
    [
      { label: 'at', cell: (r) => time(r.at) },
      { label: 'HTTP', num: true, cell: (r) => (r.status == null ? '—' : String(r.status)) },
      { label: 'change', cell: (r) => r.change ?? '' },
      { label: 'error', cell: (r) => r.error ?? '' },
    ],
    rows,
    { class: 'data compact' },
  );
}

/** The page view: a dialog filled from `/api/page?url=`. */
export class PageView {
  constructor(getThreshold) {
    this.getThreshold = getThreshold;
    this.dialog = $('page-view');
    $('page-close').addEventListener('click', () => this.close());
    this.dialog.addEventListener('close', () => {
      if (window.location.hash.startsWith('#page=')) {
        window.history.replaceState(null, '', window.location.pathname + window.location.search);
      }
    });
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  async open(url) {
    const body = $('page-body');
    $('page-url').textContent = url;
    this.dialog.dataset.url = url;
    this.dialog.dataset.loaded = 'false';
    fill(body, h('p', {}, 'Loading…'));
    if (!this.dialog.open) this.dialog.showModal();
    window.history.replaceState(null, '', `#page=${encodeURIComponent(url)}`);
    try {
      const d = await api(withQuery('api/page', { url }));
      if (this.dialog.dataset.url !== url) return;
      this.render(d, url);
      this.dialog.dataset.loaded = 'true';
    } catch (e) {
      fill(body, h('p', { class: 'error' }, e.message));
    }
  }

  render(d, url) {
    const rec = d.record ?? {};
    const open = (u) => this.open(u);
    const linksIn = d.links?.in ?? [];
    const linksOut = d.links?.out ?? [];
    const history = d.history ?? [];
    fill(
      $('page-body'),
      h('h3', {}, rec.title || '(no title)'),
      h(
        'p',
        { class: 'page-links' },
        h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, 'open the page ↗'),
        ' · ',
        h(
          'a',
          { href: readHref('api/page/body', { url }), target: '_blank', rel: 'noopener' },
          'the stored body',
        ),
      ),
      dl([
        ['state', d.state ?? null],
        ['relevance', score(rec.relevance ?? d.relevance?.stored)],
        ['final score P', score(rec.rank)],
        ['host', rec.host ?? null],
        ['depth', count(rec.depth ?? history.at(-1)?.depth)],
        ['HTTP status', rec.status == null ? null : String(rec.status)],
        ['fetched', time(rec.fetchedAt)],
      ]),
      h('h4', {}, 'Why this score'),
      explanation(d.relevance, this.getThreshold()),
      h(
        'h4',
        {},
        `Links in (${count(linksIn.length)}${linksIn.length >= 100 ? ', the first' : ''})`,
      ),
      linksTable(linksIn, open),
      h(
        'h4',
        {},
        `Links out (${count(linksOut.length)}${linksOut.length >= 100 ? ', the first' : ''})`,
      ),
      linksTable(linksOut, open),
      h('h4', {}, 'Extracted fields'),
      fieldsList(d.fields ?? []),
      h('h4', {}, 'Fetches'),
      historyTable(history),
      h('h4', {}, 'Revisits'),
      visitsTable(d.visits ?? []),
    );
  }
}
