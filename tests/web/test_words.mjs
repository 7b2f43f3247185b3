// test_words.mjs — the notation test (issue 31, §4): no engine notation, rule
// ids or jargon on any screen a player sees, in either language. It walks the
// rendered pages of all four games — the lobby, the new-room form with every
// game's options opened, a room at the start (a player seated), in the middle
// and at the end (a spectator of computers: one finished room per game, made
// first, so that karuta's readings run while the other pages are read), and
// the replay — in en and ru at
// phone and desktop size, reads what a player reads (innerText, the labels of
// buttons and options, title/aria-label/placeholder/alt attributes), and
// fails on the patterns below; on a Russian page also on English words (the
// words of en.js's values that no ru.js value has).
//
// It walks every page before it judges, and prints EVERY offender at once,
// grouped by what matched, with the pages and a snippet of the text around
// each (set PARLOUR_WORDS_REPORT=FILE to get them as JSON too). Shots of
// each page: SHOTS/words-PAGE-SIZE-LANG.png.

import { run, sourceFile } from './harness.mjs';
import { writeFileSync } from 'node:fs';

/** What a player must never read: [name, pattern]. */
const PATTERNS = [
  ['rule id', /\b[A-Z]{2,3}-[RUSK]\d+(\.\d+)?\b/g],
  ['Tam Cúc card code', /(?<![\p{L}\d])[rb][GAERHCS](?![\p{L}\d])/gu],
  ['placement notation (City Behind Walls, karuta)', /\d+[SHDC]?@-?\d+,-?\d+/g],
  ['engine word', /\b(skiryuk|finkel|3lots|MCTS|expectimax|nodeclare|upper_ms|lower_ms|memo_s|yoin_ms|pause_ms|tie_ms|owner_ms|seed_27|alt_27|deck_30|rotate_ccw|g_a_e|g_a|perfect:FILE|own-first|opponent-first)\b/g],
  ['option key=value', /\b[a-z_]+=[a-z0-9_:]+/g],
  ['variant key', /\b(kyogi|uta|chirashi):/g],
  ['"Seat N:"', /\b(Seat|Место) \d+:/g],
  ['"roll N"', /\broll \d/g],
  // a line that is nothing but an engine action: "enter", "move 5", "place 3@1,2", "lay 2"
  ['engine action', /^(enter|move|roll|lay|lead|place|send|touch|arrange|pool|declare|nodeclare|pass|first)( [a-z]?\d[\w@,/?-]*)*$/gm],
];

/** Names of keys, which a Russian keyboard shows in Latin letters too. */
const KEYS = new Set(['Enter', 'Esc', 'Space', 'Home', 'End', 'Tab', 'Shift']);

/** English words of en.js's values that no ru.js value has (a Russian page must not show them). */
function englishWords() {
  const words = (file) => {
    const text = sourceFile(file);
    const vals = [...text.matchAll(/^\s*'[^']+':\s*(['"`])((?:\\.|(?!\1).)*)\1/gm)].map((m) => m[2]);
    return new Set(vals.join(' ').replace(/\{[^}]*\}/g, ' ').match(/\b[A-Za-z]{3,}\b/g) || []);
  };
  const en = words('web/i18n/en.js'), ru = words('web/i18n/ru.js');
  const out = new Set();
  for (const w of en) if (!ru.has(w) && w.toLowerCase() === w) out.add(w);
  return out;
}

/** What a player reads on the page: its text, and the words of its attributes and options. */
async function readPage(page) {
  return page.evaluate(() => {
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[title],[aria-label],[placeholder],[alt],option,input[type=button],input[type=submit]')) {
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) if (el.getAttribute(a)) parts.push(el.getAttribute(a));
      if (el.tagName === 'OPTION') parts.push(el.textContent);
      if (el.tagName === 'INPUT' && el.value) parts.push(el.value);
    }
    for (const el of document.querySelectorAll('svg title, svg text')) parts.push(el.textContent);
    return parts.join('\n');
  });
}

const GAMES = {
  ur: { options: { pieces: '1' }, seats: 2 },
  cbw: { options: { w: '3', h: '2' }, seats: 4 },
  tamcuc: { options: { players: '2' }, seats: 2 },
  karuta: { options: { variant: 'kyogi', deal: '1;2;3/4;5;6', memo_s: '0', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '500' }, seats: 2,
    end: { variant: 'kyogi', deal: '1/2', memo_s: '0', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '0' } },
};

