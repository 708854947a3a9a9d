/**
 * Amounts of money as written on pages → `CUR LOW[-HIGH][/PERIOD]`, e.g. `15k-25k/月` →
 * `CNY 15000-25000/month` (with the field's default currency CNY), `￥15000` →
 * `CNY 15000`, `$120,000` → `USD 120000`, `1-1.5万元/月` → `CNY 10000-15000/month`.
 */
import { DIGITS, decimal, foldWidth, MULTIPLIERS } from './number.js';

/** Currency marks → ISO 4217 codes; longer marks first, so that `HK$` wins over `$`. */
const CURRENCIES: [string, string][] = [
  ['US$', 'USD'],
  ['HK$', 'HKD'],
  ['NT$', 'TWD'],
  ['A$', 'AUD'],
  ['C$', 'CAD'],
  ['S$', 'SGD'],
  ['人民币', 'CNY'],
  ['新台币', 'TWD'],
  ['美元', 'USD'],
  ['欧元', 'EUR'],
  ['英镑', 'GBP'],
  ['日元', 'JPY'],
  ['港币', 'HKD'],
  ['港元', 'HKD'],
  ['韩元', 'KRW'],
  ['RMB', 'CNY'],
  ['元', 'CNY'],
  ['块', 'CNY'],
  ['円', 'JPY'],
  ['¥', 'CNY'],
  ['$', 'USD'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['₩', 'KRW'],
  ['₹', 'INR'],
];
const CODES = 'CNY|USD|EUR|GBP|JPY|HKD|TWD|KRW|INR|AUD|CAD|SGD|CHF';
const esc = (s: string) => s.replace(/[$]/g, '\\$&');
const CURRENCY_RE = new RegExp(
  `${CURRENCIES.map(([m]) => esc(m)).join('|')}|(?<![A-Za-z])(?:${CODES})(?![A-Za-z])`,
);
const CODE_OF = new Map(CURRENCIES);

const PERIODS: [RegExp, string][] = [
  [/\/\s*(?:小?时|h|hr|hour)(?![A-Za-z])|时薪|每小时|per hour|an hour|hourly/i, 'hour'],
  [/\/\s*(?:天|日|d|day)(?![A-Za-z])|日薪|每天|per day|a day|daily/i, 'day'],
  [/\/\s*(?:周|wk|week)(?![A-Za-z])|周薪|每周|per week|a week|weekly/i, 'week'],
  [/\/\s*(?:月|mo|month)(?![A-Za-z])|月薪|每月|per month|a month|monthly/i, 'month'],
  [
    /\/\s*(?:年|yr|year)(?![A-Za-z])|年薪|每年|per (?:year|annum)|a year|yearly|annually|p\.a\./i,
    'year',
  ],
];

const MULT = String.raw`(?:\s*(十万|百万|千万|千|万|亿|[kKwW](?![A-Za-z])|M(?![A-Za-z])))?`;
const AMOUNT = `${DIGITS}${MULT}`;
const RANGE_RE = new RegExp(
  String.raw`(?<![\d.])${AMOUNT}(?:\s*(?:-|–|—|~|至|到|to)\s*(?:US\$|HK\$|[$¥€£₩₹])?\s*${AMOUNT})?`,
);

function currencyOf(text: string): string | undefined {
  const m = CURRENCY_RE.exec(text);
  if (m === null) return undefined;
  return CODE_OF.get(m[0]) ?? m[0];
}

function periodOf(text: string): string | undefined {
  let best: { at: number; period: string } | undefined;
  for (const [re, period] of PERIODS) {
    const m = re.exec(text);
    if (m !== null && (best === undefined || m.index < best.at)) best = { at: m.index, period };
  }
  return best?.period;
}

/**
 * The first amount or range of amounts in `text`, normalised: `CUR LOW` or
 * `CUR LOW-HIGH`, followed by `/hour`, `/day`, `/week`, `/month` or `/year` when the
 * text names a period; the currency is the first currency mark or code in the text,
 * else `defaultCurrency`, else left out. Undefined when there is no digit.
 */
export function parseMoney(text: string, defaultCurrency?: string): string | undefined {
  const s = foldWidth(text);
  const m = RANGE_RE.exec(s);
  if (m === null) return undefined;
  const lowShift = m[3] === undefined ? undefined : MULTIPLIERS[m[3]];
  const highShift = m[6] === undefined ? undefined : MULTIPLIERS[m[6]];
  let amount: string;
  if (m[4] === undefined) amount = decimal(m[1]!, m[2] ?? '', lowShift ?? 0);
  else {
    // `15-25k`, `1-1.5万`: a multiplier on the high end only applies to both ends (unless
    // the low end is then the greater: `5000-1.5万`).
    const rawLow = Number(`${m[1]!.replace(/,/g, '')}.${m[2] ?? '0'}`);
    const rawHigh = Number(`${m[4].replace(/,/g, '')}.${m[5] ?? '0'}`);
    const inherit = lowShift === undefined && highShift !== undefined && rawLow <= rawHigh;
    const low = decimal(m[1]!, m[2] ?? '', inherit ? (highShift ?? 0) : (lowShift ?? 0));
    const high = decimal(m[4], m[5] ?? '', highShift ?? 0);
    amount = low === high ? low : `${low}-${high}`;
  }
  const currency = currencyOf(s) ?? defaultCurrency;
  const period = periodOf(s);
  return `${currency === undefined ? '' : `${currency} `}${amount}${period === undefined ? '' : `/${period}`}`;
}
