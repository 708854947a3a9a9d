// An option schema's complaint about a value a flag gave, said in the flag's words:
// `--dedup-distance must be at most 8, got 9` rather than the option's path
// (`dedupMaxDistance: Too big`), so that a user is told what to type instead.
import type { z } from 'zod';
import { CliUsageError } from '../errors/index.js';
import { valueAt } from '../util/index.js';
import type { FlagDef } from './flags.js';

/** A zod issue, as much of it as is read here. */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  expected?: string;
}

/** What a value must be, from the issue the schema raised about it. */
export function mustBe(issue: Issue): string {
  const limit = (n: number | bigint | undefined) => String(n);
  switch (issue.code) {
    case 'too_big':
      return issue.inclusive === false
        ? `less than ${limit(issue.maximum)}`
        : `at most ${limit(issue.maximum)}`;
    case 'too_small':
      return issue.inclusive === false
        ? `more than ${limit(issue.minimum)}`
        : `at least ${limit(issue.minimum)}`;
    case 'invalid_type':
      return issue.expected === 'int' ? 'a whole number' : `a ${issue.expected ?? 'value'}`;
    default:
      return issue.message.replace(/^expected /, '');
  }
}

/** The flags of `defs` by the option path they set (`strategyOptions.width` → `width`). */
export function flagsByOption(defs: readonly FlagDef[], prefix = ''): Map<string, string> {
  return new Map(defs.map((d) => [prefix + d.option, d.flag]));
}

/**
 * Checks `value` against `schema` and throws a `CliUsageError` naming the flag for the
 * first issue about an option some flag sets (`flags`: option path → flag). Issues
 * about other options are left to the code that reads the options.
 */
export function refuseSchemaIssues(
  schema: z.ZodType,
  value: unknown,
  flags: ReadonlyMap<string, string>,
  cmd: string,
): void {
  const r = schema.safeParse(value);
  if (r.success) return;
  for (const issue of r.error.issues as Issue[]) {
    const flag = flags.get(issue.path.map(String).join('.'));
    if (flag === undefined) continue;
    const got = valueAt(value, issue.path);
    throw new CliUsageError(
      `focuscrawl ${cmd}: --${flag} must be ${mustBe(issue)}, got ${JSON.stringify(got)}`,
    );
  }
}
