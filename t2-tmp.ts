import { listPageUrls, pageHtml } from './src/testweb/index.ts';
const urls = listPageUrls({ seed: 1, size: 'large' }, 2000);
let tot = 0; const sizes: number[] = [];
for (const u of urls) { const h = pageHtml({ seed: 1, size: 'large' }, u)!; tot += h.length; sizes.push(Buffer.byteLength(h)); }
sizes.sort((a, b) => a - b);
console.log(urls.length, 'avg chars', tot / urls.length, 'median bytes', sizes[1000], urls.slice(0, 3));
console.log(pageHtml({ seed: 1, size: 'large' }, urls[5]!)!.slice(0, 3000));
