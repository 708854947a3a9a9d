/** The SQLite store's `RunRecords` methods: the topic's keywords and named JSON values. */
import type { RunRecords } from './contracts.js';
import type { SqliteReader } from './sqlite-read.js';
import type { UrlIndex } from './sqlite-urls.js';
import { checkKeywords, checkMetaKey, metaJson } from './validate.js';

/** `tx` runs a write transaction of the store; `r` reads. */
export function runRecordMethods(
  tx: <T>(op: string, fn: (ix: UrlIndex) => T) => T,
  r: SqliteReader,
): RunRecords {
  return {
    async setKeywords(keywords) {
      const entries = checkKeywords('setKeywords', keywords);
      tx('setKeywords', ({ w }) => {
        w.clearKeywords.run();
        for (const [word, weight] of entries) w.keyword.run(word, weight);
      });
    },
    async getKeywords() {
      return r.keywords();
    },
    async setMeta(key, value) {
      checkMetaKey('setMeta', key);
      const json = value === undefined ? undefined : metaJson(`setMeta ${key}`, value);
      tx('setMeta', ({ w }) => {
        if (json === undefined) w.deleteMeta.run(key);
        else w.setMeta.run(key, json);
      });
    },
    async getMeta<T = unknown>(key: string) {
      checkMetaKey('getMeta', key);
      return r.meta(key) as T | undefined;
    },
  };
}
