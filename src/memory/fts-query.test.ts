import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { bigrams, indexText, partsExpression, pieces, queryTerms, queryWords, rankingTerms, splitCase } from './fts-query.js';

// Each term's MATCH expression, as Store.search sends them one by one.
const matches = (query: string) => queryTerms(query).map((t) => t.match).join(' ');

describe('query terms as FTS5 expressions', () => {
  it('quotes every word, a whole word never a prefix (issue 42: `redis` found `redirect`)', () => {
    expect(matches('login bug')).toBe('"login" "bug"');
    expect(queryTerms('redis')[0]?.prefix).toBeUndefined();
  });
  it('matches the last word as a prefix too only as it is typed (the picker), never a word typed whole', () => {
    const terms = queryTerms('login bu', { prefixLast: true });
    expect(terms.map((t) => t.prefix)).toEqual([undefined, '"bu"*']);
    expect(queryTerms('login bug ', { prefixLast: true }).map((t) => t.prefix)).toEqual([undefined, undefined]);
  });
  it('gives each word its expression over the vocabulary: as typed, joiners kept', () => {
    expect(queryTerms('shared-layout velocity_high Redis')[0]?.exact).toBe('"shared-layout"');
    expect(queryTerms('velocity_high')[0]?.exact).toBe('"velocity_high"');
    expect(queryTerms('Redis')[0]?.exact).toBe('"redis"');
    expect(queryTerms('src/app.ts')[0]?.exact).toBe('"src" AND "app" AND "ts"');
    // A number of up to three digits beside words is left out (the vocabulary keeps few); numbers alone stay.
    expect(queryTerms('python3.11')[0]?.exact).toBe('"python3"');
    expect(queryTerms('openpyxl==3.1.2')[0]?.exact).toBe('"openpyxl"');
    expect(queryTerms('2.1.112')[0]?.exact).toBe('"2" AND "1" AND "112"');
    expect(queryTerms('人脸跟踪')[0]?.exact).toBe('"人脸" AND "脸跟" AND "跟踪"');
  });
  it('gives a word joined by - or _ its parts over the vocabulary too (searched when no session holds it as typed)', () => {
    expect(partsExpression('AWS_LAMBDA_FUNCTION_NAME')).toBe('"aws" AND "lambda" AND "function" AND "name"');
    expect(partsExpression('--max-old-space-size')).toBe('"max" AND "old" AND "space" AND "size"');
    // A dot splits as it does as typed; a number of up to three digits is left out (the vocabulary keeps few).
    expect(partsExpression('shared-layout.tsx')).toBe('"shared" AND "layout" AND "tsx"');
    expect(partsExpression('test_404_page')).toBe('"test" AND "page"');
    for (const w of ['openpyxl', 'v1.2.3', '--', 'registerProvider']) expect(partsExpression(w), w).toBeUndefined();
    expect(queryTerms('type_continental')[0]).toMatchObject({ exact: '"type_continental"', parts: '"type" AND "continental"' });
  });

  it('turns FTS syntax into plain words', () => {
    expect(matches('"foo')).toBe('"foo"');
    expect(matches('(bar')).toBe('"bar"');
    expect(matches('-x')).toBe('"x"');
    expect(matches('a*')).toBe('"a"');
    expect(matches('AND')).toBe('"AND"');
    expect(matches('NEAR(a b)')).toBe('"NEAR a" "b"');
    expect(matches('x" OR "y')).toBe('"x" "OR" "y"');
  });
  it('has nothing to search for in punctuation or an empty query', () => {
    expect(matches('')).toBe('');
    expect(matches('  * - ( ) " ')).toBe('');
  });
  it('keeps words of any script', () => {
    expect(queryWords('中文 café')).toEqual(['中文', 'café']);
  });
});

