// jobs.test: Chinese job postings with structured fields. The description sits between the
// markers 职位描述 and 申请这个职位, as on the job site of the URL-seeded crawler design.
import { esc, htmlReply, notFound, textReply } from './html.js';
import { rngOf } from './prng.js';
import type { Handler, WebSize } from './types.js';

export const JOBS_HOST = 'jobs.test';
export const JOBS_PER_PAGE = 20;
export const JOB_COUNTS: Record<WebSize, number> = { small: 300, medium: 2_000, large: 10_000 };

export const DESCRIPTION_START = '职位描述';
export const DESCRIPTION_END = '申请这个职位';

export interface JobFields {
  n: number;
  url: string;
  title: string;
  /** 'programming' for software jobs, else 'other'. */
  category: 'programming' | 'other';
  company: string;
  salary: string;
  place: string;
  /** YYYY-MM-DD */
  date: string;
  /** Paragraphs of the description, joined with '\n'. */
  description: string;
}

const PROG_TITLES = [
  'Java开发工程师',
  '前端开发工程师',
  'Python工程师',
  '后端开发工程师',
  '测试工程师',
  '数据分析师',
  '算法工程师',
  '运维工程师',
  'Go语言开发工程师',
  '移动端开发工程师',
];
const OTHER_TITLES = [
  '销售代表',
  '会计',
  '行政助理',
  '市场专员',
  '人力资源专员',
  '客服专员',
  '仓库管理员',
  '平面设计师',
  '采购专员',
  '电工',
];
const COMPANY_A = ['华信', '天成', '博远', '鼎盛', '新锐', '恒通', '智汇', '长风', '东方', '联创'];
const COMPANY_B = ['科技', '网络', '软件', '贸易', '电子', '信息', '实业', '数据'];
const CITIES = ['北京', '上海', '广州', '深圳', '杭州', '成都', '南京', '武汉', '西安', '苏州'];
const DISTRICTS = [
  '高新区',
  '海淀区',
  '浦东新区',
  '天河区',
  '南山区',
  '西湖区',
  '武侯区',
  '江宁区',
  '洪山区',
  '工业园区',
];
const PROG_DUTIES = [
  '负责公司核心业务系统的设计与开发',
  '参与需求分析和技术方案评审',
  '编写高质量的代码和单元测试',
  '优化系统性能，解决线上问题',
  '与产品和测试团队密切合作，按时交付功能',
];
const PROG_REQS = [
  '计算机相关专业本科及以上学历',
  '熟悉常用的数据结构和算法',
  '有三年以上相关开发经验者优先',
  '熟悉数据库和缓存的使用',
  '具备良好的沟通能力和团队合作精神',
];
const OTHER_DUTIES = [
  '负责日常客户的接待和维护',
  '完成部门安排的各项工作任务',
  '整理和归档相关资料',
  '协助主管开展日常管理工作',
  '按时提交工作报告',
];
const OTHER_REQS = [
  '大专及以上学历',
  '有相关工作经验者优先',
  '工作认真负责，吃苦耐劳',
  '具备良好的沟通表达能力',
  '能够适应短期出差',
];

function pickSome(rng: ReturnType<typeof rngOf>, items: readonly string[], n: number): string[] {
  const start = rng.int(items.length);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(items[(start + i) % items.length] as string);
  return out;
}

