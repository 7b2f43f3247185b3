// drill-sched.js — the karuta drills' record and scheduler, exactly as
// docs/drills.md gives them (the terminal's kar_drill.c follows the same
// page; tests/web/test_drill_sched.mjs replays data/drills/vectors.json
// here). Pure: no DOM, no storage, no clock, no randomness — the page
// (drill.js) measures the times and keeps the record.

import { KEYS } from './drill-keys.js';

export const INTERVALS = [0, 1, 3, 7, 15, 31]; // answers until a card of box b is due again
export const EXTRA = [3, 3, 2, 1, 0, 0]; // kana shown past the kimariji, by box (kimariji drill)
export const SLOW_MS = { kimariji: 3000, listen: 1000, flip: 5000 };
export const DEFAULT_CARDS = { kimariji: 12, listen: 24, flip: 24 };
export const MAX_MS = 60000;
const FIELDS = ['box', 'due', 'seen', 'good', 'slow', 'miss', 'ms', 'last'];

/** A new player's record. */
export function emptyRecord() {
  return { version: 1, step: 0, cards: {} };
}

/** Card n's entry in `rec` (a never-answered card reads as all zeros). */
export function entry(rec, n) {
  return rec.cards[n] || { box: 0, due: 0, seen: 0, good: 0, slow: 0, miss: 0, ms: 0, last: 0 };
}

const isCount = (v) => Number.isInteger(v) && v >= 0;

/** True when `rec` is a record of docs/drills.md's shape (the server's
 * drill_check says the same); keys it does not know are ignored. */
export function validRecord(rec) {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) return false;
  if (rec.version !== 1 || !isCount(rec.step)) return false;
  const cards = rec.cards;
  if (!cards || typeof cards !== 'object' || Array.isArray(cards)) return false;
  for (const [k, e] of Object.entries(cards)) {
    if (!/^[1-9][0-9]{0,2}$/.test(k) || Number(k) > 100) return false;
    if (!e || typeof e !== 'object' || Array.isArray(e)) return false;
    if (!FIELDS.every((f) => isCount(e[f]))) return false;
    if (e.box < 1 || e.box > 5 || e.seen !== e.good + e.slow + e.miss) return false;
  }
  return true;
}

/** The record in docs/drills.md's order (keys as shown, cards by number;
 * keys it does not know are left out). */
export function normalize(rec) {
  const cards = {};
  for (const n of Object.keys(rec.cards).map(Number).sort((a, b) => a - b)) {
    const e = rec.cards[n];
    cards[n] = Object.fromEntries(FIELDS.map((f) => [f, e[f]]));
  }
  return { version: 1, step: rec.step, cards };
}

/** The fixed order of new cards: the k-th is poem (37k mod 100) + 1. */
export const NEW_ORDER = Array.from({ length: 100 }, (_, k) => ((37 * k) % 100) + 1);

/** The cards of a session: `count` cards not in `read` (docs/drills.md,
 * "The field"), in the order new cards come in. */
export function buildField(rec, count, read = []) {
  const gone = new Set(read);
  const answered = Object.keys(rec.cards).map(Number).filter((n) => !gone.has(n));
  const weak = answered.filter((n) => rec.cards[n].box <= 2)
    .sort((a, b) => rec.cards[a].box - rec.cards[b].box || rec.cards[a].due - rec.cards[b].due || a - b);
  const fresh = NEW_ORDER.filter((n) => !gone.has(n) && !rec.cards[n]);
  const rest = answered.filter((n) => rec.cards[n].box > 2).sort((a, b) => rec.cards[a].due - rec.cards[b].due || a - b);
  return [...weak, ...fresh, ...rest].slice(0, Math.max(0, count));
}

/** The next card to ask from `field`, `prev` the one just asked (or null). */
export function nextCard(rec, field, prev) {
  const cand = field.length === 1 ? field.slice() : field.filter((n) => n !== prev);
  const byDue = (a, b) => entry(rec, a).due - entry(rec, b).due || entry(rec, a).box - entry(rec, b).box || a - b;
  const due = cand.filter((n) => rec.cards[n] && rec.cards[n].due <= rec.step).sort(byDue);
  if (due.length) return due[0];
  const fresh = cand.find((n) => !rec.cards[n]);
  if (fresh !== undefined) return fresh;
  return cand.slice().sort(byDue)[0];
}

/** Grade of an answer: 'good', 'slow' or 'miss' (docs/drills.md, "Grades"). */
export function grade(drill, correct, ms) {
  if (!correct) return 'miss';
  return ms > SLOW_MS[drill] ? 'slow' : 'good';
}

/** Records an answer of card n (grade g, time ms) in `rec` (changed in
 * place); returns the card's entry after it. */
export function recordAnswer(rec, n, g, ms) {
  rec.step += 1;
  const s = rec.step;
  const e = { ...entry(rec, n) };
  e.seen += 1;
  e.ms += Math.min(MAX_MS, Math.max(0, Math.round(ms)));
  e.last = s;
  if (g === 'good') {
    e.good += 1;
    e.box = Math.min(5, e.box + 1);
    e.due = s + INTERVALS[e.box];
  } else if (g === 'slow') {
    e.slow += 1;
    e.box = Math.max(1, e.box);
    e.due = s + INTERVALS[e.box];
  } else {
    e.miss += 1;
    e.box = 1;
    e.due = s + 1;
  }
  rec.cards[n] = e;
  return e;
}

/** The weakest cards: answered, some slow or missed; lowest box, then most
 * misses (2 * miss + slow), then number; the first `count`. */
