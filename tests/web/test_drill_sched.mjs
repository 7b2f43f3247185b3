// test_drill_sched.mjs — the browser's drill scheduler (web/js/drill-sched.js)
// replays data/drills/vectors.json (docs/drills.md, "Test vectors") exactly:
// each case's field, every asked card, the kana shown, the grade, the card's
// entry after each answer, the record after and the weakest list; and
// web/js/drill-keys.js holds the vectors' poems (`--write` writes it again).
// Plus the guest/account merge (docs/drills.md, "In the browser"). In node,
// no browser (its --parlour/--source/--shots arguments are ignored).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as S from '../../web/js/drill-sched.js';
import { KEYS } from '../../web/js/drill-keys.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const V = JSON.parse(readFileSync(path.join(root, 'data/drills/vectors.json'), 'utf8'));
let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else failed++;
  if (!cond || process.env.VERBOSE) console.log(`${cond ? 'ok' : 'not ok'} - drill: ${what}`);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

if (process.argv.includes('--write')) {
  const lines = ['// drill-keys.js — GENERATED from data/drills/vectors.json\'s "poems" (docs/drills.md) by',
    '// `node tests/web/test_drill_sched.mjs --write`; that test fails when the two differ. Do not edit.',
    '// KEYS[n] = [poem n\'s sound key (KA-K1), its static kimariji length (KA-K2)]', 'export const KEYS = [null,'];
  for (let n = 1; n <= 100; n++) lines.push(`  [${JSON.stringify(V.poems[n].key)}, ${V.poems[n].kim}],`);
  lines.push('];');
  writeFileSync(path.join(root, 'web/js/drill-keys.js'), lines.join('\n') + '\n');
  console.log('wrote web/js/drill-keys.js');
  process.exit(0);
}

// the constants and the poems
check(same(V.intervals, S.INTERVALS), 'the intervals');
check(same(V.extra, S.EXTRA), 'the extra kana by box');
check(same(V.slow_ms, S.SLOW_MS), 'the slow thresholds');
let poemsOk = true;
for (let n = 1; n <= 100; n++) poemsOk &&= KEYS[n][0] === V.poems[n].key && KEYS[n][1] === V.poems[n].kim;
check(poemsOk && KEYS.length === 101, 'drill-keys.js holds the vectors\' 100 keys and kimariji (else run with --write)');
let kimOk = true;
for (let n = 1; n <= 100; n++) kimOk &&= S.kimariji(n, [1]) <= 6 && S.kimariji(n, []) === V.poems[n].kim;
check(kimOk, 'the static kimariji');

for (const c of V.cases) {
  const rec = JSON.parse(JSON.stringify(c.record));
  check(S.validRecord(rec), `${c.name}: the record before is valid`);
  const field = S.buildField(rec, c.cards, c.read);
  check(same(field, c.field), `${c.name}: the field ${JSON.stringify(field)} = ${JSON.stringify(c.field)}`);
  let prev = null;
  c.steps.forEach((st, i) => {
    const ask = S.nextCard(rec, field, prev);
    check(ask === st.ask, `${c.name} step ${i + 1}: asks ${ask} (want ${st.ask})`);
    const k = c.drill === 'kimariji' ? S.shownKana(rec, ask, c.read) : S.kimariji(ask, c.drill === 'listen' ? [] : c.read);
    check(k === st.shown, `${c.name} step ${i + 1}: shows ${k} kana (want ${st.shown})`);
    check(S.prefix(ask, k) === st.prefix, `${c.name} step ${i + 1}: the prefix ${S.prefix(ask, k)} (want ${st.prefix})`);
    const g = S.grade(c.drill, st.correct, st.ms);
    check(g === st.grade, `${c.name} step ${i + 1}: grade ${g} (want ${st.grade})`);
    const e = S.recordAnswer(rec, ask, g, st.ms);
    check(same(e, st.card), `${c.name} step ${i + 1}: the card after ${JSON.stringify(e)}`);
    prev = ask;
  });
  check(same(S.normalize(rec), c.after), `${c.name}: the record after`);
  check(S.validRecord(rec), `${c.name}: the record after is valid`);
  check(same(S.weakest(rec), c.weakest), `${c.name}: weakest ${JSON.stringify(S.weakest(rec))} (want ${JSON.stringify(c.weakest)})`);
}

// shapes the server refuses are refused here too
for (const bad of [null, [], { version: 2, step: 0, cards: {} }, { version: 1, step: -1, cards: {} },
  { version: 1, step: 0, cards: { 101: {} } },
  { version: 1, step: 0, cards: { '07': { box: 1, due: 0, seen: 0, good: 0, slow: 0, miss: 0, ms: 0, last: 0 } } },
  { version: 1, step: 0, cards: { 7: { box: 1, due: 0, seen: 1, good: 0, slow: 0, miss: 0, ms: 0, last: 0 } } }])
  check(!S.validRecord(bad), `refused: ${JSON.stringify(bad)}`);

// the flip drill's answers: exactly the kimariji, in kana or romaji (kar_romaji's Hepburn)
check(S.romaji('おおけ') === 'ooke' && S.romaji('ちは') === 'chiha' && S.romaji('きょう') === 'kyou' && S.romaji('しんあ') === "shin'a"
  && S.romaji('かった') === 'katta' && S.romaji('まっちゃ') === 'matcha', 'romaji as kar_romaji writes it');
const k17 = S.prefix(17, S.kimariji(17));
check(k17 === 'ちは', 'card 17\'s kimariji: ' + k17);
check(S.flipCorrect(17, 'ちは') && S.flipCorrect(17, ' Chi Ha ') && S.flipCorrect(17, 'チハ'), 'ちは, chiha, チハ are right');
check(!S.flipCorrect(17, 'ち') && !S.flipCorrect(17, 'ちはや') && !S.flipCorrect(17, '') && !S.flipCorrect(17, 'pass'),
  'a shorter or longer prefix, nothing, pass: wrong');

// keys it does not know are ignored (docs/drills.md), and left out when written
const extra = { version: 1, step: 1, cards: { 5: { box: 1, due: 2, seen: 1, good: 0, slow: 0, miss: 1, ms: 10, last: 1, note: 'x' } }, device: 'phone' };
check(S.validRecord(extra), 'unknown keys ignored');
check(same(S.normalize(extra), { version: 1, step: 1, cards: { 5: { box: 1, due: 2, seen: 1, good: 0, slow: 0, miss: 1, ms: 10, last: 1 } } }),
  'and left out when written');

// merging a guest's record into an account's
const e = (box, due, miss, last) => ({ box, due, seen: miss + 1, good: 1, slow: 0, miss, ms: 1000, last });
const acct = { version: 1, step: 20, cards: { 5: e(3, 27, 0, 20), 9: e(1, 18, 1, 17) } };
const guest = { version: 1, step: 6, cards: { 9: e(2, 9, 1, 6), 40: e(1, 7, 1, 6) } };
const m = S.mergeRecords(acct, guest);
check(same(m, { version: 1, step: 20, cards: { 5: e(3, 27, 0, 20), 9: e(1, 18, 1, 17), 40: e(1, 21, 1, 20) } }),
  `merge: the account's record leads, the guest's new card joins shifted: ${JSON.stringify(m)}`);
check(same(S.mergeRecords(null, guest), S.normalize(guest)) && same(S.mergeRecords(acct, null), S.normalize(acct)),
  'merge with nothing: the other record');
check(same(S.mergeRecords({ version: 9 }, null), S.emptyRecord()), 'merge of a bad record: a new one');

console.log(`# drill scheduler: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
