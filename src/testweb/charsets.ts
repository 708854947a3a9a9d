// Charset hosts: `<cs>-header.test`, `<cs>-meta.test`, `<cs>-none.test`, `utf-8-bom.test`.
// Pages carry a sample paragraph whose exact text `charsetSample(cs, n)` returns.
import iconv from 'iconv-lite';
import { notFound } from './html.js';
import type { Handler, Reply } from './types.js';

export const CHARSETS = [
  'gbk',
  'gb18030',
  'big5',
  'shift_jis',
  'euc-kr',
  'windows-1252',
  'utf-8',
] as const;
export type TestCharset = (typeof CHARSETS)[number];

/** How a charset host declares its charset. */
export type CharsetDeclaration = 'header' | 'meta' | 'none' | 'bom';

interface CharsetText {
  lang: string;
  title: string;
  next: string;
  home: string;
  sentences: readonly string[];
}

// Sentences use characters that tell the encodings apart: simplified hanzi (with GBK-only
// ones such as 堃 喆 玥) for GBK, CJK extension A/B characters (䶮 𠀾 𪚥) for GB18030,
// traditional hanzi for Big5, kana for Shift_JIS, hangul for EUC-KR, smart quotes, € and
// dashes (0x80–0x9F) for windows-1252, and a mix of scripts for UTF-8.
const TEXTS: Record<TestCharset, CharsetText> = {
  gbk: {
    lang: 'zh-CN',
    title: '城市生活随笔',
    next: '下一页',
    home: '首页',
    sentences: [
      '今天早上的天气很好，我们一起去公园散步，看见很多老人在打太极拳。',
      '王堃和李喆是大学同学，他们每个周末都会去图书馆读书学习。',
      '这家小饭馆的牛肉面非常有名，每天中午门口都排着长长的队伍。',
      '张玥说她明年打算去南方旅行，顺便看看那里的山水和古镇。',
      '地铁站旁边新开了一家书店，里面的咖啡和点心都很便宜。',
      '晚上下了一场大雨，街道两旁的树叶被洗得干干净净。',
      '孩子们放学以后在小区的广场上踢足球，一直玩到天黑才回家。',
    ],
  },
  gb18030: {
    lang: 'zh-CN',
    title: '古籍与生僻字',
    next: '下一页',
    home: '首页',
    sentences: [
      '南汉高祖刘䶮的名字里有一个生僻字，很多旧的输入法都打不出来。',
      '古籍整理工作中常常遇到𠀾和𪚥这样的字，只有新的字符集才能收录。',
      '图书馆的老师说，数字化的时候必须使用完整的编码，否则会出现问号。',
      '我们在博物馆里看到了宋代的刻本，字体端庄，纸张保存得很好。',
      '研究人员把䶮、𠀾、𪚥等字一一核对，再录入到数据库里。',
      '这些资料以后会向公众开放，大家可以在网上免费查阅。',
      '整理一部古书往往需要好几年的时间，需要很大的耐心。',
    ],
  },
  big5: {
    lang: 'zh-TW',
    title: '臺灣旅遊筆記',
    next: '下一頁',
    home: '首頁',
    sentences: [
      '這個週末我們到臺北的夜市逛街，吃了滷肉飯和珍珠奶茶。',
      '從車站搭乘公車大約三十分鐘，就可以到達美麗的海邊。',
      '圖書館裡的學生們都很認真，安靜地閱讀著各種書籍。',
      '颱風過後，山上的道路暫時關閉，遊客們只好改變行程。',
      '老師說學習語言最重要的是每天練習，不要害怕說錯。',
      '這間餐廳的廚師來自香港，他們的點心做得非常精緻。',
      '晚上的溫度比較低，記得多帶一件外套出門。',
    ],
  },
  shift_jis: {
    lang: 'ja',
    title: '日々の記録',
    next: '次のページ',
    home: 'ホーム',
    sentences: [
      '今日は天気が良かったので、近くの公園までゆっくり散歩に行きました。',
      '駅前の新しいパン屋さんで、メロンパンとコーヒーを買いました。',
      '週末は友達と一緒に京都の古いお寺を見て回る予定です。',
      'テレビのニュースによると、明日は雨が降るかもしれません。',
      '図書館で借りた小説がとても面白くて、夜遅くまで読んでしまいました。',
      '子供たちはプールで泳いだり、アイスクリームを食べたりして楽しそうでした。',
      '来月から新しい仕事が始まるので、少し緊張しています。',
    ],
  },
  'euc-kr': {
    lang: 'ko',
    title: '서울 생활 이야기',
    next: '다음 페이지',
    home: '홈',
    sentences: [
      '오늘은 날씨가 좋아서 친구와 함께 한강 공원에 산책을 갔습니다.',
      '학교 앞 작은 식당의 김치찌개는 정말 맛있고 가격도 저렴합니다.',
      '주말에는 도서관에 가서 소설책을 두 권 빌려 왔습니다.',
      '지하철을 타고 삼십 분 정도 가면 바다가 보이는 마을이 있습니다.',
      '어머니께서 만들어 주신 떡국을 먹으며 새해를 맞이했습니다.',
      '내일은 비가 온다고 하니 우산을 꼭 챙기세요.',
      '아이들은 운동장에서 축구를 하며 즐거운 시간을 보냈습니다.',
    ],
  },
  'windows-1252': {
    lang: 'en',
    title: 'Café notes – Zürich',
    next: 'Next page',
    home: 'Home',
    sentences: [
      '“Two espressos, please,” she said — the bill came to €4.50 at the café.',
      'The naïve critic called the œuvre “charmingly old-fashioned”… and left early.',
      'In Zürich the crème brûlée costs €9 — it’s worth every cent, they say.',
      'Señor Muñoz’s shop sells jalapeños, piñatas and façade paint™.',
      '‘Smart quotes’ and dashes – en and em — live between 0x80 and 0x9F.',
      'Über den Dächern: “Straße” has ß, and Æsop’s fables cost €12 • 3 volumes.',
      'The daïs, the fiancée and the rosé: déjà vu at the soirée… again.',
    ],
  },
  'utf-8': {
    lang: 'mul',
    title: 'Unicode – 多语言 – 多言語 – 다국어',
    next: 'Next page',
    home: 'Home',
    sentences: [
      'UTF-8 mixes scripts freely: 中文汉字, 日本語のかな, 한국어 한글, and “quotes”.',
      'Ελληνικά, русский язык and עברית sit beside emoji such as 🙂 and 🚀.',
      '生僻字䶮 and 𠀾 need four bytes in UTF-8, like the emoji 😀 does.',
      'Prices: €5, £4, ¥600, ₩5000 — and the dash—keeps them apart.',
      'Tiếng Việt có dấu: Hà Nội, Đà Nẵng, Huế; 臺灣 and 台湾 both appear.',
      'Math symbols ∑ ∫ √ ∞ ≠ and arrows → ← ↑ ↓ are also fine.',
      'Devanagari नमस्ते, Thai สวัสดี, and Arabic مرحبا complete the set.',
    ],
  },
};

