// The rules summaries of web/rules/*.js as the terminal's catalogue lines
// (rules.GAME.* keys of data/words/LANG.txt, issue 32 T4): the terminal's
// rules page says what the browser's does.
//   node scripts/rules_words.mjs           prints, per language, the lines
//   node scripts/rules_words.mjs --check   exit 1 when data/words differs
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const games = ['ur', 'cbw', 'tamcuc', 'karuta'];
const pad = (n) => String(n).padStart(2, '0');
const out = { en: [], ru: [], ja: [], vi: [] };
const esc = (t) => String(t).replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
for (const g of games) {
  const m = (await import(path.join(root, 'web', 'rules', `${g}.js`))).default;
  for (const lang of Object.keys(out)) {
    const lines = out[lang];
    m[lang].forEach((sec, si) => {
      const S = `rules.${g}.${pad(si + 1)}`;
      const cond = (w) => {
        if (!w) return '';
        const ks = Object.keys(w);
        if (ks.length !== 1 || Array.isArray(w[ks[0]])) throw new Error('when ' + JSON.stringify(w));
        return `.if.${ks[0]}.${w[ks[0]]}`;
      };
      lines.push(`${S}${cond(sec.when)} = ${esc(sec.title)}`);
      sec.items.forEach((it, ii) => {
        const I = `${S}.${pad(ii + 1)}`;
        if (typeof it === 'string') return lines.push(`${I} = ${esc(it)}`);
        const c = cond(it.when);
        if (!it.opt) return lines.push(`${I}${c} = ${esc(it.text)}`);
        if (it.text) lines.push(`${I}${c}.opt.${it.opt} = ${esc(it.text)}`);
        for (const [v, t] of Object.entries(it.v || {})) if (t !== null || it.text) lines.push(`${I}${c}.opt.${it.opt}.${v} = ${t === null ? '-' : esc(t)}`);
      });
    });
  }
}
const keys = (l) => out[l].map((x) => x.split(' = ')[0]).join('\n');
for (const l of ['ru', 'ja', 'vi']) if (keys(l) !== keys('en')) { console.error('keys differ', l); process.exit(1); }
if (process.argv[2] === '--check') {
  let bad = 0;
  for (const l of Object.keys(out)) {
    const have = fs.readFileSync(path.join(root, 'data', 'words', `${l}.txt`), 'utf8')
      .split('\n').filter((x) => x.startsWith('rules.')).join('\n');
    const want = out[l].join('\n');
    if (have !== want) {
      const h = have.split('\n'), w = want.split('\n');
      const i = w.findIndex((x, k) => x !== h[k]);
      console.error(`data/words/${l}.txt: rules.* lines differ from web/rules at line ${i + 1} of them:\n  have: ${h[i]}\n  want: ${w[i]}`);
      bad = 1;
    }
  }
  if (!bad) console.log(`rules.* lines match web/rules (${out.en.length} per language)`);
  process.exit(bad);
}
for (const l of Object.keys(out)) console.log(`# ${l}\n` + out[l].join('\n'));
