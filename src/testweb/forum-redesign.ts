/**
 * The forums' redesign (docs/testweb.md): from the simulated instant `forumRedesignMs`
 * (a startTestWeb option; by default never), forum.test and bbs.forum.test move to
 * another URL scheme, as a site does when it changes its software: `/board/N` becomes
 * `/forums/N`, `/thread/N` `/topics/N`, `/print/thread/N` `/print/topics/N`, `/user/N`
 * `/members/N` (queries as before). Pages link with the new URLs; an old URL answers
 * 301 with its new one; a new URL before the redesign is a 404. It is what a site
 * model learnt before the change meets: links matching none of its patterns.
 */

const OLD_TO_NEW: [RegExp, (n: string) => string][] = [
  [/^\/print\/thread\/(\d{1,9})$/, (n) => `/print/topics/${n}`],
  [/^\/board\/(\d{1,9})$/, (n) => `/forums/${n}`],
  [/^\/thread\/(\d{1,9})$/, (n) => `/topics/${n}`],
  [/^\/user\/(\d{1,9})$/, (n) => `/members/${n}`],
];
const NEW_TO_OLD: [RegExp, (n: string) => string][] = [
  [/^\/print\/topics\/(\d{1,9})$/, (n) => `/print/thread/${n}`],
  [/^\/forums\/(\d{1,9})$/, (n) => `/board/${n}`],
  [/^\/topics\/(\d{1,9})$/, (n) => `/thread/${n}`],
  [/^\/members\/(\d{1,9})$/, (n) => `/user/${n}`],
];

function map(table: typeof OLD_TO_NEW, pathname: string): string | null {
  for (const [re, to] of table) {
    const m = re.exec(pathname);
    if (m !== null) return to(m[1] as string);
  }
  return null;
}

/** The new path of an old-scheme path, or null when it is not one. */
export function redesignedPath(pathname: string): string | null {
  return map(OLD_TO_NEW, pathname);
}

/** The old path a new-scheme path stands for, or null when it is not one. */
export function originalPath(pathname: string): string | null {
  return map(NEW_TO_OLD, pathname);
}

/** A page's HTML with its same-site links (`href="/…"`) in the new scheme. */
export function redesignHtml(html: string): string {
  return html.replace(/href="(\/[^"?#]*)([^"]*)"/g, (all, path: string, rest: string) => {
    const to = redesignedPath(path);
    return to === null ? all : `href="${to}${rest}"`;
  });
}
