/** The options of `startServer` (`focuscrawl serve`), validated where they enter. */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';

/** Default port of `focuscrawl serve` and `--serve`. */
export const DEFAULT_SERVE_PORT = 8080;
/** Default address: loopback, so that nothing else on the network reaches the server. */
export const DEFAULT_SERVE_HOST = '127.0.0.1';

export const serveOptionsSchema = z.strictObject({
  /** TCP port; 0 picks a free one. @default 8080 */
  port: z
    .number({ error: 'expected a port number, 0 … 65535' })
    .int({ error: 'expected a port number, 0 … 65535' })
    .min(0, { error: 'expected a port number, 0 … 65535' })
    .max(65535, { error: 'expected a port number, 0 … 65535' })
    .default(DEFAULT_SERVE_PORT),
  /**
   * The address to listen on. Loopback (`127.0.0.1`, `::1`, `localhost`) reaches this
   * machine only; any other needs a token (given, or `generateToken`). @default '127.0.0.1'
   */
  host: z.string({ error: 'expected a host name or address' }).min(1).default(DEFAULT_SERVE_HOST),
  /**
   * The token control routes need (`Authorization: Bearer TOKEN`), and every API route
   * on a host other than loopback: 16 to 256 printable ASCII characters, no spaces.
   * @default one generated (32 random bytes, base64url) on loopback, or with `generateToken`
   */
  token: z
    .string({ error: 'expected a string' })
    .regex(/^[\x21-\x7e]{16,256}$/, {
      error: 'expected 16 to 256 printable ASCII characters without spaces',
    })
    .optional(),
  /**
   * On a host other than loopback without `token`: generate one (the caller prints it)
   * instead of refusing to start. @default false
   */
  generateToken: z.boolean({ error: 'expected true or false' }).default(false),
  /** Control routes answer 403 (`FC_ERR_FORBIDDEN`); the store is only read. @default false */
  readOnly: z.boolean({ error: 'expected true or false' }).default(false),
  /** How often `/api/events` sends the status. @default 1000 */
  eventIntervalMs: z
    .number({ error: 'expected a whole number of ms, 100 … 60000' })
    .int({ error: 'expected a whole number of ms, 100 … 60000' })
    .min(100, { error: 'expected a whole number of ms, 100 … 60000' })
    .max(60_000, { error: 'expected a whole number of ms, 100 … 60000' })
    .default(1000),
  /** What the store is (its directory or URL): named in exports' titles. @default none */
  storeName: z.string({ error: 'expected a string' }).optional(),
});

export type ServeOptionsInput = z.input<typeof serveOptionsSchema>;
export type ServeOptions = z.output<typeof serveOptionsSchema>;

/** Validates the options; an error names the field (`serve.port: expected a port number…`). */
export function parseServeOptions(input: unknown): ServeOptions {
  const r = serveOptionsSchema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues.find((i) => i.code === 'unrecognized_keys') ?? r.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    throw new InvalidOptionError(
      `serve: unknown option ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`,
      { cause: r.error },
    );
  }
  const field = ['serve', ...(issue?.path ?? []).map(String)].join('.');
  throw new InvalidOptionError(`${field}: ${issue?.message ?? 'invalid'}`, { cause: r.error });
}
