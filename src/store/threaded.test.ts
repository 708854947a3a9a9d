import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { storeConformance } from './conformance.js';
import { openThreadedStore } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-threaded-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

storeConformance('sqlite on its own thread', async () => {
  const dir = join(root, `s${++counter}`);
  return {
    store: await openThreadedStore(dir, { create: true }),
    reopen: () => openThreadedStore(dir),
    another: () => openThreadedStore(dir),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    dir,
  };
});
