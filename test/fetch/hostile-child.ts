// Child process of hostile.test.ts: runs `focuscrawl inspect` on each URL given (argv after
// the resolve rule), prints one JSON line per URL, then the process's peak RSS.
import { main } from '../../src/cli/index.js';

const [resolve, ...urls] = process.argv.slice(2);
for (const url of urls) {
  let out = '';
  let err = '';
  const code = await main(
    [
      'inspect',
      url,
      '--resolve',
      resolve ?? '',
      '--allow-private',
      '--delay-ms',
      '0',
      '--timeout-ms',
      '2000',
      '--url-timeout-ms',
      '4000',
    ],
    {
      out: (s) => {
        out += `${s}\n`;
      },
      err: (s) => {
        err += `${s}\n`;
      },
    },
  );
  const rssMiB = process.memoryUsage().rss / 2 ** 20;
  process.stdout.write(`${JSON.stringify({ url, code, out: out.slice(0, 4000), err, rssMiB })}\n`);
}
// resourceUsage().maxRSS is in KiB.
process.stdout.write(`${JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
