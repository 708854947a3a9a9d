// Public surface of the test web: the server and the pure generators / ground truth.

export { BOMB_INFLATED_BYTES } from './bomb.js';
export { CHARSETS, type CharsetDeclaration, charsetSample, type TestCharset } from './charsets.js';
export { describeTestWeb } from './describe.js';
export { listPageUrls, type PageFacts, pageFacts, pageHtml, pageLinksOf } from './facts.js';
export {
  type ForumThreadInfo,
  forumPostCount,
  forumThreadRate,
  forumThreads,
} from './forum-facts.js';
export {
  classifyForumUrl,
  DAY_MS,
  FORUM_EPOCH_MS,
  FORUM_HOSTS,
  type ForumHost,
  type ForumUrlClass,
  forumValidUrls,
  POSTS_PER_PAGE,
  THREADS_PER_PAGE,
  type ThreadActivity,
} from './forum-model.js';
export { HOSTILE_HOST, HOSTILE_PATHS, hostileRobotsHosts } from './hostile.js';
export {
  DESCRIPTION_END,
  DESCRIPTION_START,
  JOB_COUNTS,
  JOBS_HOST,
  JOBS_PER_PAGE,
  type JobFields,
  jobFields,
} from './jobs.js';
export {
  type HiddenRegionLabel,
  LABELS_PATH,
  type Labels,
  labels,
  type TopicLabels,
} from './labels.js';
export { PORTAL_HOST, SIZES } from './model.js';
export {
  DEAD_HOSTS,
  DEAD_LINKS,
  DEAD_LIVE_PAGES,
  DEADLINKS_HOST,
  MOVED_HOST,
  MOVED_PAGES,
  ROBOTS_TAG_HOST,
  ROBOTS_TAG_PAGES,
} from './moved.js';
export {
  NEWS_COUNTS,
  NEWS_EPOCH_MS,
  NEWS_HOST,
  NEWS_MAX_RATE,
  NEWS_MIN_RATE,
  NEWS_PER_PAGE,
  NEWS_SECTIONS,
  type NewsArticle,
  type NewsSection,
  type NewsValidator,
  newsArticles,
  newsChangeTimes,
  newsETag,
  newsFingerprint,
  newsPagesAt,
  newsVersionAt,
} from './news-model.js';
export {
  classifyPhpbbUrl,
  PHPBB_ARCHIVE_POSTS,
  PHPBB_HOSTS,
  PHPBB_POSTS_PER_PAGE,
  PHPBB_TOPICS_PER_PAGE,
  PHPBB_USERS,
  type PhpbbHost,
  type PhpbbId,
  type PhpbbTopicInfo,
  phpbbPostCount,
  phpbbThreads,
  phpbbValidUrls,
} from './phpbb-model.js';
export {
  DEFAULT_CLOCK_START_MS,
  startTestWeb,
  type TestWeb,
  type TestWebOptions,
} from './server.js';
export { TOPIC_IDS, type TopicId, topicKeywords } from './topics.js';
export type { RequestLogEntry, SimClock, WebSize } from './types.js';
export {
  type DuplicateVariant,
  duplicateOf,
  duplicateVariants,
  type SitemapHostInfo,
  sitemapHosts,
  sitemapOnlyUrls,
  sitemapPageUrls,
  variantHosts,
} from './variant-facts.js';
export type { SitemapStyle } from './variants.js';
