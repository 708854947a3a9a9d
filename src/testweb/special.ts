// Special hosts for fetcher tests: robots.txt variants, statuses, redirects, a spider trap,
// session-id URLs and very large pages. See docs/testweb.md for the contract.
import { esc, htmlReply, notFound, simplePage, textReply } from './html.js';
import { hashString, hexId } from './prng.js';
import type { Ctx, Handler, Reply } from './types.js';

// ---------------------------------------------------------------- robots.txt hosts

const ROBOTS_RULES = [
  '# robots.txt of robots-rules.test',
  'User-agent: *',
  'Disallow: /',
  '',
  'User-agent: focuscrawl',
  'Disallow: /private/',
  'Allow: /private/open',
  'Disallow: /*.pdf$',
  'Disallow: /search?',
  '',
].join('\n');

const ROBOTS_DELAY = ['User-agent: *', 'Crawl-delay: 0.5', 'Disallow:', ''].join('\n');

let hugeRobots: string | undefined;

/** About 600 KiB of rules; `/blocked-late/` appears only after 550 KiB. */
export function hugeRobotsTxt(): string {
  if (hugeRobots !== undefined) return hugeRobots;
  const parts = ['User-agent: *', 'Disallow: /blocked-early/'];
  let bytes = 40;
  let i = 0;
  while (bytes < 551 * 1024) {
    const line = `Disallow: /filler/${String(i++).padStart(6, '0')}/`;
    parts.push(line);
    bytes += line.length + 1;
  }
  parts.push('Disallow: /blocked-late/');
  while (bytes < 600 * 1024) {
    const line = `Disallow: /filler/${String(i++).padStart(6, '0')}/`;
    parts.push(line);
    bytes += line.length + 1;
  }
  parts.push('');
  hugeRobots = parts.join('\n');
  return hugeRobots;
}

const ROBOTS_PAGE_LINKS: readonly (readonly [string, string])[] = [
  ['/', 'Home'],
  ['/public/page', 'A public page'],
  ['/private/secret', 'A private page'],
  ['/private/open', 'The open private page'],
  ['/private/open/more', 'More of the open part'],
  ['/files/report.pdf', 'A PDF report'],
  ['/files/report.pdf?download=1', 'The PDF report, downloaded'],
  ['/search?q=test', 'Search results'],
  ['/search', 'Search form'],
  ['/blocked-early/page', 'Early blocked page'],
  ['/blocked-late/page', 'Late blocked page'],
];

function robotsHost(robots: (ctx: Ctx) => Reply): Handler {
  return (ctx) => {
    if (ctx.pathname === '/robots.txt') return robots(ctx);
    return htmlReply(
      simplePage(
        `${ctx.host} ${ctx.pathname}`,
        [`This is ${esc(ctx.path)} on ${esc(ctx.host)}.`],
        ROBOTS_PAGE_LINKS,
      ),
    );
  };
}

export const robotsHosts: Record<string, Handler> = {
  'robots-rules.test': robotsHost(() => textReply(ROBOTS_RULES)),
  'robots-delay.test': robotsHost(() => textReply(ROBOTS_DELAY)),
  'robots-404.test': robotsHost(() => htmlReply(simplePage('Not found', ['No robots.txt']), 404)),
  'robots-500.test': robotsHost(() =>
    htmlReply(simplePage('Server error', ['robots.txt failed']), 500),
  ),
  'robots-huge.test': robotsHost(() => textReply(hugeRobotsTxt())),
};

// ---------------------------------------------------------------- status.test

function statusPage(status: number, extra: Record<string, string> = {}): Reply {
  if (status === 204 || status === 304 || status < 200) return { status, headers: { ...extra } };
  return htmlReply(
    simplePage(`Status ${status}`, [`This page answers with HTTP status ${status}.`]),
    status,
    extra,
  );
}

function okPage(ctx: Ctx, note: string): Reply {
  return htmlReply(simplePage(`OK ${ctx.pathname}`, [esc(note)], [['/', 'status.test home']]));
}

