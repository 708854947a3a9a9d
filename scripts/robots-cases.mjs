// Converts robots_test.cc of github.com/google/robotstxt (Apache-2.0) into
// test/conformance/robots/google-cases.json.
//
//   node scripts/robots-cases.mjs <robots_test.cc> [commit]
//
// The file is read by a small interpreter of the C++ the tests are written in:
// string declarations (adjacent literals concatenated, `absl::StrCat`,
// `absl::StrAppend`, `while` loops, `.length()`/`.size()`, integer arithmetic),
// block scopes, and the assertions:
//
// - EXPECT_TRUE/EXPECT_FALSE(IsUserAgentAllowed(robotstxt, useragent, url))
//   becomes a case of `cases`;
// - EXPECT_TRUE/EXPECT_FALSE(RobotsMatcher::IsValidUserAgentToObey(agent))
//   becomes a case of `agentCases`;
// - every other assertion or helper call is counted in `skipped` (test, call, count).
//
// Anything the interpreter does not understand stops it with an error naming the
// line, so a changed test file is noticed instead of converted wrongly.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'test/conformance/robots/google-cases.json');

const TYPE_WORDS = new Set('const static absl::string_view std::string size_t int char'.split(' '));

// ---- tokens ---------------------------------------------------------------

// Blanks, comments and preprocessor lines | string | number | (qualified) name | operator.
const TOKEN =
  /(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|^#[^\n]*)|"((?:[^"\\\n]|\\.)*)"|(\d+)|([A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)|(==|!=|<=|>=|&&|\|\||->|\+\+|\+=|::|\S)/my;

function tokenize(src) {
  const toks = [];
  let line = 1;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    const m = TOKEN.exec(src);
    if (m === null) throw new Error(`line ${line}: cannot read`);
    if (m[2] !== undefined) toks.push({ t: 'str', v: literalBytes(m[2], line), line });
    else if (m[3] !== undefined) toks.push({ t: 'num', v: Number(m[3]), line });
    else if (m[4] !== undefined) toks.push({ t: 'id', v: m[4], line });
    else if (m[5] !== undefined) toks.push({ t: 'p', v: m[5], line });
    for (const ch of m[0]) if (ch === '\n') line++;
  }
  return toks;
}

const SIMPLE_ESCAPES = { n: 10, r: 13, t: 9, '\\': 92, '"': 34, "'": 39, 0: 0 };

/** The bytes of a C++ string literal's body (UTF-8 source text; `\xHH` gives one byte). */
function literalBytes(body, line) {
  const out = [];
  for (let i = 0; i < body.length; ) {
    if (body[i] !== '\\') {
      const ch = String.fromCodePoint(body.codePointAt(i));
      out.push(...Buffer.from(ch, 'utf8'));
      i += ch.length;
      continue;
    }
    const e = body[i + 1];
    i += 2;
    if (e === 'x') {
      const hex = /^[0-9A-Fa-f]+/.exec(body.slice(i))[0];
      out.push(Number.parseInt(hex, 16) & 0xff);
      i += hex.length;
    } else if (e in SIMPLE_ESCAPES) {
      out.push(SIMPLE_ESCAPES[e]);
    } else {
      throw new Error(`line ${line}: unknown escape \\${e}`);
    }
  }
  return Buffer.from(out);
}

// ---- interpreter ----------------------------------------------------------

class Interp {
  constructor(toks, testName, sink) {
    this.toks = toks;
    this.pos = 0;
    this.test = testName;
    this.sink = sink;
    this.scopes = [new Map()];
  }
  peek(k = 0) {
    return this.toks[this.pos + k];
  }
  next() {
    return this.toks[this.pos++];
  }
  is(v, k = 0) {
    const t = this.peek(k);
    return t !== undefined && t.t !== 'str' && t.v === v;
  }
  expect(v) {
    const t = this.next();
    if (t === undefined || t.v !== v) this.fail(`expected ${v}`, t);
    return t;
  }
  fail(msg, t = this.peek()) {
    throw new Error(`${this.test}, line ${t?.line ?? '?'}: ${msg} (got ${JSON.stringify(t?.v)})`);
  }
  lookup(name) {
    for (let s = this.scopes.length - 1; s >= 0; s--) {
      if (this.scopes[s].has(name)) return this.scopes[s];
    }
    return undefined;
  }

  /** Runs statements until the closing brace of the current block. */
  block() {
    this.scopes.push(new Map());
    while (!this.is('}')) this.statement();
    this.expect('}');
    this.scopes.pop();
  }

