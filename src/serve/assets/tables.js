// The dashboard's tables: pages (filters, sort, cursor paging), hosts and the frontier.

import { api, itemsOf, withQuery } from './api.js';
import { $, bytes, count, fill, h, percent, score, table, time } from './dom.js';

/** Rows of one page of the pages table (the API's default; first paint loads one such page). */
export const PAGE_ROWS = 50;

const STATE_LABELS = {
  complete: 'kept',
  discard: 'discarded',
  waiting: 'waiting',
  processing: 'processing',
  error: 'error',
  redirect: 'redirect',
};

/** A URL that opens the page view when clicked (its own link opens the page itself). */
export function urlCell(url, openPage, title = null) {
  return h(
    'span',
    { class: 'url-cell' },
    h(
      'a',
      {
        href: `#page=${encodeURIComponent(url)}`,
        class: 'open-page',
        title: 'why this score: the page view',
        onclick: (ev) => {
          ev.preventDefault();
          openPage(url);
        },
      },
      title ?? url,
    ),
    title !== null ? h('span', { class: 'u' }, url) : null,
  );
}

const stateCell = (s) =>
  h('span', { class: `state state-${s}`, 'data-state': s }, STATE_LABELS[s] ?? String(s));

/** The pages table: its filters form, the table and the pager. */
export class PagesTable {
  constructor(openPage, onError) {
    this.openPage = openPage;
    this.onError = onError;
    this.cursors = [null];
    this.index = 0;
    this.loading = null;
    $('pages-filters').addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.first();
    });
    for (const id of ['f-state', 'f-sort', 'f-order']) {
      $(id).addEventListener('change', () => this.first());
    }
    $('pages-next').addEventListener('click', () => this.next());
    $('pages-prev').addEventListener('click', () => this.prev());
    $('pages-first').addEventListener('click', () => this.first());
  }

  /** The query of the filters as the API takes it (empty fields left out). */
  query() {
    const v = (id) => $(id).value.trim();
    return {
      state: v('f-state'),
      minRelevance: v('f-min'),
      maxRelevance: v('f-max'),
      host: v('f-host').toLowerCase(),
      sort: v('f-sort'),
      order: v('f-order'),
      limit: PAGE_ROWS,
    };
  }

  /** Shows only this host's pages. */
  filterHost(host) {
    $('f-host').value = host;
    this.first();
    $('pages').scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  first() {
    this.cursors = [null];
    this.index = 0;
    return this.load();
  }

  next() {
    const c = this.cursors[this.index + 1];
    if (c === undefined || c === null) return;
    this.index++;
    return this.load();
  }

  prev() {
    if (this.index === 0) return;
    this.index--;
    return this.load();
  }

  /** Loads the current page again (the live refresh of the first page). */
  refresh() {
    if (this.index === 0 && this.loading === null) return this.load();
  }

  async load() {
    this.loading?.abort();
    const ctl = new AbortController();
    this.loading = ctl;
    const box = $('pages-table');
    box.setAttribute('aria-busy', 'true');
    try {
      const q = { ...this.query(), cursor: this.cursors[this.index] };
      const data = await api(withQuery('api/pages', q), { signal: ctl.signal });
      const rows = itemsOf(data);
      this.cursors[this.index + 1] = data?.next ?? null;
      this.cursors.length = this.index + 2;
      this.render(rows);
      $('pages-error').textContent = '';
    } catch (e) {
      if (e?.name === 'AbortError') return;
      $('pages-error').textContent = e.message;
      this.onError?.(e);
    } finally {
      if (this.loading === ctl) this.loading = null;
      box.removeAttribute('aria-busy');
    }
  }

  render(rows) {
    const box = $('pages-table');
    box.dataset.rows = String(rows.length);
    const from = this.index * PAGE_ROWS;
    $('pages-info').textContent =
      rows.length === 0 ? 'no pages' : `rows ${count(from + 1)}–${count(from + rows.length)}`;
    $('pages-prev').disabled = this.index === 0;
    $('pages-first').disabled = this.index === 0;
    $('pages-next').disabled = !this.cursors[this.index + 1];
    if (rows.length === 0) {
      fill(box, h('p', { class: 'empty' }, 'No page matches these filters.'));
      return;
    }
    fill(
      box,
      table(
        [
          { label: 'page', cell: (r) => urlCell(r.url, this.openPage, r.title || null) },
          { label: 'state', cell: (r) => stateCell(r.state) },
          { label: 'relevance', num: true, cell: (r) => score(r.relevance) },
          { label: 'P', num: true, cell: (r) => score(r.rank) },
          { label: 'host', cell: (r) => hostLink(r.host, this) },
          { label: 'depth', num: true, cell: (r) => count(r.depth) },
          { label: 'HTTP', num: true, cell: (r) => (r.status === null ? '—' : String(r.status)) },
          { label: 'fetched', cell: (r) => time(r.fetchedAt) },
        ],
        rows,
        { class: 'data', 'data-testid': 'pages-rows' },
      ),
    );
  }
}

