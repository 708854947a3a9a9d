// The topics: a focuscrawl topic file each (topics/<id>.json: a handful of weighted
// keywords written by hand) and a label set read from the site's own table of contents
// by the rule below (`rule` says it in words, for BENCHMARKS.md). A labelled page is a
// file: URLs that serve the same file (symlinks, `dir/` and `dir/index.html`, queries)
// are the same page.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Anchor, baseOf, parseHtml, resolveLink } from './html.js';
import { resolvePath } from './server.js';
import { type Site, siteById } from './sites.js';

export interface TopicDef {
  id: string;
  site: string;
  rule: string;
  /** Labelled URLs, read from the site's files. */
  labels(toc: Toc): string[];
}

export interface TopicFile {
  name: string;
  language: string;
  keywords: Record<string, number>;
}

const here = dirname(fileURLToPath(import.meta.url));
export const topicPath = (id: string) => join(here, 'topics', `${id}.json`);
export function topicFile(id: string): TopicFile {
  return JSON.parse(readFileSync(topicPath(id), 'utf8')) as TopicFile;
}

/** Reads a site's pages from disk, as the server would serve them. */
export class Toc {
  constructor(readonly site: Site) {}
  url(path: string): string {
    return `http://${this.site.host}${path}`;
  }
  /** The anchors of a page, their hrefs made absolute (no #fragment). */
  anchors(path: string): Array<Anchor & { url: string }> {
    const r = resolvePath(this.site.root, path);
    if (r.status !== 200 || !r.file) throw new Error(`${this.url(path)}: ${r.status}`);
    const page = parseHtml(readFileSync(r.file, 'utf8'));
    const base = baseOf(page, this.url(path));
    return page.anchors.flatMap((a) => {
      const url = resolveLink(a.href, base);
      return url?.startsWith(`http://${this.site.host}/`) ? [{ ...a, url }] : [];
    });
  }
  /** A chapter: its page and every page its first `div.toc` links (PostgreSQL, GIMP). */
  chapter(path: string): string[] {
    const toc = this.anchors(path).filter((a) => a.within.includes('div.toc'));
    return [this.url(path), ...toc.map((a) => a.url)];
  }
  /** Pages `div.toc` of `path` links with anchor text matching `re`. */
  tocEntries(path: string, re: RegExp): string[] {
    return this.anchors(path)
      .filter((a) => a.within.includes('div.toc') && re.test(a.text))
      .map((a) => a.url);
  }
  /**
   * LibreOffice: the pages under a section of the help's contents tree (zh-CN/contents.js,
   * generated markup: `<li><input id="0803"><label>…</label><ul>…<a href>…</ul></li>`).
   */
  contents(section: string): string[] {
    const js = readFileSync(join(this.site.root, 'zh-CN', 'contents.js'), 'utf8');
    const open: Array<string | undefined> = [];
    const out: string[] = [];
    for (const m of js.matchAll(/<(\/?)(li|input|a)\b([^>]*)>/g)) {
      const [, close, tag, attrs = ''] = m;
      if (tag === 'li') {
        if (close) open.pop();
        else open.push(undefined);
      } else if (tag === 'input' && open.length > 0) {
        open[open.length - 1] = /\bid="([^"]*)"/.exec(attrs)?.[1];
      } else if (tag === 'a' && open.includes(section)) {
        const href = /\bhref="([^"]*)"/.exec(attrs)?.[1];
        const url = href === undefined ? undefined : resolveLink(href, this.url('/'));
        if (url) out.push(url);
      }
    }
    return out;
  }
}

const PG = 'postgresql';
const internalsIndexChapters = (t: Toc) =>
  t
    .tocEntries('/internals.html', /^\d+\. (.* Indexes|Index Access Method .*)$/)
    .flatMap((u) => t.chapter(new URL(u).pathname));

