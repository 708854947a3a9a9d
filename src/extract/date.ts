/**
 * Dates as written on pages → ISO 8601: `2024-01-05`, `2024/1/5`, `2024.1.5`,
 * `2024年1月5日`, `Jan 5, 2024`, `5 January 2024`, `Fri, 05 Jan 2024 10:00:00 GMT`,
 * `2024-01-05T10:00:00+08:00`, each optionally with a time of day and a zone.
 */
import { foldWidth } from './number.js';

const MONTHS = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
] as const;
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
/** Time of day and zone, after a date. */
const TIME = String.raw`(?:(?:T|,?\s*)(\d{1,2})[:时](\d{2})(?:[:分](\d{2})(?:\.\d+)?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?)?`;

interface Form {
  re: RegExp;
  /** Indices of year, month, day and the first time group in the match. */
  y: number;
  m: number;
  d: number;
  t: number;
}

const FORMS: Form[] = [
  {
    re: new RegExp(String.raw`(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)${TIME}`, 'i'),
    y: 1,
    m: 2,
    d: 3,
    t: 4,
  },
  {
    re: new RegExp(
      String.raw`(?<!\d)(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]?${TIME}`,
      'i',
    ),
    y: 1,
    m: 2,
    d: 3,
    t: 4,
  },
  {
    // Jan 5, 2024 / January 5th 2024
    re: new RegExp(
      String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?!\d)${TIME}`,
      'i',
    ),
    y: 3,
    m: 1,
    d: 2,
    t: 4,
  },
  {
    // 5 Jan 2024 / 05 January, 2024 / Fri, 05 Jan 2024 10:00:00 GMT
    re: new RegExp(
      String.raw`(?<!\d)(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH},?\s+(\d{4})(?!\d)${TIME}`,
      'i',
    ),
    y: 3,
    m: 2,
    d: 1,
    t: 4,
  },
];

const pad = (n: number) => String(n).padStart(2, '0');

function monthNumber(s: string): number {
  if (/^\d+$/.test(s)) return Number(s);
  return MONTHS.indexOf(s.slice(0, 3).toLowerCase() as (typeof MONTHS)[number]) + 1;
}

function zone(z: string | undefined): string {
  if (z === undefined) return '';
  if (/^(?:Z|UTC|GMT)$/i.test(z)) return 'Z';
  const d = z.replace(':', '');
  return d === '+0000' ? 'Z' : `${d.slice(0, 3)}:${d.slice(3)}`;
}

/**
 * The first date in `text` in ISO 8601: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SS` when a
 * time of day follows, with `Z` or `±HH:MM` when a zone does (GMT and UTC are `Z`).
 * Undefined when there is no date of a recognised form, or it is not a real date
 * (2023-02-30, 25:00).
 */
export function parseDate(text: string): string | undefined {
  const s = foldWidth(text);
  let best: { m: RegExpExecArray; f: Form } | undefined;
  for (const f of FORMS) {
    const m = f.re.exec(s);
    if (m !== null && (best === undefined || m.index < best.m.index)) best = { m, f };
  }
  if (best === undefined) return undefined;
  const { m, f } = best;
  const y = Number(m[f.y]);
  const mo = monthNumber(m[f.m] as string);
  const d = Number(m[f.d]);
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > days) return undefined;
  const date = `${String(y).padStart(4, '0')}-${pad(mo)}-${pad(d)}`;
  if (m[f.t] === undefined) return date;
  const h = Number(m[f.t]);
  const min = Number(m[f.t + 1]);
  const sec = Number(m[f.t + 2] ?? 0);
  if (h > 23 || min > 59 || sec > 59) return undefined;
  return `${date}T${pad(h)}:${pad(min)}:${pad(sec)}${zone(m[f.t + 3])}`;
}
