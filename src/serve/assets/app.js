// The focuscrawl dashboard: built only on the REST API of `focuscrawl serve` (docs/api.md).
// First paint needs two requests, /api/status and one page of 50 rows; the live figures
// come by Server-Sent Events (/api/events), the rest after the first paint and then now
// and again, each request bounded (no list is ever fetched whole).

import {
  ApiError,
  api,
  hasToken,
  itemsOf,
  readHref,
  setToken,
  takeToken,
  withQuery,
} from './api.js';
import { ActivityChart, HistogramChart, LiveRateChart, ThresholdChart } from './charts.js';
import { $, bytes, count, duration, fill, h, percent, rate, score, time } from './dom.js';
import { PageView, SearchBox } from './pageview.js';
import { FrontierTable, HostsTable, PagesTable } from './tables.js';

/** How often the charts, the frontier and the first page of the table are read again. */
const REFRESH_MS = 10_000;
/** Pages whose relevance the histogram shows: the last fetched. */
const HISTOGRAM_SAMPLE = 500;
/** Buckets the activity chart aims at. */
const ACTIVITY_BUCKETS = 60;
const NICE_BUCKETS_MS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400,
].map((s) => s * 1000);

setToken(takeToken());

let status = null;
/** Set once the server refused a control as read-only. */
let readOnly = false;
/** The threshold's change count and value at the last status (its chart is read again when they move). */
let lastThresholdKey = null;
/** The threshold in force: the crawl's latest, else the topic's. */
const currentThreshold = () => status?.threshold?.value ?? status?.topic?.threshold ?? null;
const pageView = new PageView(currentThreshold);
const openPage = (url) => pageView.open(url);
const pages = new PagesTable(openPage, showError);
const hosts = new HostsTable(pages, showError);
const frontier = new FrontierTable(openPage, showError);
new SearchBox(openPage);
const liveChart = new LiveRateChart($('chart-live'));
const activityChart = new ActivityChart($('chart-activity'));
const histogramChart = new HistogramChart($('chart-histogram'));
const thresholdChart = new ThresholdChart($('chart-threshold'));

function showError(e) {
  if (e?.name === 'AbortError') return;
  $('connection').textContent =
    e instanceof ApiError && e.status === 0 ? 'server unreachable' : e.message;
  $('connection').dataset.state = 'error';
}

