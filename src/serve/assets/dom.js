// DOM and formatting helpers of the dashboard. Text always goes in as text (never as HTML).

/** The element with this id (throws when the page lacks it: a broken page should say so). */
export function $(id) {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`dashboard: no element #${id}`);
  return el;
}

/**
 * Creates an element: `attrs` are set as attributes (`class`, `data-*`, …) except
 * `on*` functions (listeners) and `text` (the text content); children are nodes or
 * strings, null and undefined skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
  }
  return el;
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
  }
  return el;
}

const isNum = (x) => typeof x === 'number' && Number.isFinite(x);

/** 12,345 (— for none). */
export function count(n) {
  return isNum(n) ? Math.round(n).toLocaleString('en-US') : '—';
}

/** 0.412 (— for none). */
export function score(x, digits = 3) {
  return isNum(x) ? x.toFixed(digits) : '—';
}

/** 41.2% (— for none). */
export function percent(x, digits = 1) {
  return isNum(x) ? `${(x * 100).toFixed(digits)}%` : '—';
}

/** 12.3 (one decimal below 100; — for none). */
export function rate(x) {
  if (!isNum(x)) return '—';
  return x < 100 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US');
}

/** 1.2 MB. */
export function bytes(n) {
  if (!isNum(n)) return '—';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

/** Local date and time of ms since the epoch, seconds included (— for none). */
export function time(ms) {
  if (!isNum(ms)) return '—';
  const d = new Date(ms);
  const p = (x) => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** 3 s, 4 min 10 s, 2 h 5 min. */
export function duration(ms) {
  if (!isNum(ms)) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/**
 * A search snippet as nodes: the matched words, between U+E000 and U+E001 in the
 * store's snippets, become <mark> elements.
 */
export function snippet(text) {
  const out = [];
  const re = /\uE000([^\uE001]*)\uE001/g;
  let last = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(h('mark', { text: m[1] }));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * A table from column specs `{ label, cell(row) → node|string, num? }` and rows; a row
 * with a `url` carries it as `data-url`.
 */
export function table(columns, rows, attrs = {}) {
  return h(
    'table',
    attrs,
    h(
      'thead',
      {},
      h('tr', {}, ...columns.map((c) => h('th', { class: c.num ? 'n' : null }, c.label))),
    ),
    h(
      'tbody',
      {},
      ...rows.map((r) =>
        h(
          'tr',
          typeof r?.url === 'string' ? { 'data-url': r.url } : {},
          ...columns.map((c) => h('td', { class: c.num ? 'n' : (c.class ?? null) }, c.cell(r))),
        ),
      ),
    ),
  );
}

/** A host name from a URL ('' when it does not parse). */
export function hostOf(url) {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
