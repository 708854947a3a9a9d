/** Options of `openStore`: a zod strict object, validated where they enter. */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';

export const storeOptionsSchema = z
  .strictObject({
    /**
     * Create the directory and an empty store when there is none. Without it a
     * missing store is an error, so that a mistyped path is not taken for an empty crawl.
     * @default false
     */
    create: z.boolean().default(false),
    /**
     * Open for reading only (e.g. `status` or `export` while a crawl runs on the
     * store); every write throws `StoreError`.
     * @default false
     */
    readonly: z.boolean().default(false),
    /**
     * SQLite's `synchronous` setting in WAL mode. `'normal'`: a change is durable
     * against a crash of the process as soon as its call returns; a power loss or
     * OS crash may undo the last transactions (never corrupting the store).
     * `'full'`: durable against power loss too, at the cost of an fsync per transaction.
     * @default 'normal'
     */
    synchronous: z.enum(['normal', 'full']).default('normal'),
  })
  .refine((o) => !(o.create && o.readonly), {
    message: 'create and readonly cannot both be true',
  });

export type StoreOptionsInput = z.input<typeof storeOptionsSchema>;
export type StoreOptions = z.output<typeof storeOptionsSchema>;

export function parseStoreOptions(input: StoreOptionsInput | undefined): StoreOptions {
  const r = storeOptionsSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : '(options)';
    return `${field}: ${i.message}`;
  });
  throw new InvalidOptionError(`invalid store options: ${problems.join('; ')}`, {
    cause: r.error,
  });
}