/** Ground-truth fields of job `n` (0-based). */
export function jobFields(seed: number, n: number): JobFields {
  const rng = rngOf(seed, 0x10b, n);
  const programming = rng.chance(0.45);
  const title = rng.pick(programming ? PROG_TITLES : OTHER_TITLES);
  const company = `${rng.pick(CITIES)}${rng.pick(COMPANY_A)}${rng.pick(COMPANY_B)}有限公司`;
  let salary: string;
  if (rng.chance(0.1)) salary = '面议';
  else {
    const lo = programming ? rng.range(8, 30) : rng.range(3, 12);
    salary = `${lo}k-${lo + rng.range(2, lo)}k`;
  }
  const place = `${rng.pick(CITIES)}·${rng.pick(DISTRICTS)}`;
  const date = new Date(Date.UTC(2024, 0, 1) - rng.int(120) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const duties = pickSome(rng, programming ? PROG_DUTIES : OTHER_DUTIES, rng.range(3, 5));
  const reqs = pickSome(rng, programming ? PROG_REQS : OTHER_REQS, rng.range(2, 4));
  const description = [
    `岗位职责：${duties.map((d, i) => `${i + 1}. ${d}；`).join('')}`,
    `任职要求：${reqs.map((d, i) => `${i + 1}. ${d}；`).join('')}`,
    `工作地点：${place}。`,
  ].join('\n');
  return {
    n,
    url: `http://${JOBS_HOST}/job/${n}`,
    title,
    category: programming ? 'programming' : 'other',
    company,
    salary,
    place,
    date,
    description,
  };
}

function page(titleText: string, body: string): string {
  return (
    `<!DOCTYPE html>\n<html lang="zh-CN"><head><meta charset="utf-8"><title>${esc(titleText)} - 招聘网</title></head>\n` +
    `<body>\n<div class="top"><a href="/">招聘网首页</a> | <a href="/list/1">全部职位</a></div>\n${body}` +
    '<div class="foot">招聘网 · 仅供测试</div>\n</body></html>\n'
  );
}

function jobRow(seed: number, n: number): string {
  const f = jobFields(seed, n);
  return `<li><a href="/job/${n}">${esc(f.title)}</a> <span>${esc(f.company)}</span> <span>${esc(f.salary)}</span> <span>${esc(f.place)}</span> <span>${f.date}</span></li>\n`;
}

function listPage(seed: number, total: number, k: number): string {
  const pages = Math.ceil(total / JOBS_PER_PAGE);
  const rows: string[] = [];
  for (let n = (k - 1) * JOBS_PER_PAGE; n < Math.min(total, k * JOBS_PER_PAGE); n++)
    rows.push(jobRow(seed, n));
  const nav: string[] = [];
  if (k > 1) nav.push(`<a href="/list/${k - 1}">上一页</a>`);
  for (let i = Math.max(1, k - 5); i <= Math.min(pages, k + 5); i++) {
    nav.push(i === k ? `<b>${i}</b>` : `<a href="/list/${i}">${i}</a>`);
  }
  if (k < pages) nav.push(`<a href="/list/${k + 1}">下一页</a>`);
  return page(
    `职位列表 第${k}页`,
    `<h1>职位列表 第${k}页</h1>\n<ul class="jobs">\n${rows.join('')}</ul>\n<p class="pages">${nav.join(' ')}</p>\n`,
  );
}

function jobPage(seed: number, n: number): string {
  const f = jobFields(seed, n);
  const paras = f.description
    .split('\n')
    .map((p) => `<p>${esc(p)}</p>\n`)
    .join('');
  return page(
    f.title,
    `<h1 class="job-title">${esc(f.title)}</h1>\n<div class="job-meta">` +
      `<span class="company">公司：${esc(f.company)}</span>\n<span class="salary">薪资：${esc(f.salary)}</span>\n` +
      `<span class="place">工作地点：${esc(f.place)}</span>\n<span class="date">发布日期：${f.date}</span></div>\n` +
      `<div class="job-desc"><h2>${DESCRIPTION_START}</h2>\n${paras}` +
      `<p><a class="apply" href="/apply/${n}">${DESCRIPTION_END}</a></p></div>\n` +
      `<p><a href="/list/${Math.floor(n / JOBS_PER_PAGE) + 1}">返回列表</a></p>\n`,
  );
}

export const jobsHandler: Handler = (ctx) => {
  const { seed, size } = ctx.state;
  const total = JOB_COUNTS[size];
  const p = ctx.pathname;
  if (p === '/robots.txt') return textReply('User-agent: *\nDisallow: /apply/\n');
  if (p === '/') {
    const rows: string[] = [];
    for (let n = 0; n < Math.min(total, 10); n++) rows.push(jobRow(seed, n));
    return htmlReply(
      page(
        '招聘网',
        `<h1>最新职位</h1>\n<ul class="jobs">\n${rows.join('')}</ul>\n<p><a href="/list/1">查看全部职位</a></p>\n`,
      ),
    );
  }
  let m = /^\/list\/(\d{1,6})$/.exec(p);
  if (m) {
    const k = Number(m[1]);
    if (k < 1 || (k - 1) * JOBS_PER_PAGE >= total) return notFound(`No such list page: ${p}`);
    return htmlReply(listPage(seed, total, k));
  }
  m = /^\/job\/(\d{1,6})$/.exec(p);
  if (m) {
    const n = Number(m[1]);
    if (n >= total) return notFound(`No such job: ${p}`);
    return htmlReply(jobPage(seed, n));
  }
  m = /^\/apply\/(\d{1,6})$/.exec(p);
  if (m) return htmlReply(page('申请职位', '<h1>请先登录</h1>\n'));
  return notFound(`No such page on jobs.test: ${ctx.path}`);
};
