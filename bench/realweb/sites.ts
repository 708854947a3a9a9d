// The real sites of the benchmark: documentation installed from Debian packages, each
// served as one virtual host of the local server (server.ts). Nothing here is copied
// into the repository; a fresh machine installs the packages with apt-get (APT_LINE).
import { existsSync } from 'node:fs';

export interface Site {
  /** Short id, also the first label of the host name. */
  id: string;
  host: string;
  /** The site's title: the portal's anchor text for its home page. */
  title: string;
  /** Debian packages that install it (the first one holds the pages). */
  packages: string[];
  /** Directory served as the host's root. */
  root: string;
  /**
   * Pages the portal links, as [path, anchor text]; the first is the home page.
   * Usually just the home page; LibreOffice's help navigates by JavaScript only (its
   * contents tree and module menu are built by scripts), so the portal links what the
   * help's module menu links (help2.js setupModules), with its anchor texts.
   */
  entries: Array<[string, string]>;
  /** Optional sites are served when installed and skipped otherwise. */
  optional?: boolean;
}

export const DOMAIN = 'docs.test';
export const PORTAL_HOST = `portal.${DOMAIN}`;

const LO = '/zh-CN/text';

export const SITES: Site[] = [
  {
    id: 'git',
    host: `git.${DOMAIN}`,
    title: 'Git documentation',
    packages: ['git-doc'],
    root: '/usr/share/doc/git-doc',
    entries: [['/', 'Git documentation']],
  },
  {
    id: 'apache',
    host: `apache.${DOMAIN}`,
    title: 'Apache HTTP Server Version 2.4 Documentation',
    packages: ['apache2-doc'],
    root: '/usr/share/doc/apache2-doc/manual',
    entries: [['/', 'Apache HTTP Server Version 2.4 Documentation']],
  },
  {
    id: 'sqlite',
    host: `sqlite.${DOMAIN}`,
    title: 'SQLite documentation',
    packages: ['sqlite3-doc'],
    root: '/usr/share/doc/sqlite3',
    entries: [['/', 'SQLite documentation']],
  },
  {
    id: 'postgresql',
    host: `postgresql.${DOMAIN}`,
    title: 'PostgreSQL 15 Documentation',
    packages: ['postgresql-doc-15'],
    root: '/usr/share/doc/postgresql-doc-15/html',
    entries: [['/', 'PostgreSQL 15 Documentation']],
  },
  {
    id: 'gimp',
    host: `gimp.${DOMAIN}`,
    title: 'GNU 图像处理程序 (GIMP) 用户手册',
    packages: ['gimp-help-zh-cn'],
    root: '/usr/share/gimp/2.0/help/zh_CN',
    entries: [['/', 'GNU 图像处理程序 (GIMP) 用户手册']],
  },
  {
    id: 'libreoffice',
    host: `libreoffice.${DOMAIN}`,
    title: 'LibreOffice 帮助',
    packages: ['libreoffice-help-zh-cn', 'libreoffice-help-common'],
    root: '/usr/share/libreoffice/help',
    entries: [
      [`${LO}/shared/05/new_help.html?DbPAR=SHARED`, 'LibreOffice 帮助'],
      [`${LO}/swriter/main0000.html?DbPAR=WRITER`, 'Writer'],
      [`${LO}/scalc/main0000.html?DbPAR=CALC`, 'Calc'],
      [`${LO}/simpress/main0000.html?DbPAR=IMPRESS`, 'Impress'],
      [`${LO}/sdraw/main0000.html?DbPAR=DRAW`, 'Draw'],
      [`${LO}/sdatabase/main.html?DbPAR=BASE`, 'Base'],
      [`${LO}/smath/main0000.html?DbPAR=MATH`, 'Math'],
      [`${LO}/schart/main0000.html?DbPAR=CHART`, 'Chart'],
      [`${LO}/sbasic/shared/main0601.html?DbPAR=BASIC`, 'Basic'],
    ],
  },
  {
    id: 'debian-reference',
    host: `debian-reference.${DOMAIN}`,
    title: 'Debian 参考手册',
    packages: ['debian-reference-zh-cn'],
    root: '/usr/share/debian-reference',
    entries: [['/index.zh-cn.html', 'Debian 参考手册']],
    optional: true,
  },
  {
    id: 'maint-guide',
    host: `maint-guide.${DOMAIN}`,
    title: 'Debian 新维护者手册',
    packages: ['maint-guide-zh-cn'],
    root: '/usr/share/doc/maint-guide-zh-cn/html',
    entries: [['/index.zh-cn.html', 'Debian 新维护者手册']],
    optional: true,
  },
  {
    id: 'debian-faq',
    host: `debian-faq.${DOMAIN}`,
    title: 'Debian GNU/Linux 常见问题 (FAQ)',
    packages: ['debian-faq-zh-cn'],
    root: '/usr/share/doc/debian/FAQ/zh-cn',
    entries: [['/index.zh-cn.html', 'Debian GNU/Linux 常见问题 (FAQ)']],
    optional: true,
  },
];

/** A site is there when its root and home page are. */
export function siteInstalled(site: Site): boolean {
  const home = (site.entries[0]?.[0] ?? '/').replace(/\?.*/, '');
  return existsSync(site.root) && (home === '/' || existsSync(site.root + home));
}

/** The sites to serve: every installed one; throws naming the packages of missing required ones (of `ids`, all by default). */
export function availableSites(ids?: readonly string[]): Site[] {
  const wanted = ids ? SITES.filter((s) => ids.includes(s.id)) : SITES;
  const missing = wanted.filter((s) => !s.optional && !siteInstalled(s));
  if (missing.length > 0) {
    const pkgs = missing.flatMap((s) => s.packages);
    throw new Error(
      `missing documentation packages: ${pkgs.join(' ')} ` +
        `(apt-get install -y --no-install-recommends ${pkgs.join(' ')})`,
    );
  }
  return wanted.filter(siteInstalled);
}

/** Every package of every site: the apt-get line of a fresh machine. */
export const APT_PACKAGES = SITES.flatMap((s) => s.packages);
export const APT_LINE = `apt-get install -y --no-install-recommends ${APT_PACKAGES.join(' ')}`;

export function siteById(id: string): Site {
  const s = SITES.find((x) => x.id === id);
  if (!s) throw new Error(`unknown site ${id}`);
  return s;
}
