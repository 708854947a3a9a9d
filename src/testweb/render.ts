// HTML of topical-web pages: content pages, hubs and host home pages (about 10 KB each).
import { type HostInfo, pageRng, type Subject, type WebModel } from './model.js';
import {
  homeHostIndex,
  homeLinks,
  homeNeighbours,
  type PageInfo,
  pageInfo,
  planLinks,
  R_BODY,
  R_TITLE,
} from './pages.js';
import type { Rng } from './prng.js';
import { FILLER, TOPICS, type TopicId } from './topics.js';
import { freshSessionId, PRINT_PREFIX, SESSION_PARAM } from './variants.js';
import { LANGS, type Language, mention, sentence, title, type Vocab } from './vocab.js';

const DAY_MS = 86_400_000;
/** Publication dates fall in 2022–2023. */
const DATE_BASE = Date.UTC(2022, 0, 1);

const AUTHORS = {
  en: ['Anna Clarke', 'Ben Foster', 'Chloe Adams', 'David Moore', 'Emma Lewis', 'Frank Hughes'],
  zh: ['李明', '王芳', '张伟', '刘洋', '陈静', '赵磊'],
};

const softCache = new Map<TopicId, Vocab>();

/** The topic's words without its strong keywords (weight > 0.3): text of borderline pages. */
function softVocab(topic: TopicId): Vocab {
  let v = softCache.get(topic);
  if (v) return v;
  const t = TOPICS[topic];
  const strong = Object.entries(t.keywords)
    .filter(([, w]) => w > 0.3)
    .map(([k]) => k);
  const keep = (words: readonly string[]) => {
    const kept = words.filter((w) => !strong.some((k) => w.includes(k)));
    return kept.length > 0 ? kept : words.slice(0, 1);
  };
  const filler = Object.values(FILLER[t.lang])[0] as Vocab;
  const phrases = t.vocab.phrases.filter((w) => !strong.some((k) => w.includes(k)));
  v = {
    nouns: keep(t.vocab.nouns),
    adjs: keep(t.vocab.adjs),
    verbs: keep(t.vocab.verbs),
    people: keep(t.vocab.people),
    phrases: phrases.length > 0 ? phrases : filler.phrases,
  };
  softCache.set(topic, v);
  return v;
}

function langOf(info: PageInfo): Language {
  return LANGS[info.subject.lang];
}

/** Publication date (ms) of a page. */
export function pageDate(m: WebModel, id: number): number {
  return DATE_BASE + (pageRng(m, id, R_TITLE).int(730) * DAY_MS + ((id * 7919) % DAY_MS));
}

const TITLE_CACHE_LIMIT = 50_000;
const titleCaches = new WeakMap<WebModel, Map<number, string>>();

/** The page's title; titles are looked up for every link, so a bounded cache keeps them. */
export function pageTitle(m: WebModel, info: PageInfo): string {
  let cache = titleCaches.get(m);
  if (!cache) {
    cache = new Map();
    titleCaches.set(m, cache);
  }
  let t = cache.get(info.id);
  if (t === undefined) {
    if (cache.size >= TITLE_CACHE_LIMIT) cache.clear();
    t = makeTitle(m, info);
    cache.set(info.id, t);
  }
  return t;
}

function makeTitle(m: WebModel, info: PageInfo): string {
  const lang = langOf(info);
  const rng = pageRng(m, info.id, R_TITLE);
  rng.next(); // the first draw is the date
  if (info.kind === 'hub') {
    const n = (info.id % 97) + 1;
    const site = siteName(info.host);
    return lang.code === 'en' ? `${site}: reading list no. ${n}` : `${site}专题导航 第${n}期`;
  }
  const v =
    info.kind === 'weak' && info.topic !== null ? softVocab(info.topic) : info.subject.vocab;
  return title(rng, lang, v);
}

const GENERIC_ANCHORS = {
  en: ['Read more', 'this story', 'continued here', 'the full article', 'more'],
  zh: ['阅读全文', '点击查看', '更多', '详情', '原文'],
};

/** Href and anchor text of a link; `generic` hides the title of topical targets. */
function targetTitle(m: WebModel, target: number, generic?: Rng): [href: string, text: string] {
  if (target < 0) {
    const h = m.hosts[homeHostIndex(target)] as HostInfo;
    return [`http://${h.name}/`, siteName(h)];
  }
  const info = pageInfo(m, target);
  const href = `http://${info.host.name}${info.path}`;
  if (generic && info.topic !== null)
    return [href, generic.pick(GENERIC_ANCHORS[info.subject.lang])];
  return [href, pageTitle(m, info)];
}

const siteNames = new Map<string, string>();

export function siteName(h: HostInfo): string {
  let name = siteNames.get(h.name);
  if (name === undefined) {
    name = makeSiteName(h);
    siteNames.set(h.name, name);
  }
  return name;
}

function makeSiteName(h: HostInfo): string {
  const base = h.name.replace(/\.test$/, '');
  return h.lang === 'en'
    ? base
        .split('-')
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join(' ')
    : `${base}网`;
}

