/** The memory store's `RunRecords` methods: the topic's keywords and named JSON values. */
import type { RunRecords } from './contracts.js';
import { checkKeywords, checkMetaKey, metaJson } from './validate.js';

/** `open(op)` throws once the store is closed. */
export function memoryRunRecords(open: (op: string) => void): RunRecords {
  let keywords = new Map<string, number>();
  const meta = new Map<string, string>();
  return {
    async setKeywords(k) {
      open('setKeywords');
      keywords = new Map(checkKeywords('setKeywords', k));
    },
    async getKeywords() {
      open('getKeywords');
      return new Map([...keywords].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
    },
    async setMeta(key, value) {
      open('setMeta');
      checkMetaKey('setMeta', key);
      if (value === undefined) meta.delete(key);
      else meta.set(key, metaJson(`setMeta ${key}`, value));
    },
    async getMeta<T = unknown>(key: string) {
      open('getMeta');
      checkMetaKey('getMeta', key);
      const text = meta.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as T);
    },
  };
}
