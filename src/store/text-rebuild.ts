/**
 * Rebuilds the SQLite store's full-text index (`focuscrawl check --repair`). A store
 * of schema V12 on has a contentless index (no copy of the text to rebuild from): every
 * kept page is indexed again, from the text kept for a page stored without its body
 * (`page_texts`) or from its stored body, parsed as the crawl parses it. A page with
 * neither (its body file lost) is left out. Older stores rebuild from the index's own
 * content.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { segmentForIndex } from '../search/index.js';
import { decompressBody } from './bodies.js';
import { indexedTextOfBody } from './body-text.js';
import { STATE_CODE } from './schema.js';

interface KeptRow {
  id: number;
  url: string;
  title: string | null;
  content_type: string | null;
  body_file: string | null;
  text: string | null;
}

/** Rebuilds `page_text` of the store at `dir`; returns the pages indexed (-1: rebuilt in place). */
export async function rebuildTextIndex(db: Database.Database, dir: string): Promise<number> {
  const sql = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'page_text'")
    .pluck()
    .get() as string | undefined;
  if (sql === undefined) return 0;
  if (!/content\s*=\s*''/.test(sql)) {
    db.prepare("INSERT INTO page_text(page_text) VALUES ('rebuild')").run();
    return -1;
  }
  const rows = db
    .prepare(
      `SELECT u.id, u.url, p.title, p.content_type, p.body_file, t.text
       FROM urls u JOIN pages p ON p.url_id = u.id LEFT JOIN page_texts t ON t.url_id = u.id
       WHERE u.state = ${STATE_CODE.complete} ORDER BY u.id`,
    )
    .all() as KeptRow[];
  const texts: [number, string, string][] = [];
  for (const r of rows) {
    let text = r.text;
    if (text === null && r.body_file !== null) {
      const path = join(dir, r.body_file);
      const body = await readFile(path)
        .then((data) => decompressBody(data, path))
        .catch(() => null);
      if (body !== null) text = indexedTextOfBody(body, r.content_type, r.url);
    }
    if (text !== null) texts.push([r.id, segmentForIndex(r.title ?? ''), text]);
  }
  const insert = db.prepare('INSERT INTO page_text (rowid, title, text) VALUES (?, ?, ?)');
  db.transaction(() => {
    db.prepare("INSERT INTO page_text(page_text) VALUES ('delete-all')").run();
    for (const t of texts) insert.run(...t);
  })();
  return texts.length;
}