describe('query terms', () => {
  it('makes a word joined by - _ . / a phrase of its parts, split as the text is', () => {
    expect(queryTerms('brain-system push').map((t) => t.match)).toEqual(['"brain system"', '"push"']);
    expect(queryTerms('user_message.selector/ts')[0]?.match).toBe('"user message selector ts"');
    expect(queryTerms('registerProvider')[0]?.match).toBe('"register Provider"');
  });
  it('matches numbers and versions as written (no prefix)', () => {
    expect(queryTerms('2.1.112')[0]?.match).toBe('"2 1 112"');
    expect(queryTerms('v1.17.5')[0]?.match).toBe('"v1 17 5"');
    expect(queryTerms('issue 288').map((t) => t.match)).toEqual(['"issue"', '"288"']);
    expect(queryTerms('issue 288', { prefixLast: true }).map((t) => t.prefix)).toEqual([undefined, undefined]);
  });
  it('searches an unspaced script by its bigrams, a single character as a prefix', () => {
    expect(queryTerms('球机 人脸跟踪').map((t) => t.match)).toEqual(['"球机"', '"人脸 脸跟 跟踪"']);
    expect(queryTerms('球')[0]?.match).toBe('"球"*');
    expect(queryTerms('ptz人脸')[0]?.match).toBe('"ptz 人脸"');
  });
  it('keeps each term as typed for `matched`, once, at most 16', () => {
    expect(queryTerms('"Login," login bug?').map((t) => t.word)).toEqual(['Login', 'bug']);
    expect(queryTerms(Array.from({ length: 30 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
  });
  it('ranks with the content words; function words only when there is nothing else', () => {
    expect(rankingTerms(queryTerms('how do I fix the login')).map((t) => t.word)).toEqual(['fix', 'login']);
    expect(rankingTerms(queryTerms('what is this')).map((t) => t.word)).toEqual(['what', 'is', 'this']);
  });
});

describe('index text', () => {
  it('turns runs of unspaced scripts into overlapping bigrams, other text as it was', () => {
    expect(bigrams('人脸跟踪')).toEqual(['人脸', '脸跟', '跟踪']);
    expect(bigrams('球')).toEqual(['球']);
    expect(indexText('plain text stays')).toBe('plain text stays');
    expect(indexText('海康球机ptz')).toBe(' 海康 康球 球机 ptz');
    expect(indexText('デモの実行')).toBe(' デモ モの の実 実行 ');
  });
  it('splits words joined by case changes', () => {
    expect(splitCase('ProjectTracker HTTPServer uiExtension lotto645')).toBe('Project Tracker HTTP Server ui Extension lotto645');
    expect(indexText('the ProjectTracker folder')).toBe('the ProjectTracker Project Tracker folder');
  });
  it('lets FTS5 (porter, unicode61) find every query form in text that went through indexText', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')");
    const text = '我现在要做一个单通道的海康球机人脸检测+ptz跟踪 brain-system git push; moving the ProkectTracker files; Café 2.1.112 ランザクション数';
    db.prepare('INSERT INTO t(rowid, body) VALUES (1, ?)').run(indexText(text));
    const finds = (q: string) => queryTerms(q).every((t) => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(t.match).length === 1);
    for (const q of ['球机 人脸 跟踪', '海康球机', 'brain-system push', 'moved', 'move', 'tracker', 'ProkectTracker', 'prokecttracker', 'cafe', '2.1.112', 'ランザクション', '检测', '单通道']) expect(finds(q), q).toBe(true);
    for (const q of ['2.1.11', 'system-brain', '人跟']) expect(finds(q), q).toBe(false);
    db.close();
  });
});

describe('ASCII text', () => {
  it('is cut by the ASCII patterns exactly as the Unicode ones cut it (a query of ASCII makes none of those)', () => {
    const piece = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005])[\p{L}\p{N}\p{M}\p{Co}])+/gu;
    const caseJoin = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/gu;
    const every = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join('');
    const texts = [every, every.split('').reverse().join(''), 'registerProvider HTTPServer aB AB ABc a1B 2.1.112 brain-system_x', ' --tag-- "quoted" @@name x_y.z/w'];
    let seed = 7;
    for (let n = 0; n < 200; n++) texts.push(Array.from({ length: 24 }, () => String.fromCharCode((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 128)).join(''));
    for (const t of texts) {
      expect(pieces(t), JSON.stringify(t)).toEqual(t.match(piece) ?? []);
      expect(splitCase(t), JSON.stringify(t)).toBe(t.replace(caseJoin, ' '));
      expect(queryTerms(t), JSON.stringify(t)).toEqual(queryTerms(`${t} \u00e9`).slice(0, queryTerms(t).length));
    }
  });
});
