/**
 * A synthetic discussion site for tests, built from HTML strings (no network): list
 * pages of items, item pages with a varying number of posts, a stripped print view of
 * each item (another layout, the same text), a form page that says the same thing for
 * every item, and short profile pages. And a small site model written by hand.
 */
import { seededRandom } from '../util/index.js';
import type { SiteModel } from './model.js';
import type { SamplePage } from './sample.js';

export const HOST = 'bbs.example.test';
const BASE = `https://${HOST}`;

const WORDS = (
  'river stone garden lamp window paper copper signal harbor meadow engine pepper ' +
  'violet marble thunder canvas orbit falcon willow ember cobalt lantern quartz ' +
  'saddle timber velvet anchor beacon cedar dune fable glacier hollow island jasmine ' +
  'kettle lagoon mosaic nectar oasis prairie quiver ripple summit tundra umbra vessel'
).split(' ');

function words(rnd: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(rnd() * WORDS.length)]!);
  return out.join(' ');
}

const NAV =
  '<ul class="menu"><li><a href="/">Home</a></li><li><a href="/list/1">General</a></li>' +
  '<li><a href="/list/2">Help</a></li><li><a href="/search">Search</a></li>' +
  '<li><a href="/rules">Rules</a></li><li><a href="/about">About</a></li></ul>';
const FOOT =
  '<div class="foot"><p>Powered by a small engine, all rights reserved</p>' +
  '<a href="/terms">Terms</a> <a href="/privacy">Privacy</a> <a href="/contact">Contact</a></div>';

