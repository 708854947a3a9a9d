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

const ASCII = /^[\x00-\x7f]*$/;

/** Pushes the letter-and-digit runs of ASCII `s` (lower-cased) that are not noise. */
function asciiWords(s: string, out: string[]): void {
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    const r = i < s.length ? s.charCodeAt(i) : 0;
    const c = r | 0x20;
    const alnum = (c >= 97 && c <= 122) || (r >= 48 && r <= 57);
    if (alnum) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      const w = s.slice(start, i).toLowerCase();
      if (!NOISE.has(w)) out.push(w);
      start = -1;
    }
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
  const out: string[] = [];
  // Most URLs: ASCII without escapes, split by a loop (the Unicode split costs 5× more).
  if (!url.includes('%') && ASCII.test(url)) {
    const hash = url.indexOf('#', end);
    asciiWords(labels.join(' '), out);
    asciiWords(hash < 0 ? url.slice(end) : url.slice(end, hash), out);
    return out.join(' ');
  }
  const rest = decode(url.slice(end)).replace(/#[\s\S]*$/, '');
  for (const w of `${labels.join(' ')} ${rest}`.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (w !== '' && !NOISE.has(w)) out.push(w);
  }
  return out.join(' ');
}