function hostLink(host, pages) {
  return h(
    'button',
    {
      type: 'button',
      class: 'link',
      title: `only ${host}'s pages`,
      onclick: () => pages.filterHost(host),
    },
    host,
  );
}

/** The hosts table: the status's top hosts live, more on request. */
export class HostsTable {
  constructor(pages, onError) {
    this.pages = pages;
    this.onError = onError;
    this.expanded = false;
    $('hosts-more').addEventListener('click', () => this.more());
  }

  /** The top hosts of a status event (unless the longer list was asked for). */
  fromStatus(hosts) {
    if (!this.expanded && Array.isArray(hosts)) this.render(hosts);
  }

  async more() {
    try {
      const data = await api(withQuery('api/hosts', { limit: 100 }));
      this.expanded = true;
      $('hosts-more').hidden = true;
      this.render(itemsOf(data, 'hosts'));
    } catch (e) {
      this.onError?.(e);
    }
  }

  render(hosts) {
    const box = $('hosts-table');
    box.dataset.rows = String(hosts.length);
    if (hosts.length === 0) {
      fill(box, h('p', { class: 'empty' }, 'No host fetched yet.'));
      return;
    }
    const judged = (x) => x.complete + x.discard;
    fill(
      box,
      table(
        [
          { label: 'host', cell: (x) => hostLink(x.host, this.pages) },
          { label: 'discovered', num: true, cell: (x) => count(x.discovered) },
          { label: 'fetched', num: true, cell: (x) => count(x.fetched) },
          { label: 'kept', num: true, cell: (x) => count(x.complete) },
          { label: 'discarded', num: true, cell: (x) => count(x.discard) },
          { label: 'errors', num: true, cell: (x) => count(x.error) },
          {
            label: 'harvest',
            num: true,
            cell: (x) => (judged(x) > 0 ? percent(x.complete / judged(x)) : '—'),
          },
          { label: 'bytes', num: true, cell: (x) => bytes(x.bytes) },
        ],
        hosts,
        { class: 'data', 'data-testid': 'hosts-rows' },
      ),
    );
  }
}

/** The frontier's best waiting URLs. */
export class FrontierTable {
  constructor(openPage, onError) {
    this.openPage = openPage;
    this.onError = onError;
  }

  async load() {
    try {
      const data = await api(withQuery('api/frontier', { limit: 20 }));
      this.render(itemsOf(data, 'urls'));
    } catch (e) {
      this.onError?.(e);
    }
  }

  render(rows) {
    const box = $('frontier-table');
    box.dataset.rows = String(rows.length);
    if (rows.length === 0) {
      fill(box, h('p', { class: 'empty' }, 'Nothing waiting.'));
      return;
    }
    const prio = (p) => (p >= 1e300 ? 'seed' : score(p));
    fill(
      box,
      table(
        [
          { label: 'URL', cell: (r) => urlCell(r.url, this.openPage) },
          { label: 'priority', num: true, cell: (r) => prio(r.priority) },
          { label: 'depth', num: true, cell: (r) => count(r.depth) },
          { label: 'anchor', cell: (r) => r.anchor ?? '' },
        ],
        rows,
        { class: 'data', 'data-testid': 'frontier-rows' },
      ),
    );
  }
}
