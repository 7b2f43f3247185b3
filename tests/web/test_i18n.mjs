// test_i18n.mjs — the catalogues (web/i18n/en.js, ru.js), in node: the same
// keys in both, no empty text, the same {placeholders} in both, and every key
// the page's code names literally — t('key') or api.t('key') in web/ — plus
// the keys it builds (error codes of the protocol, statuses, games) is in
// them. The browser tests check that no page shows a missing key.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';
import ja from '../../web/i18n/ja.js';
import vi from '../../web/i18n/vi.js';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../web');
let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else failed++;
  if (!cond || process.env.VERBOSE) console.log(`${cond ? 'ok' : 'not ok'} - i18n: ${what}`);
}

const cats = { en, ru, ja, vi };
const keys = (c) => Object.keys(c).sort();
for (const a of Object.keys(cats)) for (const b of Object.keys(cats)) {
  if (a === b) continue;
  const miss = keys(cats[a]).filter((k) => !(k in cats[b]));
  check(miss.length === 0, `every key of ${a} is in ${b}${miss.length ? ': missing ' + miss.join(', ') : ''}`);
}
const holders = (s) => (s.match(/\{\w+\}/g) || []).sort().join(' ');
for (const k of keys(en)) {
  for (const [code, cat] of Object.entries(cats)) {
    if (code === 'en' || !(k in cat)) continue;
    check(typeof en[k] === 'string' && en[k].trim() && typeof cat[k] === 'string' && cat[k].trim(), `${k}: a text in en and ${code}`);
    check(holders(en[k]) === holders(cat[k]), `${k}: the same placeholders in en and ${code} (${holders(en[k])} / ${holders(cat[k])})`);
  }
}

// keys named in the code
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'vendor' || e.name === 'i18n' ? [] : files(path.join(dir, e.name))) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : [],
  );
}
const used = new Set();
for (const f of files(web)) {
  const src = readFileSync(f, 'utf8');
  for (const m of src.matchAll(/\bt\(\s*'([A-Za-z0-9_.-]+)'\s*[,)]/g)) used.add(m[1]);
}
const errors = ['json', 'shape', 'type', 'too-long', 'rate', 'room', 'seat', 'illegal', 'stale', 'not-your-turn', 'options', 'storage', 'over', 'full', 'rated'];
for (const e of errors) used.add('error.' + e);
for (const s of ['connecting', 'online', 'reconnecting']) used.add('status.' + s);
for (const c of ['none', 'move', 'total']) used.add('new.clock.' + c);
for (const g of ['ur', 'cbw', 'tamcuc', 'karuta']) for (const x of ['name', 'line1', 'line2']) used.add(`game.${g}.${x}`);
const absent = [...used].filter((k) => Object.values(cats).some((c) => !(k in c))).sort();
check(absent.length === 0, `every key the code uses is in every catalogue${absent.length ? ': missing ' + absent.join(', ') : ''} (${used.size} keys)`);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
