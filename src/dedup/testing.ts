/**
 * Deterministic article texts for the dedup tests and benchmark: topical articles
 * drawn from one shared vocabulary (so two articles on a topic share many words and
 * phrases), and the page texts a crawl would see around them.
 */

/** A small linear congruential generator: the same seed gives the same text. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

const EN = {
  noun: [
    'grid',
    'substation',
    'transformer',
    'turbine',
    'battery',
    'operator',
    'engineer',
    'council',
    'utility',
    'network',
    'line',
    'plant',
    'meter',
    'tariff',
    'outage',
    'storm',
    'reactor',
    'panel',
    'cable',
    'household',
    'regulator',
    'market',
    'supply',
    'demand',
  ],
  adj: [
    'regional',
    'national',
    'new',
    'aging',
    'high-voltage',
    'rural',
    'coastal',
    'local',
    'temporary',
    'offshore',
    'public',
    'private',
    'smart',
    'backup',
    'seasonal',
    'record',
  ],
  verb: [
    'replaces',
    'connects',
    'supplies',
    'delays',
    'approves',
    'inspects',
    'upgrades',
    'reviews',
    'funds',
    'protects',
    'balances',
    'powers',
    'monitors',
    'expands',
  ],
  time: ['last week', 'this spring', 'on Tuesday', 'in May', 'last year', 'this month'],
  who: ['the operator', 'the regulator', 'engineers', 'residents', 'the utility', 'analysts'],
};

const EN_TEMPLATES: ReadonlyArray<(r: () => number) => string> = [
  (r) =>
    `The ${pick(r, EN.adj)} ${pick(r, EN.noun)} ${pick(r, EN.verb)} the ${pick(r, EN.noun)} ${pick(r, EN.time)}.`,
  (r) =>
    `According to ${pick(r, EN.who)}, the ${pick(r, EN.noun)} ${pick(r, EN.verb)} a ${pick(r, EN.adj)} ${pick(r, EN.noun)}.`,
  (r) =>
    `For ${pick(r, EN.who)}, the ${pick(r, EN.noun)} is ${pick(r, EN.adj)}, but the ${pick(r, EN.noun)} ${pick(r, EN.verb)} the ${pick(r, EN.noun)}.`,
  (r) =>
    `Many readers ask whether the ${pick(r, EN.noun)} really ${pick(r, EN.verb)} the ${pick(r, EN.adj)} ${pick(r, EN.noun)}.`,
  (r) =>
    `About ${Math.floor(r() * 90) + 5} percent of the ${pick(r, EN.noun)} ${pick(r, EN.verb)} the ${pick(r, EN.noun)}.`,
  () => 'The full report is available on request.',
  () => 'It is not the first time this has happened.',
];

const ZH = {
  noun: [
    '电网',
    '变电站',
    '变压器',
    '风电',
    '光伏',
    '储能',
    '用电负荷',
    '输电线路',
    '配电网',
    '调度中心',
    '发电量',
    '电价',
    '检修人员',
    '新能源',
    '特高压',
    '电力市场',
    '居民',
    '供电',
  ],
  adj: ['新建', '区域', '农村', '沿海', '分布式', '清洁', '大型', '智能', '临时', '备用'],
  verb: ['提高了', '保障了', '连接了', '推动了', '改善了', '支持了', '降低了', '扩大了'],
  time: ['今年夏季', '上个月', '近日', '去年', '本周', '今年上半年'],
  who: ['国家电网', '业内人士', '专家', '调度中心', '分析师', '当地居民'],
};

const ZH_TEMPLATES: ReadonlyArray<(r: () => number) => string> = [
  (r) =>
    `${pick(r, ZH.time)}，${pick(r, ZH.adj)}${pick(r, ZH.noun)}${pick(r, ZH.verb)}${pick(r, ZH.noun)}。`,
  (r) =>
    `${pick(r, ZH.who)}表示，${pick(r, ZH.adj)}${pick(r, ZH.noun)}${pick(r, ZH.verb)}${pick(r, ZH.adj)}${pick(r, ZH.noun)}。`,
  (r) =>
    `据${pick(r, ZH.who)}统计，${pick(r, ZH.noun)}的${pick(r, ZH.noun)}增长了${Math.floor(r() * 90) + 5}%。`,
  (r) => `很多读者关心${pick(r, ZH.noun)}是否会${pick(r, ZH.verb)}${pick(r, ZH.noun)}。`,
  (r) => `与${pick(r, ZH.noun)}相比，${pick(r, ZH.adj)}${pick(r, ZH.noun)}的优势更加明显。`,
  () => '以上信息仅供参考。',
  () => '更多详情请关注后续报道。',
];

export type Lang = 'en' | 'zh';

/** Paragraphs of a topical article: `paragraphs` of `sentences` sentences each. */
export function article(seed: number, lang: Lang, paragraphs = 12, sentences = 8): string[] {
  const r = rng(seed);
  const templates = lang === 'en' ? EN_TEMPLATES : ZH_TEMPLATES;
  const sep = lang === 'en' ? ' ' : '';
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const s: string[] = [];
    for (let i = 0; i < sentences; i++) s.push(pick(r, templates)(r));
    out.push(s.join(sep));
  }
  return out;
}

/** Related-article titles, as a site lists them beside an article. */
export function linkTitles(seed: number, lang: Lang, n: number): string[] {
  const r = rng(seed ^ 0x5bd1e995);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      lang === 'en'
        ? `Why the ${pick(r, EN.adj)} ${pick(r, EN.noun)} matters`
        : `${pick(r, ZH.noun)}调查：${pick(r, ZH.adj)}${pick(r, ZH.noun)}${pick(r, ZH.verb)}${pick(r, ZH.noun)}`,
    );
  }
  return out;
}

export interface PageParts {
  site: string;
  title: string;
  paragraphs: readonly string[];
  related: readonly string[];
  lang: Lang;
}

/** The page text a parser gives for an article page: site name, menu, article, links, footer. */
export function fullPageText(p: PageParts): string {
  const menu =
    p.lang === 'en' ? 'Home | News | About us | Contact' : '首页 | 新闻 | 关于我们 | 联系我们';
  const related = p.lang === 'en' ? 'Related articles' : '相关文章';
  const footer =
    p.lang === 'en' ? `© 2024 ${p.site} · About us · Contact` : `© 2024 ${p.site} · 关于我们`;
  return [p.site, menu, p.title, ...p.paragraphs, related, ...p.related, footer].join('\n');
}

/** The same article's print view: no menu, links or footer; a "printed from" line. */
export function printPageText(p: PageParts, url: string): string {
  const printed = p.lang === 'en' ? `Printed from ${url}` : `打印自 ${url}`;
  return [p.title, ...p.paragraphs, printed].join('\n');
}