export const TOPICS: TopicDef[] = [
  {
    id: 'git-plumbing',
    site: 'git',
    rule: 'git.html: every page linked under "Low-level commands (plumbing)" (its four command lists)',
    labels: (t) =>
      t
        .anchors('/git.html')
        .filter((a) => a.h2 === '_low_level_commands_plumbing')
        .map((a) => a.url),
  },
  {
    id: 'git-formats',
    site: 'git',
    rule:
      'git.html: every page linked under "Repository, command and file interfaces" and ' +
      '"File formats, protocols and other developer interfaces"',
    labels: (t) =>
      t
        .anchors('/git.html')
        .filter(
          (a) =>
            a.h2 === '_repository_command_and_file_interfaces' ||
            a.h2 === '_file_formats_protocols_and_other_developer_interfaces',
        )
        .map((a) => a.url),
  },
  {
    id: 'sqlite-lang',
    site: 'sqlite',
    rule: 'lang.html ("SQL As Understood By SQLite") and the syntax topics its list links',
    labels: (t) => [
      t.url('/lang.html'),
      ...t
        .anchors('/lang.html')
        .filter((a) => a.within.includes('div.columns'))
        .map((a) => a.url),
    ],
  },
  {
    id: 'pg-fts',
    site: PG,
    rule:
      'chapter "Full Text Search" (textsearch.html and its contents) + the SQL commands whose ' +
      'title has TEXT SEARCH + the "Text Search" sections of the functions and data types chapters',
    labels: (t) => [
      ...t.chapter('/textsearch.html'),
      ...t.tocEntries('/sql-commands.html', /TEXT SEARCH/),
      ...t.tocEntries('/functions.html', /Text Search/),
      ...t.tocEntries('/datatype.html', /Text Search/),
    ],
  },
  {
    id: 'pg-indexes',
    site: PG,
    rule:
      'chapter "Indexes" + the internals chapters on index access methods and each index type ' +
      '(B-Tree, GiST, SP-GiST, GIN, BRIN, Hash), with their contents + the SQL commands on indexes',
    labels: (t) => [
      ...t.chapter('/indexes.html'),
      ...internalsIndexChapters(t),
      ...t.tocEntries('/sql-commands.html', /\b(RE)?INDEX\b/),
    ],
  },
  {
    id: 'pg-replication',
    site: PG,
    rule:
      'chapters "Backup and Restore", "High Availability, Load Balancing, and Replication" and ' +
      '"Logical Replication", with their contents',
    labels: (t) => [
      ...t.chapter('/backup.html'),
      ...t.chapter('/high-availability.html'),
      ...t.chapter('/logical-replication.html'),
    ],
  },
  {
    id: 'pg-libpq',
    site: PG,
    rule: 'chapter "libpq — C Library" (libpq.html and its contents)',
    labels: (t) => t.chapter('/libpq.html'),
  },
  {
    id: 'apache-auth',
    site: 'apache',
    rule:
      'English only: the modules of en/mod/index.html named mod_auth* (authentication and ' +
      'authorization providers) + the how-tos of en/howto/index.html on authentication and access control',
    labels: (t) => [
      ...t
        .anchors('/en/mod/index.html')
        .filter((a) => /^mod_auth/.test(a.href))
        .map((a) => a.url),
      ...t
        .anchors('/en/howto/index.html')
        .filter((a) => /authentication|access control/i.test(a.text) && /^[a-z]/.test(a.href))
        .map((a) => a.url),
    ],
  },
  {
    id: 'lo-calc-functions',
    site: 'libreoffice',
    rule: 'contents.js: 电子表格 (Calc) › 函数 (公式) 类别及运算符',
    labels: (t) => t.contents('0803'),
  },
  {
    id: 'lo-impress',
    site: 'libreoffice',
    rule: 'contents.js: 演示文稿 (Impress), the whole section',
    labels: (t) => t.contents('04'),
  },
  {
    id: 'lo-math',
    site: 'libreoffice',
    rule: 'contents.js: 公式 (Math), the whole section',
    labels: (t) => t.contents('03'),
  },
  {
    id: 'lo-writer',
    site: 'libreoffice',
    rule: 'contents.js: 文本文档 (Writer), the whole section',
    labels: (t) => t.contents('02'),
  },
  {
    id: 'gimp-filters',
    site: 'gimp',
    rule: 'chapter 17 "虑镜" (filters.html and its contents)',
    labels: (t) => t.chapter('/filters.html'),
  },
  {
    id: 'gimp-tools',
    site: 'gimp',
    rule: 'chapter 14 "工具" (gimp-tools.html and its contents)',
    labels: (t) => t.chapter('/gimp-tools.html'),
  },
];

export function topicById(id: string): TopicDef {
  const t = TOPICS.find((x) => x.id === id);
  if (!t) throw new Error(`unknown topic ${id} (topics: ${TOPICS.map((x) => x.id).join(', ')})`);
  return t;
}

export interface Labels {
  /** Labelled files (real paths) → the first URL that names each. */
  files: Map<string, string>;
  /** Labelled URLs that did not resolve to a page (should be none). */
  missing: string[];
}

/** The label set of a topic, as files; a URL redirecting to a directory counts as its index. */
export function labelsOf(topic: TopicDef): Labels {
  const site = siteById(topic.site);
  const files = new Map<string, string>();
  const missing: string[] = [];
  for (const url of topic.labels(new Toc(site))) {
    const u = new URL(url);
    let r = resolvePath(site.root, u.pathname);
    if (r.status === 301 && r.location) r = resolvePath(site.root, r.location);
    if (r.status === 200 && r.file) {
      if (!files.has(r.file)) files.set(r.file, url);
    } else {
      missing.push(url);
    }
  }
  return { files, missing };
}