function setCounter(name, value, text) {
  const el = $(`count-${name}`);
  el.textContent = text;
  el.dataset.value = typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/** What the run is doing, from the open leases and the control flags. */
function runState(s) {
  const running = (s.running ?? []).filter((r) => !r.lost);
  const c = s.control ?? {};
  if (running.length === 0) {
    const last = s.runs?.lastStopReason;
    return {
      key: 'idle',
      text: last ? `no crawl running (last run: ${last})` : 'no crawl running',
    };
  }
  if (c.stop) return { key: 'stopping', text: 'stopping' };
  if (c.paused) return { key: 'paused', text: 'paused: no new request starts' };
  return {
    key: 'crawling',
    text: running.length > 1 ? `crawling (${running.length} processes)` : 'crawling',
  };
}

function renderStatus(s) {
  status = s;
  const at = typeof s.at === 'number' ? s.at : Date.now();
  const c = s.counts ?? {};
  setCounter('pps', s.pagesPerSec, rate(s.pagesPerSec));
  setCounter('fetched', s.fetched, count(s.fetched));
  setCounter('kept', c.complete, count(c.complete));
  setCounter('discarded', c.discard, count(c.discard));
  setCounter('waiting', c.waiting, count(c.waiting));
  setCounter('processing', c.processing, count(c.processing));
  setCounter('errors', c.error, count(c.error));
  setCounter('harvest', s.harvestRate, percent(s.harvestRate));
  const threshold = currentThreshold();
  setCounter('threshold', threshold, score(threshold));
  $('count-threshold-kind').textContent = s.threshold
    ? `${s.threshold.kind}, ${count(s.threshold.changes)} changes`
    : '';
  $('count-fetched-sub').textContent = `${bytes(s.bytes)} · ${count(s.requests)} requests`;
  $('topic-name').textContent = s.topic?.name ? `— ${s.topic.name}` : '';
  const run = runState(s);
  const el = $('run-state');
  el.textContent = run.text;
  el.dataset.state = run.key;
  $('updated').textContent = `updated ${time(at).slice(11)}`;
  renderControls(s, run);
  // A threshold that moved shows in its chart at once, not at the next refresh.
  const thresholdKey = `${s.threshold?.changes ?? 0}:${threshold}`;
  if (lastThresholdKey !== null && thresholdKey !== lastThresholdKey) loadSeries();
  lastThresholdKey = thresholdKey;
  renderFreshness(s.revisits);
  hosts.fromStatus(s.topHosts);
  liveChart.add(at, s.pagesPerSec);
  const input = $('threshold-input');
  if (document.activeElement !== input && input.dataset.dirty !== 'true' && threshold !== null) {
    input.value = String(Math.round(threshold * 1000) / 1000);
  }
}

function renderControls(s, run) {
  const c = s.control ?? {};
  const can = hasToken() && !readOnly;
  $('btn-pause').disabled = !can || c.paused === true;
  $('btn-resume').disabled = !can || c.paused !== true;
  $('btn-stop').disabled = !can || run.key === 'idle' || c.stop === true;
  $('threshold-set').disabled = !can;
  $('seeds-add').disabled = !can;
  $('controls').dataset.enabled = String(can);
  if (!hasToken()) {
    $('control-note').textContent =
      'The controls need the token: open the address focuscrawl printed when it started (with ?token=).';
  } else if (readOnly) {
    $('control-note').textContent = 'The server is read-only (--read-only): the controls are off.';
  } else {
    $('control-note').textContent = '';
  }
}

function renderFreshness(r) {
  const box = $('freshness');
  if (!r) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const lh = r.lastHour;
  const seen = lh ? lh.found.changed + lh.found.unchanged : 0;
  fill(
    $('freshness-body'),
    h(
      'div',
      { class: 'cards' },
      card(
        'expected freshness',
        percent(r.plan?.expectedFreshness),
        r.plan ? `plan of ${time(r.plan.at)}` : 'no plan yet',
        'freshness',
      ),
      card(
        'found unchanged',
        seen > 0 ? percent(lh.found.unchanged / seen) : '—',
        'revisits of the last hour',
      ),
      card('revisits', count(r.revisits), `${count(lh?.revisits)} in the last hour`),
      card('tracked', count(r.tracked), `${count(r.scheduled)} scheduled, ${count(r.due)} due`),
      card(
        'next due',
        r.nextDueAt ? time(r.nextDueAt).slice(11) : '—',
        r.gone > 0 ? `${count(r.gone)} gone` : '',
      ),
      card(
        'requests/s',
        rate(lh?.perSec),
        r.budget ? `budget ${rate(r.budget.perSec)}/s (${percent(lh?.ofBudget, 0)})` : 'no budget',
      ),
    ),
  );
}

function card(label, value, sub, testid) {
  return h(
    'div',
    { class: 'card', 'data-testid': testid ?? null },
    h('div', { class: 'card-label' }, label),
    h('div', { class: 'card-value' }, value),
    h('div', { class: 'card-sub' }, sub),
  );
}

/**
 * Live status: Server-Sent Events (`status` once a second). The browser reconnects a
 * dropped stream by itself; a stream it gave up on (the answer was no event stream)
 * is replaced by polling /api/status every 2 s.
 */
function connectLive() {
  const conn = $('connection');
  const source = new EventSource(readHref('api/events'));
  source.addEventListener('status', (ev) => {
    try {
      renderStatus(JSON.parse(ev.data));
      conn.textContent = 'live';
      conn.dataset.state = 'live';
    } catch {
      // a malformed event is skipped; the next one comes in a second
    }
  });
  source.addEventListener('error', (ev) => {
    if (typeof ev.data === 'string') {
      // An error event of the server's: the status could not be read this time.
      try {
        conn.textContent = JSON.parse(ev.data).error.message;
      } catch {
        conn.textContent = 'the status cannot be read';
      }
      conn.dataset.state = 'error';
      return;
    }
    conn.textContent = 'reconnecting…';
    conn.dataset.state = 'error';
    if (source.readyState === EventSource.CLOSED) {
      setInterval(() => {
        api('api/status').then((s) => {
          renderStatus(s);
          conn.textContent = 'polling';
          conn.dataset.state = 'live';
        }, showError);
      }, 2000);
    }
  });
}

function niceBucketMs(spanMs) {
  const want = spanMs / ACTIVITY_BUCKETS;
  return NICE_BUCKETS_MS.find((b) => b >= want) ?? NICE_BUCKETS_MS[NICE_BUCKETS_MS.length - 1];
}

async function loadSeries() {
  const first = status?.firstFetchAt ?? null;
  const last = status?.lastFetchAt ?? null;
  const bucketMs = niceBucketMs(first !== null && last !== null ? last - first : 0);
  try {
    const data = await api(withQuery('api/series', { bucketMs }));
    activityChart.update(itemsOf(data, 'buckets', 'activity'));
    $('activity-bucket').textContent = `per ${duration(bucketMs)}`;
    thresholdChart.update(data?.threshold?.changes ?? [], Date.now(), currentThreshold());
  } catch (e) {
    showError(e);
  }
}

async function loadHistogram() {
  try {
    const q = { sort: 'fetchedAt', order: 'desc', limit: HISTOGRAM_SAMPLE };
    const rows = itemsOf(await api(withQuery('api/pages', q)));
    const n = histogramChart.update(rows);
    $('histogram-sample').textContent = n > 0 ? `the last ${count(n)} pages fetched` : '';
  } catch (e) {
    showError(e);
  }
}

async function control(what, request, done) {
  const note = $('control-msg');
  note.dataset.state = 'busy';
  note.textContent = '…';
  try {
    await api(request.path, request);
    note.dataset.state = 'ok';
    note.textContent = done;
    renderStatus(await api('api/status'));
  } catch (e) {
    note.dataset.state = 'error';
    if (e.status === 401)
      note.textContent = `${what}: the token is missing or wrong (${e.message})`;
    else note.textContent = `${what}: ${e.message}`;
    if (e.status === 403 && /read-only/.test(e.message)) {
      // A read-only server (--read-only): the controls go off for the rest of the visit.
      readOnly = true;
      if (status !== null) renderStatus(status);
    }
  }
}

$('btn-pause').addEventListener('click', () =>
  control(
    'pause',
    { path: 'api/control/pause', method: 'POST' },
    'Paused: no new request starts; fetches under way finish.',
  ),
);
$('btn-resume').addEventListener('click', () =>
  control('resume', { path: 'api/control/resume', method: 'POST' }, 'Resumed.'),
);
$('btn-stop').addEventListener('click', () => {
  $('stop-confirm').hidden = false;
  $('btn-stop-yes').focus();
});
$('btn-stop-no').addEventListener('click', () => {
  $('stop-confirm').hidden = true;
});
$('btn-stop-yes').addEventListener('click', () => {
  $('stop-confirm').hidden = true;
  control(
    'stop',
    { path: 'api/control/stop', method: 'POST' },
    'Stopping: the crawl ends once the fetches under way finish.',
  );
});
$('threshold-input').addEventListener('input', (ev) => {
  ev.target.dataset.dirty = 'true';
});
$('threshold-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const input = $('threshold-input');
  const value = Number(input.value);
  if (input.value.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    $('control-msg').dataset.state = 'error';
    $('control-msg').textContent = 'threshold: give a number from 0 to 1';
    return;
  }
  input.dataset.dirty = 'false';
  control(
    'threshold',
    { path: 'api/threshold', method: 'PUT', body: { value } },
    `Threshold set to ${score(value)}: pages fetched from now on are judged by it.`,
  );
});
$('seeds-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const urls = $('seeds-input')
    .value.split(/\s+/)
    .filter((u) => u !== '');
  if (urls.length === 0) return;
  control(
    'seeds',
    { path: 'api/seeds', method: 'POST', body: { urls } },
    `Added ${count(urls.length)} seed URLs.`,
  ).then(() => {
    if ($('control-msg').dataset.state === 'ok') $('seeds-input').value = '';
  });
});

