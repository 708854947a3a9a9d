// The dashboard's client of the REST API: the token, JSON requests, errors as the API says them.

const TOKEN_KEY = 'focuscrawl.token';

/**
 * The token of the control routes: `?token=` of the page's URL (the URL `focuscrawl
 * serve` prints), kept in sessionStorage for this tab and then taken out of the
 * address bar, so that it is not bookmarked or shared by accident. Null without one.
 */
export function takeToken() {
  const url = new URL(window.location.href);
  const given = url.searchParams.get('token');
  if (given !== null && given !== '') {
    try {
      sessionStorage.setItem(TOKEN_KEY, given);
    } catch {
      // storage refused (private mode): the token lives in this page only
    }
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return given;
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

let token = null;

export function setToken(t) {
  token = t;
}

export function hasToken() {
  return token !== null && token !== '';
}

/** Whether the page came from a loopback address (where reads need no token). */
function onLoopback() {
  const h = window.location.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h.startsWith('127.');
}

/**
 * The address of a read for a link or an EventSource, which cannot send headers: off
 * loopback, where every API route needs the token, it carries `?token=`.
 */
export function readHref(path, params = {}) {
  const t = hasToken() && !onLoopback() ? token : undefined;
  return withQuery(path, { ...params, token: t });
}

/** An error the API answered: `code` and `message` of its `{ error }` body, and the status. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** A path with its query: parameters that are undefined, null or '' are left out. */
export function withQuery(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    q.set(k, String(v));
  }
  const s = q.toString();
  return s === '' ? path : `${path}?${s}`;
}

/**
 * Sends a request to the API (paths relative to the page: `api/status`) and returns
 * its JSON. The token goes with every request when there is one. Throws an ApiError.
 */
export async function api(path, { method = 'GET', body, signal } = {}) {
  const headers = { accept: 'application/json' };
  if (hasToken()) headers.authorization = `Bearer ${token}`;
  const init = { method, headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (signal !== undefined) init.signal = signal;
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    if (e?.name === 'AbortError') throw e;
    throw new ApiError(0, 'NETWORK', 'the server does not answer');
  }
  const text = await res.text();
  let data = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = data?.error;
    throw new ApiError(
      res.status,
      typeof err?.code === 'string' ? err.code : `HTTP_${res.status}`,
      typeof err?.message === 'string' ? err.message : `HTTP ${res.status}`,
    );
  }
  return data;
}

/** The items of a list answer, whatever its wrapper (`items`, `hits`, `hosts`, or a plain array). */
export function itemsOf(data, ...keys) {
  if (Array.isArray(data)) return data;
  for (const k of [...keys, 'items']) if (Array.isArray(data?.[k])) return data[k];
  return [];
}