// Generated text needs no escaping: the word lists hold no `&<>"` (a test checks this).
function anchor(href: string, text: string): string {
  return `<a href="${href}">${text}</a>`;
}

/** Sentence source of a page: which vocabulary each sentence is drawn from. */
function sentenceSource(info: PageInfo, rng: Rng): () => string {
  const lang = langOf(info);
  const fillers = Object.values(FILLER[lang.code]);
  const other = rng.pick(fillers);
  if (info.topic !== null) {
    const topicVocab = info.kind === 'weak' ? softVocab(info.topic) : info.subject.vocab;
    const pTopic = info.faint ? 0.08 : info.kind === 'weak' ? 0.15 : 0.65;
    return () => {
      const r = rng.next();
      if (r < pTopic) return sentence(rng, lang, topicVocab);
      if (r < 0.9) return sentence(rng, lang, other);
      return rng.pick(lang.generic);
    };
  }
  return () => (rng.chance(0.9) ? sentence(rng, lang, info.subject.vocab) : rng.pick(lang.generic));
}

function head(
  parts: string[],
  lang: Language,
  titleText: string,
  site: string,
  desc: string,
): void {
  parts.push(
    `<!DOCTYPE html>\n<html lang="${lang.code === 'en' ? 'en' : 'zh-CN'}">\n<head>\n<meta charset="utf-8">\n`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n`,
    `<title>${titleText} - ${site}</title>\n`,
    `<meta name="description" content="${desc}">\n`,
    `<link rel="stylesheet" href="/static/site.css">\n</head>\n<body>\n`,
  );
}

function nav(parts: string[], lang: Language, host: HostInfo): void {
  const w = lang.words;
  parts.push(
    `<header class="site"><a class="logo" href="/">${siteName(host)}</a>\n<nav>`,
    `<a href="/">${w.home}</a> | <a href="/about.html">${w.about}</a> | `,
    `<a href="/contact.html">${w.contact}</a> | <a href="http://portal.test/">${w.portal}</a>`,
    '</nav></header>\n',
  );
}

function footer(parts: string[], lang: Language, host: HostInfo): void {
  parts.push(
    `<footer><p>© 2024 ${siteName(host)} · <a href="/about.html">${lang.words.about}</a>`,
    ` · <a href="/contact.html">${lang.words.contact}</a></p></footer>\n</body>\n</html>\n`,
  );
}

function dateText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Which rendering of a content page: the page itself (in a session) or its print view. */
export interface PageView {
  /** Session id carried by the session links (variant hosts); default: a fresh one. */
  session?: string | undefined;
  /** The print view (variant hosts): the same article, no navigation, links as text. */
  print?: boolean | undefined;
}

const PRINT_TITLE = { en: ' (printer-friendly version)', zh: '（打印版）' };
const PRINTED_FROM = { en: 'Printed from', zh: '本文打印自' };
/** Anchors of the tool links of variant hosts: print view, the page itself, the next page. */
const TOOLS: Record<Language['code'], readonly [string, string, string]> = {
  en: ['Print this article', 'Comments', 'Next page'],
  zh: ['打印本文', '评论', '下一页'],
};

/**
 * The HTML of content page `id` (which must exist). On variant hosts a line of tool links
 * follows the byline: the print view, and the page itself and the next page of its cluster
 * with a session id (the one of the request, or a fresh one).
 */
export function renderPage(m: WebModel, id: number, view: PageView = {}): string {
  const info = pageInfo(m, id);
  const lang = langOf(info);
  const rng = pageRng(m, id, R_BODY);
  const links = planLinks(m, info);
  const t = pageTitle(m, info);
  const next = sentenceSource(info, rng);
  const parts: string[] = [];
  const generic = info.faint ? rng : undefined;
  const variant = m.variantHosts.has(info.host.index);
  const print = variant && view.print === true;
  const session = variant ? (view.session ?? freshSessionId(m.seed, id)) : undefined;
  /** A link, or its text alone in the print view. */
  const a = print ? (_href: string, text: string) => text : anchor;
  const first = next();
  const site = siteName(info.host);
  head(parts, lang, print ? t + PRINT_TITLE[lang.code] : t, site, first);
  if (!print) nav(parts, lang, info.host);
  const author = rng.pick(AUTHORS[lang.code]);
  parts.push(
    `<main>\n<article>\n<h1>${t}</h1>\n`,
    `<p class="byline">${lang.words.by} ${author} · <time>${dateText(pageDate(m, id))}</time></p>\n`,
  );
  if (print) {
    const url = `http://${info.host.name}${info.path}`;
    parts.push(`<p class="printed">${PRINTED_FROM[lang.code]} ${anchor(url, url)}</p>\n`);
  } else if (session !== undefined) {
    const [printText, selfText, nextText] = TOOLS[lang.code];
    const q = `?${SESSION_PARAM}=${session}`;
    const selfUrl = `http://${info.host.name}${info.path}${q}`;
    const nextUrl = `http://${info.host.name}${pageInfo(m, links.next).path}${q}`;
    parts.push(
      `<p class="tools">${anchor(PRINT_PREFIX + info.path, printText)} · `,
      `${anchor(selfUrl, selfText)} · ${anchor(nextUrl, nextText)}</p>\n`,
    );
  }
  const nParas = info.kind === 'hub' ? 3 : rng.range(9, 14) + (lang.code === 'zh' ? 1 : 0);
  const inline = links.inline;
  let li = 0;
  // Where the single keyword mention of a 'near' page goes.
  const mentionAt = info.kind === 'near' ? rng.int(nParas) : -1;
  for (let p = 0; p < nParas; p++) {
    const sents: string[] = p === 0 ? [first] : [];
    const n = rng.range(6, 9);
    while (sents.length < n) sents.push(next());
    if (p === mentionAt && info.mentionTopic !== null) {
      const kws = Object.keys(TOPICS[info.mentionTopic].keywords);
      sents.splice(rng.int(sents.length), 0, mention(rng, lang, rng.pick(kws)));
    }
    // Spread inline links over the paragraphs, each with a few words around it.
    const perPara = Math.ceil(inline.length / nParas);
    for (let k = 0; k < perPara && li < inline.length; k++, li++) {
      const [href, text] = targetTitle(m, inline[li] as number, generic);
      const at = rng.int(sents.length + 1);
      const link =
        lang.code === 'en'
          ? `${rng.pick(EN_LEADS)} ${a(href, text)}.`
          : `${rng.pick(ZH_LEADS)}${a(href, text)}》。`;
      sents.splice(at, 0, link);
    }
    parts.push('<p>', sents.join(lang.space), '</p>\n');
  }
  if (links.extra.length > 0) {
    // Entry and bridge pages: a paragraph pointing onwards (towards a hidden region).
    const items = links.extra.map((x) => {
      const [href, text] = targetTitle(m, x);
      return a(href, text);
    });
    parts.push(
      '<p class="tip">',
      lang.code === 'en' ? 'A reader sent us these links: ' : '有读者推荐了以下链接：',
      items.join(lang.code === 'en' ? ', ' : '、'),
      '</p>\n',
    );
  }
  if (print) {
    parts.push('</article>\n</main>\n</body>\n</html>\n');
    return parts.join('');
  }
  const [nextHref, nextText] = targetTitle(m, links.next, generic);
  parts.push(
    `<p class="next">${lang.code === 'en' ? 'Next' : '下一篇'}: ${anchor(nextHref, nextText)}</p>\n`,
  );
  parts.push('</article>\n<section class="related">\n<h2>', lang.words.related, '</h2>\n<ul>\n');
  for (const r of links.related) {
    const [href, text] = targetTitle(m, r, generic);
    parts.push('<li>', anchor(href, text), '</li>\n');
  }
  parts.push('</ul>\n</section>\n<aside>\n<h3>', lang.words.popular, '</h3>\n<ul>\n');
  for (const r of links.popular) {
    const [href, text] = targetTitle(m, r);
    parts.push('<li>', anchor(href, text), '</li>\n');
  }
  parts.push('</ul>\n</aside>\n</main>\n');
  footer(parts, lang, info.host);
  return parts.join('');
}