function intParam(value: string | null, fallback: number, max: number): number {
  if (value === null || value === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.min(Math.floor(n), max) : fallback;
}

const statusHost: Handler = (ctx) => {
  const p = ctx.pathname;
  if (p === '/' || p === '/200') {
    const codes = ['404', '500', '503', '410', '429?retry-after=1'];
    return htmlReply(
      simplePage(
        'status.test',
        ['Pages answering with various statuses.'],
        codes.map((c) => [`/${c}`, `Status ${c}`] as const),
      ),
    );
  }
  const m = /^\/(\d{3})$/.exec(p);
  if (m) {
    const status = Number(m[1]);
    if (status === 429) {
      const seen = ctx.state.bump(`429 ${ctx.path}`);
      if (seen > 1) return okPage(ctx, 'Retried after 429.');
      const retryAfter = ctx.query.get('retry-after') ?? '1';
      return statusPage(429, { 'retry-after': retryAfter });
    }
    if (status >= 200 && status <= 599) return statusPage(status);
  }
  const flaky = /^\/flaky\/([^/]+)$/.exec(p);
  if (flaky) {
    const fail = intParam(ctx.query.get('fail'), 1, 1_000_000);
    const status = intParam(ctx.query.get('status'), 503, 599);
    const n = ctx.state.bump(`flaky ${flaky[1]}`);
    return n <= fail ? statusPage(status >= 100 ? status : 503) : okPage(ctx, `Attempt ${n}.`);
  }
  const reset = /^\/reset\/([^/]+)$/.exec(p);
  if (reset) {
    const fail = intParam(ctx.query.get('fail'), 1, 1_000_000);
    const n = ctx.state.bump(`reset ${reset[1]}`);
    if (n <= fail) {
      ctx.req.socket.destroy();
      return null;
    }
    return okPage(ctx, `Attempt ${n}.`);
  }
  return notFound(`No such page on status.test: ${ctx.path}`);
};

// ---------------------------------------------------------------- redirect.test

function redirect(status: number, location: string): Reply {
  return htmlReply(
    simplePage('Moved', [`Moved to <a href="${esc(location)}">${esc(location)}</a>.`]),
    status,
    { location },
  );
}

const redirectHost: Handler = (ctx) => {
  const p = ctx.pathname;
  const chain = /^\/(chain|chain302)\/(\d{1,6})$/.exec(p);
  if (chain) {
    const n = Number(chain[2]);
    if (n === 0) return okPage(ctx, 'End of the redirect chain.');
    return redirect(chain[1] === 'chain' ? 301 : 302, `/${chain[1]}/${n - 1}`);
  }
  if (p === '/loop/a') return redirect(302, '/loop/b');
  if (p === '/loop/b') return redirect(302, '/loop/a');
  if (p === '/to') {
    const url = ctx.query.get('url');
    if (url === null || url === '') return htmlReply(simplePage('Bad request', ['url?']), 400);
    return redirect(302, url);
  }
  if (p === '/relative') return redirect(301, '../chain/0');
  if (p === '/') {
    return htmlReply(
      simplePage(
        'redirect.test',
        ['Redirect chains and loops.'],
        [
          ['/chain/3', 'A chain of 3 redirects'],
          ['/chain302/3', 'A chain of 3 temporary redirects'],
          ['/loop/a', 'A redirect loop'],
          ['/relative', 'A relative redirect'],
        ],
      ),
    );
  }
  return notFound(`No such page on redirect.test: ${ctx.path}`);
};

// ---------------------------------------------------------------- trap.test

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function monthPath(y: number, m: number): string {
  return `/calendar/${String(y).padStart(4, '0')}/${String(m).padStart(2, '0')}`;
}

const trapHost: Handler = (ctx) => {
  const p = ctx.pathname;
  if (p === '/') {
    return htmlReply(
      simplePage(
        'Events calendar',
        ['Browse our events by month.'],
        [[monthPath(2024, 1), 'January 2024']],
      ),
    );
  }
  const m = /^\/calendar\/(\d{4,6})\/(\d{2})$/.exec(p);
  if (!m) return notFound(`No such page on trap.test: ${ctx.path}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  if (mo < 1 || mo > 12 || y < 1) return notFound(`No such month: ${p}`);
  const prev = mo === 1 ? monthPath(y - 1, 12) : monthPath(y, mo - 1);
  const next = mo === 12 ? monthPath(y + 1, 1) : monthPath(y, mo + 1);
  const name = `${MONTHS[mo - 1]} ${y}`;
  const links: [string, string][] = [
    [prev, 'Previous month'],
    [next, 'Next month'],
    ['/', 'Calendar home'],
  ];
  if (y > 1) links.push([monthPath(y - 1, mo), 'Same month last year']);
  links.push([monthPath(y + 1, mo), 'Same month next year']);
  return htmlReply(
    simplePage(
      `Events in ${name}`,
      [`No events are planned in ${name}. Check other months.`],
      links,
    ),
  );
};

// ---------------------------------------------------------------- session.test

const ARTICLES = 50;

function sessionLink(n: number, sid: string): string {
  return n % 2 === 0 ? `/article/${n}?sid=${sid}` : `/article/${n};jsessionid=${sid.toUpperCase()}`;
}

const sessionHost: Handler = (ctx) => {
  const p = ctx.pathname;
  let n = -1;
  let sid = '';
  const m = /^\/article\/(\d+)(?:;jsessionid=([^/?]*))?$/.exec(p);
  if (m) {
    n = Number(m[1]);
    sid = m[2] ?? ctx.query.get('sid') ?? '';
  } else if (p !== '/') {
    return notFound(`No such page on session.test: ${ctx.path}`);
  }
  if (n >= ARTICLES) return notFound(`No such article: ${n}`);
  const base = hashString(`${sid}|${n}`);
  const targets =
    n < 0 ? [0, 1, 2, 3, 4] : [(n + 1) % ARTICLES, (n + 2) % ARTICLES, (n * 7 + 3) % ARTICLES];
  const links = targets.map(
    (t, i) => [sessionLink(t, hexId(base + i * 7919, 16)), `Article ${t}`] as const,
  );
  if (n < 0) return htmlReply(simplePage('session.test', ['Articles with session ids.'], links));
  const body = simplePage(
    `Article ${n}`,
    [
      `Article number ${n}. Its text is the same whatever the session id in the URL.`,
      `The quick brown fox jumps over the lazy dog ${n} times.`,
    ],
    links,
  ).replace('<title>', `<link rel="canonical" href="/article/${n}"><title>`);
  return htmlReply(body);
};

export const specialHosts: Record<string, Handler> = {
  ...robotsHosts,
  'status.test': statusHost,
  'redirect.test': redirectHost,
  'trap.test': trapHost,
  'session.test': sessionHost,
};