export function weakest(rec, count = 10) {
  const w = (n) => 2 * rec.cards[n].miss + rec.cards[n].slow;
  return Object.keys(rec.cards).map(Number).filter((n) => rec.cards[n].slow + rec.cards[n].miss > 0)
    .sort((a, b) => rec.cards[a].box - rec.cards[b].box || w(b) - w(a) || a - b)
    .slice(0, count);
}

/** Poem n's sound key (KA-K1) as an array of kana. */
export function keyOf(n) {
  return [...KEYS[n][0]];
}

/** Poem n's kimariji length: the static one (KA-K2) when nothing is read,
 * else the dynamic one (KA-K3): the shortest prefix no other unread poem's
 * key starts with (n itself counts as unread), at most 6. */
export function kimariji(n, read = []) {
  if (!read.length) return KEYS[n][1];
  const gone = new Set(read);
  const key = KEYS[n][0];
  const others = [];
  for (let m = 1; m <= 100; m++) if (m !== n && !gone.has(m)) others.push(KEYS[m][0]);
  const kana = [...key];
  for (let len = 1; len <= 6; len++) {
    const p = kana.slice(0, len).join('');
    if (!others.some((o) => o.startsWith(p))) return len;
  }
  return 6;
}

/** The number of kana the kimariji drill shows for card n (its box before
 * the answer): min(keylen, K + EXTRA[box]). */
export function shownKana(rec, n, read = []) {
  return Math.min(keyOf(n).length, kimariji(n, read) + EXTRA[entry(rec, n).box]);
}

/** The first k kana of poem n's key. */
export function prefix(n, k) {
  return keyOf(n).slice(0, k).join('');
}

/** A guest's record `guest` merged into an account's `acct` (either may be
 * null): the one with more answers (step) is the base; each card only the
 * other has joins it, its due and last moved by the difference of the two
 * steps (so it is as far from due as it was); a card both have keeps the
 * base's entry. Returns a new record. */
export function mergeRecords(acct, guest) {
  const a = acct && validRecord(acct) ? acct : null;
  const g = guest && validRecord(guest) ? guest : null;
  if (!a || !g) return normalize(a || g || emptyRecord());
  const [base, other] = a.step >= g.step ? [a, g] : [g, a];
  const out = normalize(base);
  const shift = base.step - other.step;
  for (const [k, e] of Object.entries(other.cards)) {
    if (out.cards[k]) continue;
    out.cards[k] = { ...e, due: e.due + shift, last: e.last + shift };
  }
  return normalize(out);
}

// Hepburn as the terminal's kar_romaji writes it (src/games/karuta/kar_poems.c).
const ROM = ['a', 'a', 'i', 'i', 'u', 'u', 'e', 'e', 'o', 'o',
  'ka', 'ga', 'ki', 'gi', 'ku', 'gu', 'ke', 'ge', 'ko', 'go',
  'sa', 'za', 'shi', 'ji', 'su', 'zu', 'se', 'ze', 'so', 'zo',
  'ta', 'da', 'chi', 'ji', '', 'tsu', 'zu', 'te', 'de', 'to', 'do',
  'na', 'ni', 'nu', 'ne', 'no',
  'ha', 'ba', 'pa', 'hi', 'bi', 'pi', 'fu', 'bu', 'pu', 'he', 'be', 'pe', 'ho', 'bo', 'po',
  'ma', 'mi', 'mu', 'me', 'mo',
  'ya', 'ya', 'yu', 'yu', 'yo', 'yo',
  'ra', 'ri', 'ru', 're', 'ro', 'wa', 'wa', 'i', 'e', 'o', 'n'];
const isHira = (c) => c >= 0x3041 && c <= 0x3093;

/** Hiragana in romaji, as kar_romaji writes it (っ doubles the next
 * consonant, ゃゅょ join the kana before, ん is n' before a vowel or y). */
export function romaji(hira) {
  const cps = [...hira].map((c) => c.codePointAt(0));
  let out = '';
  let gem = false;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (!isHira(c)) {
      out += String.fromCodePoint(c);
      gem = false;
      continue;
    }
    if (c === 0x3063) {
      gem = true;
      continue;
    }
    let syl = ROM[c - 0x3041];
    const nx = cps[i + 1];
    if ((nx === 0x3083 || nx === 0x3085 || nx === 0x3087) && syl.length >= 2 && syl.endsWith('i')) {
      const y = ROM[nx - 0x3041];
      syl = syl.slice(0, -1) + (['shi', 'chi', 'ji'].includes(syl) ? y.slice(1) : y);
      i++;
    }
    if (gem) {
      out += syl[0] === 'c' ? 't' : syl[0];
      gem = false;
    }
    if (c === 0x3093) {
      out += 'n';
      const after = cps[i + 1];
      if (after !== undefined && isHira(after) && 'aiueoy'.includes(ROM[after - 0x3041][0] || '-')) out += "'";
      continue;
    }
    out += syl;
  }
  return out;
}

/** Whether `answer` is card n's kimariji in the flip drill: exactly the first
 * K kana of its key (K after `read`), in hiragana or in romaji, case and
 * spaces ignored (katakana read as hiragana). */
export function flipCorrect(n, answer, read = []) {
  const want = prefix(n, kimariji(n, read));
  const a = String(answer || '').normalize('NFKC').toLowerCase().replace(/\s+/g, '')
    .replace(/[\u30a1-\u30f6]/g, (ch) => String.fromCodePoint(ch.codePointAt(0) - 0x60));
  if (!a || a === 'pass') return false;
  return a === want || a === romaji(want).toLowerCase();
}