const EN_LEADS = ['See also', 'Read more in', 'We wrote about this in', 'Compare with', 'Related:'];
const ZH_LEADS = ['详见《', '相关阅读：《', '可参考《', '延伸阅读：《', '此前报道：《'];

/** Vocabulary of a host's home page. */
function homeVocab(host: HostInfo): [Vocab, Subject['lang']] {
  if (host.topic !== null) return [TOPICS[host.topic].vocab, host.lang];
  return [Object.values(FILLER[host.lang])[host.index % 10] as Vocab, host.lang];
}

/** The home page of a topical host: an introduction, the latest articles, other sites. */
export function renderHome(m: WebModel, host: HostInfo): string {
  const [vocab, code] = homeVocab(host);
  const lang = LANGS[code];
  const rng = pageRng(m, host.index, 0x40d);
  const parts: string[] = [];
  const site = siteName(host);
  const intro: string[] = [];
  for (let i = 0; i < 5; i++) intro.push(sentence(rng, lang, vocab));
  head(parts, lang, lang.words.home, site, intro[0] as string);
  nav(parts, lang, host);
  parts.push(`<main>\n<h1>${site}</h1>\n<p class="intro">${intro.join(lang.space)}</p>\n`);
  parts.push('<section class="latest">\n<h2>', lang.words.latest, '</h2>\n<ul>\n');
  for (const id of homeLinks(m, host)) {
    const [href, text] = targetTitle(m, id);
    parts.push(
      '<li>',
      anchor(href, text),
      ` <span class="date">${dateText(pageDate(m, id))}</span></li>\n`,
    );
  }
  parts.push('</ul>\n</section>\n<aside>\n<ul>\n');
  for (const h of homeNeighbours(m, host)) {
    const other = m.hosts[h] as HostInfo;
    parts.push('<li>', anchor(`http://${other.name}/`, siteName(other)), '</li>\n');
  }
  parts.push('</ul>\n</aside>\n</main>\n');
  footer(parts, lang, host);
  return parts.join('');
}