function exportLink() {
  const format = $('export-format').value;
  const what = $('export-what').value;
  $('export-go').setAttribute(
    'href',
    readHref(`api/export/${encodeURIComponent(format)}`, { what }),
  );
}
$('export-format').addEventListener('change', exportLink);
$('export-what').addEventListener('change', exportLink);
exportLink();

/**
 * Whether the frontier's table is on screen: it is read (the server walks the waiting
 * URLs for the best) when it comes into view and then refreshed only while it is seen.
 */
let frontierSeen = false;
function watchFrontier() {
  if (typeof IntersectionObserver !== 'function') {
    frontierSeen = true;
    frontier.load();
    return;
  }
  new IntersectionObserver((entries) => {
    const seen = entries.some((e) => e.isIntersecting);
    if (seen && !frontierSeen) frontier.load();
    frontierSeen = seen;
  }).observe($('frontier'));
}

function refresh() {
  if (document.hidden) return;
  loadSeries();
  loadHistogram();
  if (frontierSeen) frontier.load();
  pages.refresh();
}

async function start() {
  // First paint: the status and one page of rows.
  const firstStatus = api('api/status').catch((e) => {
    showError(e);
    return null;
  });
  const [s] = await Promise.all([firstStatus, pages.first()]);
  if (s !== null) renderStatus(s);
  document.body.dataset.ready = 'true';
  connectLive();
  loadSeries();
  loadHistogram();
  watchFrontier();
  setInterval(refresh, REFRESH_MS);
  const m = /^#page=(.+)$/.exec(window.location.hash);
  if (m) pageView.open(decodeURIComponent(m[1]));
}

start();
