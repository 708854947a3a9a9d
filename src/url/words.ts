/**
 * The words of a URL, as a link's evidence about its target: host labels (less the
 * top-level domain and `www`), path segments and query keys and values, percent-
 * decoded and split on everything but letters and digits; file extensions of web
 * pages (`html`, `php` …) and `index` left out. `https://docs.example.org/sql-createindex.html?lang=en`
 * → `docs example sql createindex lang en`. Pure.
 */
/** Words every web page's URL may carry and that say nothing of its subject. */
export const WEB_URL_WORDS: readonly string[] = [
  'http',
  'https',
  'www',
  'html',
  'htm',
  'shtml',
  'php',
  'asp',
  'aspx',
  'jsp',
  'cgi',
  'index',
];
const NOISE = new Set([...WEB_URL_WORDS, 'xhtml']);

function decode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function urlWords(url: string): string {
  const start = url.indexOf('//');
  if (start < 0) return '';
  let end = url.indexOf('/', start + 2);
  if (end < 0) end = url.length;
  const hostPart = url.slice(start + 2, end).replace(/:\d+$/, '');
  const labels = hostPart.split('.');
  if (labels.length > 1) labels.pop();
  const rest = decode(url.slice(end)).replace(/#.*$/, '');
  const out: string[] = [];
  for (const w of `${labels.join(' ')} ${rest}`.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (w !== '' && !NOISE.has(w)) out.push(w);
  }
  return out.join(' ');
}