const SAMPLE_SENTENCES = 5;

function isCharset(cs: string): cs is TestCharset {
  return (CHARSETS as readonly string[]).includes(cs);
}

/** The exact text of `<p id="sample">` on `/page/n` (and `/`, which is page 0) of every host of `cs`. */
export function charsetSample(cs: TestCharset, n: number): string {
  if (!isCharset(cs)) throw new TypeError(`unknown test charset: ${cs}`);
  const s = TEXTS[cs].sentences;
  const out: string[] = [];
  for (let i = 0; i < SAMPLE_SENTENCES; i++) out.push(s[(n + i) % s.length]!);
  return out.join(cs === 'windows-1252' || cs === 'utf-8' ? ' ' : '');
}

/** Host names of all charset hosts. */
export function charsetHostNames(): string[] {
  const out: string[] = [];
  for (const cs of CHARSETS)
    for (const d of ['header', 'meta', 'none']) out.push(`${cs}-${d}.test`);
  out.push('utf-8-bom.test');
  return out;
}

const PAGE_LIMIT = 100_000;

function charsetPage(cs: TestCharset, decl: CharsetDeclaration, n: number): Reply {
  const t = TEXTS[cs];
  const s = t.sentences;
  let meta = '';
  if (decl === 'meta') {
    meta =
      n % 2 === 0
        ? `<meta charset="${cs}">`
        : `<meta http-equiv="Content-Type" content="text/html; charset=${cs}">`;
  }
  const more: string[] = [];
  for (let i = 0; i < s.length; i++) more.push(`<p>${s[(n + 2 * i + 1) % s.length]}</p>`);
  const html =
    `<!DOCTYPE html>\n<html lang="${t.lang}"><head>${meta}<title>${t.title} ${n}</title></head>\n` +
    `<body><h1>${t.title}</h1>\n<p id="sample">${charsetSample(cs, n)}</p>\n${more.join('\n')}\n` +
    `<p><a href="/page/${n + 1}">${t.next}</a> <a href="/">${t.home}</a></p>\n</body></html>\n`;
  let body: Buffer;
  if (cs === 'utf-8') {
    body = Buffer.from(html, 'utf8');
    if (decl === 'bom') body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]);
  } else {
    body = iconv.encode(html, cs);
  }
  const type = decl === 'header' ? `text/html; charset=${cs}` : 'text/html';
  return { status: 200, headers: { 'content-type': type }, body };
}

/** Parses a charset host name, e.g. 'gbk-meta.test' → ['gbk', 'meta']. */
export function parseCharsetHost(host: string): [TestCharset, CharsetDeclaration] | undefined {
  const m = /^(.+)-(header|meta|none|bom)\.test$/.exec(host);
  if (!m) return undefined;
  const cs = m[1] as string;
  const decl = m[2] as CharsetDeclaration;
  if (!isCharset(cs) || (decl === 'bom' && cs !== 'utf-8')) return undefined;
  return [cs, decl];
}

export function charsetHandler(cs: TestCharset, decl: CharsetDeclaration): Handler {
  return (ctx) => {
    if (ctx.pathname === '/') return charsetPage(cs, decl, 0);
    const m = /^\/page\/(\d{1,6})$/.exec(ctx.pathname);
    const n = m ? Number(m[1]) : -1;
    if (n < 0 || n >= PAGE_LIMIT) return notFound(`No such page on ${ctx.host}: ${ctx.path}`);
    return charsetPage(cs, decl, n);
  };
}