function page(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body>${NAV}${body}${FOOT}</body></html>`;
}

export interface SiteOptions {
  seed?: number;
  lists?: number;
  items?: number;
  prints?: number;
  forms?: number;
  users?: number;
}

/** The item ids listed on list page `n`. */
function listed(n: number): number[] {
  return Array.from({ length: 12 }, (_, k) => 100 + ((n * 7 + k * 3) % 60));
}

function posts(id: number): string[] {
  const rnd = seededRandom(id * 7919);
  const k = 2 + (id % 6);
  return Array.from({ length: k }, () => words(rnd, 40 + Math.floor(rnd() * 30)));
}

export function listPage(n: number): string {
  const rows = listed(n)
    .map(
      (id) =>
        `<tr class="row"><td class="icon"><img src="/i.png" alt=""></td>` +
        `<td class="title"><a href="/t/${id}">${words(seededRandom(id), 5)}</a></td>` +
        `<td class="by"><a href="/u/user${id % 9}">user${id % 9}</a></td>` +
        `<td class="num">${id % 13}</td><td class="num">${id % 17}</td></tr>`,
    )
    .join('');
  const pager = [1, 2, 3].map((p) => `<a href="/list/${n}?page=${p}">${p}</a>`).join(' ');
  return page(
    `List ${n}`,
    `<h1>List ${n}</h1><table class="items">${rows}</table><div class="pager">${pager}</div>`,
  );
}

export function itemPage(id: number): string {
  const body = posts(id)
    .map((text, k) => {
      const u = `user${(id + k) % 9}`;
      return (
        `<div class="post"><div class="author"><img class="avatar" src="/a.png" alt="">` +
        `<a class="name" href="/u/${u}">${u}</a><span class="stat">Posts: ${id + k}</span>` +
        `<span class="stat">Joined ${2000 + k}</span></div><div class="text"><p>${text}</p></div>` +
        `<ul class="tools"><li><a href="/form?item=${id}">Answer</a></li>` +
        `<li><a href="/form?item=${id}&amp;quote=${k}">Quote</a></li><li><a href="#top">Top</a></li></ul></div>`
      );
    })
    .join('');
  return page(
    `Item ${id}`,
    `<h1>${words(seededRandom(id), 5)}</h1><div class="posts">${body}</div><a href="/print/${id}">Print</a>`,
  );
}

export function strippedPage(id: number): string {
  const body = posts(id)
    .map((text, k) => `<div><b>user${(id + k) % 9}</b><p>${text}</p></div><hr>`)
    .join('');
  return `<html><body><h1>${words(seededRandom(id), 5)}</h1>${body}</body></html>`;
}

export function formPage(): string {
  return page(
    'Answer',
    '<form class="answer"><p>Please sign in first.</p><label>Name</label><input name="a">' +
      '<label>Password</label><input name="b"><label>Stay</label><input type="checkbox"></form>',
  );
}

export function userPage(u: number): string {
  const rows = ['Name', 'Joined', 'Posts', 'Place', 'Site']
    .map((k, i) => `<dt>${k}</dt><dd>${k === 'Name' ? `user${u}` : 10 * u + i}</dd>`)
    .join('');
  return page(`user${u}`, `<dl class="profile">${rows}</dl>`);
}

/** A sample of the synthetic site. */
export function syntheticSite(options: SiteOptions = {}): SamplePage[] {
  const o = { lists: 4, items: 14, prints: 6, forms: 5, users: 3, ...options };
  const out: SamplePage[] = [];
  const add = (path: string, html: string) => out.push({ url: BASE + path, status: 200, html });
  for (let n = 1; n <= o.lists; n++)
    add(n <= 2 ? `/list/${n}` : `/list/${n - 2}?page=2`, listPage(n));
  const items = listed(1)
    .concat(listed(2), listed(3))
    .filter((x, i, a) => a.indexOf(x) === i);
  for (const id of items.slice(0, o.items)) add(`/t/${id}`, itemPage(id));
  for (const id of items.slice(0, o.prints)) add(`/print/${id}`, strippedPage(id));
  for (const id of items.slice(0, o.forms)) add(`/form?item=${id}`, formPage());
  for (let u = 0; u < o.users; u++) add(`/u/user${u}`, userPage(u));
  return out;
}

/** A small model written by hand: four clusters, each kind of pattern and verdict. */
export function handModel(): SiteModel {
  const cluster = (
    id: number,
    kind: SiteModel['clusters'][number]['kind'],
    decision: 'valid' | 'invalid',
    patterns: SiteModel['clusters'][number]['patterns'],
  ): SiteModel['clusters'][number] => ({
    id,
    kind,
    decision,
    informativeness: decision === 'valid' ? 0.5 : 0,
    pages: 10,
    avgSize: 100,
    duplicates: 0,
    listLinks: 0,
    patterns,
    examples: [],
  });
  return {
    version: 1,
    hosts: ['bbs.example.test'],
    learnedAt: '2024-05-01T00:00:00.000Z',
    sample: {
      pages: 40,
      skipped: { status: 0, invalidUrl: 0, repeated: 0, offSite: 0 },
      avgSize: 100,
      thresholds: {
        layout: { value: 2.7, rule: 'test' },
        informativeness: { value: 0.05, rule: 'test' },
        hamming: 3,
        listLinks: 3,
      },
      settings: {
        pathDepth: 4,
        maxClassTokens: 3,
        minRepeat: 2,
        countScale: 'log',
        minSilhouette: 0.25,
        maxLayouts: 50,
        templateShare: 0.5,
        minDupShare: 0.5,
        minContentPages: 2,
        minShare: 0.01,
      },
    },
    clusters: [
      cluster(1, 'content', 'valid', [
        { pattern: '/{w}/{n}', pages: 20, role: 'content' },
        { pattern: '/t/{n}?page={n}', pages: 3, role: 'content' },
        { pattern: '/t/{n}?sort={w}', pages: 2, role: 'duplicate', duplicateOf: '/{w}/{n}' },
      ]),
      cluster(2, 'list', 'valid', [{ pattern: '/list/{n}', pages: 6, role: 'content' }]),
      cluster(3, 'duplicate', 'invalid', [
        { pattern: '/print/{n}', pages: 5, role: 'duplicate', duplicateOf: '/{w}/{n}' },
      ]),
      cluster(4, 'no-content', 'invalid', [
        { pattern: '/form?item={n}', pages: 4, role: 'content' },
      ]),
    ],
  };
}