run('words', async (h) => {
  const offenders = []; // {what, where, match, around}
  const en = englishWords();
  let pages = 0;

  async function judge(page, where, lang) {
    // the table's module and its words: a room's table mounted, a replay's game module in
    await page.waitForFunction(() => {
      const p = window.__parlour && window.__parlour.page;
      if (p && p.room) return !!p.room.table;
      if (p && p.replay) return !p.replay.steps || !!p.replay.mod;
      return true;
    });
    const text = await readPage(page);
    pages++;
    const lines = text.split('\n');
    const found = (what, match, index) => {
      const around = text.slice(Math.max(0, index - 40), index + match.length + 40).replace(/\s+/g, ' ');
      offenders.push({ what, where, match, around });
    };
    for (const [what, re] of PATTERNS) {
      if (what === 'engine action') {
        for (const line of lines) for (const m of line.matchAll(re)) found(what, m[0], text.indexOf(line) + m.index);
        continue;
      }
      for (const m of text.matchAll(re)) found(what, m[0], m.index);
    }
    if (lang === 'ru')
      for (const m of text.matchAll(/\b[A-Za-z]{3,}\b/g))
        if (!KEYS.has(m[0]) && (en.has(m[0]) || en.has(m[0].toLowerCase()))) found('English word on a Russian page', m[0], m.index);
    await h.shot(page, where.replace(/[^a-z0-9]+/gi, '-'));
  }

  // one room of computers per game played to the end meanwhile (karuta: one card a side)
  const ended = {};
  await h.step('rooms of computers that play to the end meanwhile', async () => {
    const p = await h.page('desktop', { lang: 'en' });
    await p.goto(h.url('/'));
    for (const [game, g] of Object.entries(GAMES))
      ended[game] = (await h.createRoom(p, { game, options: g.end || g.options, seats: Array.from({ length: g.seats }, () => ({ kind: 'ai', level: 'easy' })) })).room;
  });

  for (const lang of ['en', 'ru']) {
    for (const size of ['phone', 'desktop']) {
      const tag = `${size}-${lang}`;
      const page = await h.page(size, { lang });
      const name = lang === 'ru' ? 'Аня' : 'Ann';

      await h.step(`${tag}: the lobby and the new-room form of every game, every option opened`, async () => {
        await page.goto(h.url('/'));
        await page.locator('#new-game').waitFor();
        await judge(page, `lobby-${tag}`, lang);
        for (const game of Object.keys(GAMES)) {
          await page.selectOption('#new-game', game);
          await page.evaluate(() => document.querySelectorAll('#new-room details').forEach((d) => (d.open = true)));
          await judge(page, `new-${game}-${tag}`, lang);
        }
      });

      for (const [game, g] of Object.entries(GAMES)) {
        await h.step(`${tag}: ${game}: a room at the start, in the middle, at the end, and its replay`, async () => {
          // the start: a player seated against computers
          await page.goto(h.url('/'));
          const seats = [{ kind: 'person' }].concat(Array.from({ length: g.seats - 1 }, () => ({ kind: 'ai', level: 'easy' })));
          const mine = await h.createRoom(page, { game, options: g.options, seats });
          await h.join(page, mine.room, name);
          // playing, or over already (a short game whose moves were all forced)
          await h.waitState(page, (st) => st.status !== 'waiting');
          await judge(page, `${game}-start-${tag}`, lang);
          // the middle and the end: computers, watched
          const all = await h.createRoom(page, { game, options: g.options, seats: Array.from({ length: g.seats }, () => ({ kind: 'ai', level: 'easy' })) });
          await page.goto(h.url('/room/' + all.room));
          await h.waitState(page, (st) => st.over || (st.history_from || 0) + (st.history || []).length >= 6, undefined, 60000);
          await judge(page, `${game}-middle-${tag}`, lang);
          await page.goto(h.url('/room/' + ended[game]));
          await h.waitState(page, (st) => st.over, undefined, 300000);
          await judge(page, `${game}-end-${tag}`, lang);
          await page.goto(h.url('/room/' + ended[game] + '#replay'));
          await page.locator('#replay-step').waitFor();
          await page.keyboard.press('ArrowRight');
          await page.keyboard.press('ArrowRight');
          await judge(page, `${game}-replay-${tag}`, lang);
        });
      }
    }
  }

  await h.step(`no notation, rule ids or jargon on ${pages} pages`, async () => {
    if (process.env.PARLOUR_WORDS_REPORT) writeFileSync(process.env.PARLOUR_WORDS_REPORT, JSON.stringify(offenders, null, 1) + '\n');
    if (!offenders.length) return;
    // every offender at once, grouped by what matched and the text matched
    const groups = new Map();
    for (const o of offenders) {
      const k = `${o.what}: "${o.match}"`;
      if (!groups.has(k)) groups.set(k, { pages: new Set(), around: o.around });
      groups.get(k).pages.add(o.where);
    }
    const lines = [...groups.entries()].sort().map(([k, v]) => `${k} on ${v.pages.size} page(s) (${[...v.pages].slice(0, 4).join(', ')}${v.pages.size > 4 ? ', …' : ''})\n      …${v.around}…`);
    console.log(`words: ${offenders.length} offenders, ${groups.size} distinct:\n  ` + lines.join('\n  '));
    h.check(false, `${groups.size} kinds of notation or jargon on the pages (listed above)`);
  });
});