  statement() {
    const t = this.peek();
    if (this.is('{')) {
      this.next();
      this.block();
      return;
    }
    if (this.is('while')) {
      this.next();
      this.expect('(');
      const condAt = this.pos;
      const bodyAt = this.skipParens(condAt - 1);
      for (let guard = 0; ; guard++) {
        if (guard > 1_000_000) this.fail('endless loop', t);
        this.pos = condAt;
        const cond = this.expr();
        this.expect(')');
        if (!cond) break;
        this.expect('{');
        this.block();
      }
      this.pos = bodyAt;
      this.expect('{');
      this.skipBlock();
      return;
    }
    if (t.t === 'id' && TYPE_WORDS.has(t.v)) {
      this.declaration();
      return;
    }
    const call = this.peek(2);
    if (
      t.t === 'id' &&
      (t.v === 'EXPECT_TRUE' || t.v === 'EXPECT_FALSE') &&
      this.is('(', 1) &&
      call?.t === 'id' &&
      (call.v === 'IsUserAgentAllowed' || call.v === 'RobotsMatcher::IsValidUserAgentToObey')
    ) {
      this.pos += 3;
      this.expect('(');
      const args = this.args();
      this.expect(')');
      this.expect(')');
      this.expect(';');
      this.sink.assertion(this.test, call.v, args, t.v === 'EXPECT_TRUE', t.line);
      return;
    }
    if (t.t === 'id' && t.v === 'absl::StrAppend') {
      this.next();
      this.expect('(');
      this.expect('&');
      const name = this.next().v;
      const scope = this.lookup(name);
      if (scope === undefined) this.fail(`unknown variable ${name}`);
      const parts = [scope.get(name)];
      while (this.is(',')) {
        this.next();
        parts.push(this.expr());
      }
      this.expect(')');
      this.expect(';');
      scope.set(name, Buffer.concat(parts.map(asBytes)));
      return;
    }
    // Anything else (other assertions, helper calls, declarations of other types):
    // skipped, and counted when it is an assertion or a call.
    if (t.t === 'id' && this.is('(', 1)) this.sink.skip(this.test, t.v);
    while (!this.is(';')) {
      if (this.is('(')) this.pos = this.skipParens(this.pos);
      else if (this.is('{') || this.is('}')) this.fail('unexpected brace in a skipped statement');
      else this.next();
    }
    this.next();
  }

  declaration() {
    const words = [];
    while (this.peek().t === 'id' && TYPE_WORDS.has(this.peek().v)) words.push(this.next().v);
    const name = this.next();
    if (name.t !== 'id') this.fail('expected a variable name', name);
    if (this.is('[')) {
      this.next();
      this.expect(']');
    }
    let value;
    if (this.is(';'))
      value = words.includes('int') || words.includes('size_t') ? 0 : Buffer.alloc(0);
    else {
      this.expect('=');
      value = this.expr();
    }
    this.expect(';');
    this.scopes[this.scopes.length - 1].set(name.v, value);
  }

  args() {
    const out = [];
    if (this.is(')')) return out;
    out.push(this.expr());
    while (this.is(',')) {
      this.next();
      out.push(this.expr());
    }
    return out;
  }

  expr() {
    const left = this.additive();
    if (!this.is('<') && !this.is('>')) return left;
    const op = this.next().v;
    const right = this.additive();
    return op === '<' ? left < right : left > right;
  }
  additive() {
    let left = this.multiplicative();
    while (this.is('+') || this.is('-')) {
      const op = this.next().v;
      const right = this.multiplicative();
      if (typeof left !== 'number' || typeof right !== 'number') this.fail('arithmetic on strings');
      left = op === '+' ? left + right : left - right;
    }
    return left;
  }
  multiplicative() {
    let left = this.postfix();
    while (this.is('*')) {
      this.next();
      const right = this.postfix();
      left *= right;
    }
    return left;
  }
  postfix() {
    let v = this.primary();
    while (this.is('.')) {
      this.next();
      const m = this.next().v;
      this.expect('(');
      this.expect(')');
      if (m !== 'length' && m !== 'size') this.fail(`unknown method ${m}`);
      v = asBytes(v).length;
    }
    return v;
  }
  primary() {
    const t = this.next();
    if (t.t === 'str') {
      const parts = [t.v];
      while (this.peek()?.t === 'str') parts.push(this.next().v);
      return Buffer.concat(parts);
    }
    if (t.t === 'num') return t.v;
    if (t.v === '(') {
      const v = this.expr();
      this.expect(')');
      return v;
    }
    // std::string(s), absl::string_view() and absl::StrCat(a, b, …) alike.
    if (t.v === 'std::string' || t.v === 'absl::string_view' || t.v === 'absl::StrCat') {
      this.expect('(');
      const a = this.args();
      this.expect(')');
      return Buffer.concat(a.map(asBytes));
    }
    if (t.t === 'id') {
      const scope = this.lookup(t.v);
      if (scope === undefined) this.fail(`unknown name ${t.v}`, t);
      return scope.get(t.v);
    }
    this.fail('unexpected token', t);
  }

