// The labelled topics of the topical web and their hand-written weighted keyword lists.
import type { LangCode, Vocab } from './vocab.js';
import { ASTRONOMY, COOKING, EN_FILLER } from './words-en.js';
import { GRID, MONITOR, ZH_FILLER } from './words-zh.js';

export const TOPIC_IDS = ['monitor', 'grid', 'astronomy', 'cooking'] as const;
export type TopicId = (typeof TOPIC_IDS)[number];

export interface TopicDef {
  id: TopicId;
  /** Display name, in the topic's language. */
  name: string;
  lang: LangCode;
  /** Weighted keywords, usable as a topic file `{ name, keywords }`. */
  keywords: Readonly<Record<string, number>>;
  vocab: Vocab;
  /** The off-topic subject closest to this topic (its pages mention keywords now and then). */
  neighbour: string;
  /** Words used to build host names of sites about this topic. */
  hostStems: readonly string[];
}

export const TOPICS: Record<TopicId, TopicDef> = {
  monitor: {
    id: 'monitor',
    name: '显示器市场',
    lang: 'zh',
    keywords: {
      显示器: 1.0,
      液晶: 0.8,
      面板: 0.8,
      分辨率: 0.7,
      刷新率: 0.7,
      出货量: 0.6,
      电竞显示器: 0.6,
      曲面屏: 0.6,
      色域: 0.6,
      背光: 0.5,
      京东方: 0.5,
      屏幕: 0.4,
      市场份额: 0.3,
      对比度: 0.5,
      响应时间: 0.4,
      尺寸: 0.2,
      品牌: 0.1,
      售价: 0.1,
    },
    vocab: MONITOR,
    neighbour: 'phones',
    hostStems: ['xianshiqi', 'pingmu-zixun', 'display-market', 'mianban-guancha', 'jingping'],
  },
  grid: {
    id: 'grid',
    name: '电网',
    lang: 'zh',
    keywords: {
      电网: 1.0,
      特高压: 0.9,
      输电: 0.8,
      变电站: 0.8,
      配电网: 0.7,
      智能电网: 0.7,
      电力: 0.6,
      供电: 0.6,
      调度: 0.5,
      负荷: 0.5,
      储能: 0.5,
      电压: 0.5,
      换流站: 0.5,
      光伏: 0.3,
      风电: 0.3,
      装机容量: 0.3,
      新能源: 0.2,
      电价: 0.2,
    },
    vocab: GRID,
    neighbour: 'evcars',
    hostStems: ['dianwang', 'dianli-tiandi', 'power-grid-cn', 'shudian-zixun', 'nengyuan-wang'],
  },
  astronomy: {
    id: 'astronomy',
    name: 'Astronomy',
    lang: 'en',
    keywords: {
      astronomy: 1.0,
      telescope: 1.0,
      galaxy: 0.9,
      nebula: 0.9,
      supernova: 0.9,
      astronomer: 0.8,
      astronomers: 0.8,
      observatory: 0.8,
      constellation: 0.8,
      comet: 0.7,
      asteroid: 0.7,
      planet: 0.7,
      exoplanet: 0.7,
      orbit: 0.6,
      eclipse: 0.6,
      solar: 0.3,
      moon: 0.2,
      star: 0.2,
    },
    vocab: ASTRONOMY,
    neighbour: 'movies',
    hostStems: ['stargazer', 'skywatch', 'deep-sky-notes', 'night-sky-weekly', 'cosmos-daily'],
  },
  cooking: {
    id: 'cooking',
    name: 'Cooking',
    lang: 'en',
    keywords: {
      recipe: 1.0,
      recipes: 1.0,
      cooking: 0.9,
      oven: 0.7,
      ingredient: 0.8,
      ingredients: 0.8,
      simmer: 0.7,
      sauce: 0.6,
      flour: 0.6,
      dough: 0.6,
      bake: 0.7,
      teaspoon: 0.6,
      tablespoon: 0.6,
      garlic: 0.5,
      chef: 0.3,
      butter: 0.3,
      kitchen: 0.2,
      onion: 0.2,
    },
    vocab: COOKING,
    neighbour: 'dining',
    hostStems: ['kitchen-notes', 'home-table', 'stir-and-taste', 'crumb-house', 'pantry-stories'],
  },
};

export const FILLER: Record<LangCode, Readonly<Record<string, Vocab>>> = {
  en: EN_FILLER,
  zh: ZH_FILLER,
};

export const GENERAL_HOST_STEMS: Record<LangCode, readonly string[]> = {
  en: [
    'daily-chronicle',
    'town-gazette',
    'weekly-post',
    'open-notebook',
    'morning-ledger',
    'city-herald',
  ],
  zh: [
    'meiri-zixun',
    'xinwen-zhongxin',
    'shenghuo-bao',
    'zonghe-wang',
    'redian-kuaibao',
    'dushi-pinglun',
  ],
};

export function topicsOfLang(lang: LangCode): TopicDef[] {
  return TOPIC_IDS.map((id) => TOPICS[id]).filter((t) => t.lang === lang);
}

/** The topic's keyword list as a topic file: `{ name, keywords: { word: weight } }`. */
export function topicKeywords(id: TopicId): { name: string; keywords: Record<string, number> } {
  const t = TOPICS[id];
  if (!t) throw new TypeError(`unknown topic: ${id} (topics: ${TOPIC_IDS.join(', ')})`);
  return { name: t.name, keywords: { ...t.keywords } };
}
