import { storeConformance } from './conformance.js';
import { createMemoryStore } from './index.js';

storeConformance('memory', async () => ({
  store: createMemoryStore(),
  cleanup: async () => {},
}));