  /** From an opening parenthesis at `at`: the position after its closing one. */
  skipParens(at) {
    let depth = 0;
    for (let i = at; i < this.toks.length; i++) {
      const v = this.toks[i].t === 'str' ? null : this.toks[i].v;
      if (v === '(') depth++;
      else if (v === ')' && --depth === 0) return i + 1;
    }
    this.fail('unbalanced parentheses');
  }
  skipBlock() {
    let depth = 1;
    while (depth > 0) {
      const v = this.next();
      if (v === undefined) this.fail('unbalanced braces');
      if (v.t !== 'str' && v.v === '{') depth++;
      else if (v.t !== 'str' && v.v === '}') depth--;
    }
  }
}

function asBytes(v) {
  if (Buffer.isBuffer(v)) return v;
  throw new Error(`not a string: ${v}`);
}

function utf8(bytes, where) {
  const s = bytes.toString('utf8');
  if (!Buffer.from(s, 'utf8').equals(bytes)) throw new Error(`${where}: not valid UTF-8`);
  return s;
}

// ---- driver ---------------------------------------------------------------

function convert(src) {
  const toks = tokenize(src);
  const cases = [];
  const agentCases = [];
  const skipped = new Map();
  const sink = {
    assertion(test, call, args, expected, line) {
      const where = `${test} (line ${line})`;
      if (call === 'IsUserAgentAllowed') {
        if (args.length !== 3) throw new Error(`${where}: IsUserAgentAllowed takes 3 arguments`);
        const [robotstxt, userAgent, url] = args.map((a) => utf8(asBytes(a), where));
        cases.push({ test, line, robotstxt, userAgent, url, allowed: expected });
      } else {
        agentCases.push({ test, line, userAgent: utf8(asBytes(args[0]), where), valid: expected });
      }
    },
    skip(test, call) {
      const key = `${test}\u0000${call}`;
      skipped.set(key, (skipped.get(key) ?? 0) + 1);
    },
  };
  // Top level: TEST(Suite, Name) { ... } blocks; everything else is skipped.
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (!(t.t === 'id' && t.v === 'TEST' && toks[i + 1]?.v === '(')) continue;
    const name = toks[i + 4].v;
    if (toks[i + 5].v !== ')' || toks[i + 6].v !== '{') throw new Error(`line ${t.line}: TEST`);
    const it = new Interp(toks, name, sink);
    it.pos = i + 7;
    it.block();
    i = it.pos - 1;
  }
  const skippedList = [...skipped].map(([k, count]) => {
    const [test, call] = k.split('\u0000');
    return { test, call, count };
  });
  return { cases, agentCases, skipped: skippedList };
}

function main() {
  const [file, commit] = process.argv.slice(2);
  if (file === undefined) {
    console.error('usage: node scripts/robots-cases.mjs <robots_test.cc> [commit]');
    process.exit(2);
  }
  const { cases, agentCases, skipped } = convert(readFileSync(file, 'utf8'));
  const out = {
    source: {
      repository: 'https://github.com/google/robotstxt',
      path: 'robots_test.cc',
      commit: commit ?? null,
      license: 'Apache-2.0',
      copyright: 'Copyright 2019 Google LLC',
      note: 'Converted from robots_test.cc by scripts/robots-cases.mjs; see README.md beside this file.',
    },
    cases,
    agentCases,
    skipped,
  };
  writeFileSync(OUT, JSON.stringify(out, null, 1) + '\n');
  const nSkipped = skipped.reduce((a, s) => a + s.count, 0);
  console.log(
    `${cases.length} IsUserAgentAllowed cases, ${agentCases.length} IsValidUserAgentToObey cases, ${nSkipped} other statements skipped → ${OUT}`,
  );
  for (const s of skipped) console.log(`  skipped: ${s.test}: ${s.call} ×${s.count}`);
}

main();
