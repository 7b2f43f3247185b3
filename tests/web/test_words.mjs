// test_words.mjs — the walk over every page (issues 31 and 32): no engine
// notation, rule ids or jargon on any screen a player sees, no string left
// in another language, no text that overflows its box. It walks the
// rendered pages of all four games — the lobby, the new-room form with every
// game's options opened, karuta's drills (/drill: the setup and a drill), a room at the start (a player seated), in the
// middle and at the end (a spectator of computers: one finished room per
// game, made first, so that karuta's readings run while the other pages are
// read), and the replay — in en, ru, ja and vi at phone and desktop size
// (ja and vi: the rooms and replays at phone size only, to keep the walk
// near six minutes), reads what a player reads (innerText, the labels of
// buttons and options, title/aria-label/placeholder/alt attributes), and
// fails on:
//   - the notation PATTERNS below, on every page;
//   - strings left in another language, on the pages of the languages in
//     PARLOUR_WORDS_LANGS (default all four; e.g. en,ru leaves out ja, vi): each
//     text is judged in the language of its element (lang="…", else the
//     page's): English words (a list of English interface words: those of
//     en.js's values that Russian's complete catalogue does not use, less
//     the words of the page's catalogue's translated values) where the
//     text is not English; Cyrillic where it is not Russian; kana and kanji
//     where it is not Japanese (lang="ja": karuta's poems), Han characters
//     allowed in Chinese-script elements too (lang zh…, …-Hani, …-Hant);
//   - text that overflows: cut by an ancestor whose overflow is hidden or
//     clip, past the right edge of the page, or past the box of an element
//     whose scrollWidth exceeds its clientWidth while its overflow is
//     visible; a page that scrolls sideways at 360 px.
// axe-core runs on the pages too (serious and critical violations; at
// desktop size on the English pages only, PARLOUR_WORDS_AXE=all: every
// page), and fails the test on any of them, as every check above does
// (issue 32: the last of them, once only listed, are fixed).
//
// It walks every page before it judges, and prints EVERY offender at once,
// grouped by what matched, with the pages and a snippet of the text around
// each (set PARLOUR_WORDS_REPORT=FILE to get them as JSON too, axe's
// findings with them). PARLOUR_WORDS_WALK=en,ja walks only those languages.
// Shots of each page: SHOTS/words-PAGE-SIZE-LANG.png.

import { run, config } from './harness.mjs';
import { writeFileSync } from 'node:fs';
import { CARDS } from '../../web/games/karuta-cards.js';

/** Japanese that belongs on every page: the hundred poems (their verses, poets and their
 * readings: karuta's cards and sentences quote them in every language) and Tam Cúc's card
 * faces (the xiangqi characters printed on the cards). Any other kana or kanji on a page
 * that is not Japanese is a string left in another language. */
const POEMS = CARDS.filter(Boolean).map(([tori, upper, poet, poetKana]) => [...tori, tori.join(''), upper, upper.replace(/ /g, ''), poet, poetKana].join('|')).join('|');
const TAMCUC_FACES = /^[帥將仕士相象俥車炮砲傌馬兵卒]+$/u;
/** karuta's own terms, which the English, Russian and Vietnamese words gloss ("dead cards (空札
 * karafuda)") so that a player learns what Japanese players say. */
const KARUTA_TERMS = new Set(['空札', '送り札', '決まり字', 'お手つき', '札', '取り札', '読み札', '上の句', '下の句', '自陣', '敵陣', '競技かるた', '百人一首', 'かるた']);
const ownJapanese = (run) => TAMCUC_FACES.test(run) || POEMS.includes(run) || KARUTA_TERMS.has(run);
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

const JAPANESE = 'Kana or kanji outside lang="ja"';
/** The languages' names in the messages. */
const NAMES = { en: 'English', ru: 'Russian', ja: 'Japanese', vi: 'Vietnamese' };

/** Names of keys, which a Russian keyboard shows in Latin letters too. */
const KEYS = new Set(['Enter', 'Esc', 'Space', 'Home', 'End', 'Tab', 'Shift']);

const LANGS = ['en', 'ru', 'ja', 'vi'];
const WALK = (process.env.PARLOUR_WORDS_WALK || LANGS.join(',')).split(',').filter((l) => LANGS.includes(l));
const JUDGED = new Set((process.env.PARLOUR_WORDS_LANGS || LANGS.join(',')).split(',').filter((l) => LANGS.includes(l)));
/** axe-core runs on every page at phone size, and at desktop size on the English pages (the same
 * markup as in the other languages; it takes about as long as the rest of a page's walk);
 * PARLOUR_WORDS_AXE=all: on every page. */
const AXE_ALL = process.env.PARLOUR_WORDS_AXE === 'all';
/** The sizes at which each language's rooms and replays are walked (its lobby and forms: both):
 * ja and vi at phone size only, to keep the walk near six minutes. PARLOUR_WORDS_ROOMS=0: none
 * (a quick walk of the lobby and the forms). */
const ROOM_SIZES = process.env.PARLOUR_WORDS_ROOMS === '0' ? { en: [], ru: [], ja: [], vi: [] }
  : { en: ['phone', 'desktop'], ru: ['phone', 'desktop'], ja: ['phone'], vi: ['phone'] };

/** The catalogues of the source tree walked (web/i18n/LANG.js). */
async function catalogues() {
  const out = {};
  for (const l of LANGS) out[l] = (await import(pathToFileURL(path.join(config.source, 'web/i18n', l + '.js')).href)).default;
  return out;
}

/** The words (3 letters or more, Latin script) of `values`. */
function wordsOf(values) {
  return new Set(values.join(' ').replace(/\{[^}]*\}/g, ' ').match(/\b[A-Za-z]{3,}\b/g) || []);
}

/** For each language but English, the English interface words its pages must not show:
 * the lower-case words of en.js's values that ru.js (a complete translation) does not use —
 * names, terms and notation both share are left out —, less the words of the language's own
 * translated values (those that differ from English: a Vietnamese word may look English). */
function englishWords(cats) {
  const ru = wordsOf(Object.values(cats.ru));
  const base = [...wordsOf(Object.values(cats.en))].filter((w) => !ru.has(w) && w.toLowerCase() === w && !KEYS.has(w));
  const out = {};
  for (const l of LANGS) {
    if (l === 'en') continue;
    const own = wordsOf(Object.entries(cats[l]).filter(([k, v]) => v !== cats.en[k]).map(([, v]) => v));
    out[l] = new Set(base.filter((w) => !own.has(w)));
  }
  return out;
}

/** Pieces of what a player reads, each with the language of its element:
 * [{text, lang}] — visible text nodes (visually hidden text for screen
 * readers included), the title/aria-label/placeholder/alt attributes,
 * options, svg titles. */
async function readPieces(page) {
  return page.evaluate(() => {
    const out = [];
    const langOf = (el) => ((el && el.closest('[lang]')) || document.documentElement).getAttribute('lang') || '';
    const owner = (el) => {
      let s = el.tagName.toLowerCase();
      if (el.id) s += '#' + el.id;
      const cls = el.getAttribute('class');
      if (cls) s += '.' + cls.trim().split(/\s+/).slice(0, 3).join('.');
      return s;
    };
    const shown = (el) => !el.checkVisibility || el.checkVisibility({ visibilityProperty: true }) || el.closest('option, svg title');
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || el.closest('script, style, noscript')) continue;
      if (el.closest('option') ? !shown(el.closest('select')) : !shown(el)) continue;
      out.push({ text: n.textContent, lang: langOf(el), owner: owner(el) });
    }
    for (const el of document.querySelectorAll('[title],[aria-label],[placeholder],[alt],input[type=button],input[type=submit]')) {
      if (!shown(el)) continue;
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) if (el.getAttribute(a)) out.push({ text: el.getAttribute(a), lang: langOf(el), owner: `${owner(el)}[${a}]` });
      if (el.tagName === 'INPUT' && el.value) out.push({ text: el.value, lang: langOf(el), owner: `${owner(el)}[value]` });
    }
    out.push({ text: document.title, lang: document.documentElement.lang, owner: 'title' });
    return out;
  });
}

/** Text that overflows its box, run in the page: [{what, match, around}]. */
function overflowInPage(phone) {
  const out = [];
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = el.getAttribute('class');
    if (cls) s += '.' + cls.trim().split(/\s+/).slice(0, 3).join('.');
    return s;
  };
  const seen = new Set();
  const found = (what, el, text) => {
    const key = what + ' ' + name(el);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ what, match: name(el), around: text.trim().replace(/\s+/g, ' ').slice(0, 80) });
  };
  const vw = document.documentElement.clientWidth;
  if (phone && document.documentElement.scrollWidth > vw + 1)
    out.push({ what: 'the page scrolls sideways at 360 px', match: `${document.documentElement.scrollWidth} px wide`, around: '' });
  const inner = (a) => {
    const b = a.getBoundingClientRect(), cs = getComputedStyle(a);
    return { l: b.left + parseFloat(cs.borderLeftWidth), r: b.right - parseFloat(cs.borderRightWidth),
      t: b.top + parseFloat(cs.borderTopWidth), b: b.bottom - parseFloat(cs.borderBottomWidth), w: b.width, h: b.height, cs };
  };
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || el.closest('script, style, noscript, option, select, textarea, [data-layout-skip]')) continue;
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (!rects.length) continue;
    let hidden = false; // visually hidden on purpose (a 1 px clipped box: text for screen readers)
    let pastBox = null;
    let inBox = false; // inside a clipping or scrolling box: the page's edge is not its limit
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const box = inner(a);
      const ox = box.cs.overflowX, oy = box.cs.overflowY;
      if ((ox === 'hidden' || ox === 'clip' || oy === 'hidden' || oy === 'clip') && (box.w <= 1 || box.h <= 1)) {
        hidden = true;
        break;
      }
      const cx = ox === 'hidden' || ox === 'clip', cy = oy === 'hidden' || oy === 'clip';
      if (cx || cy) {
        for (const r of rects)
          if ((cx && (r.left < box.l - 1 || r.right > box.r + 1)) || (cy && (r.top < box.t - 1 || r.bottom > box.b + 1))) {
            found('text cut by its box (overflow hidden)', a, n.textContent);
            break;
          }
      } else if (!pastBox && ox === 'visible' && a.clientWidth > 0 && a.scrollWidth > a.clientWidth + 1) {
        if (rects.some((r) => r.right > box.r + 1 || r.left < box.l - 1)) pastBox = a;
      }
      if (ox !== 'visible' || oy !== 'visible') {
        inBox = true;
        break; // a clipping or scrolling box: what lies outside it is its own
      }
    }
    if (hidden) continue;
    if (pastBox) found('text past its box (scrollWidth over clientWidth)', pastBox, n.textContent);
    if (!inBox && rects.some((r) => r.right + window.scrollX > vw + 1 || r.left + window.scrollX < -1)) found('text past the edge of the page', el, n.textContent);
  }
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
  const axeFound = []; // the same, axe-core's serious and critical violations
  const cats = await catalogues();
  const english = englishWords(cats);
  let pages = 0;
  const started = Date.now();
  const spent = { axe: 0, overflow: 0, words: 0 }; // ms, for the report of the walk's time
  const timed = async (k, fn) => {
    const t0 = Date.now();
    try {
      return await fn();
    } finally {
      spent[k] += Date.now() - t0;
    }
  };

  async function judge(page, where, lang, size) {
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
    if (JUDGED.has(lang)) await timed('words', async () => {
      const CJK = /[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/gu;
      const HAN = /^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$/u;
      for (const { text: s, lang: l, owner } of await readPieces(page)) {
        const base = (l || lang).toLowerCase().split('-')[0];
        const hanScript = base === 'zh' || /-(hani|hant|hans)\b/i.test(l);
        const report = (what, m, byOwner) => {
          const around = s.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40).replace(/\s+/g, ' ');
          if (!byOwner) offenders.push({ what, where, match: m[0], around });
          else if (!offenders.some((o) => o.what === what && o.where === where && o.match === owner)) offenders.push({ what, where, match: owner, around });
        };
        if (base !== 'en' && english[lang] && base === lang)
          for (const m of s.matchAll(/\b[A-Za-z]{3,}\b/g))
            if (!KEYS.has(m[0]) && (english[lang].has(m[0]) || english[lang].has(m[0].toLowerCase()))) report(`English word on a ${NAMES[lang]} page`, m);
        if (base !== 'ru') for (const m of s.matchAll(/[\u0400-\u04ff]+/g)) report(`Cyrillic on a ${NAMES[lang]} page`, m);
        // grouped by the element that holds it (a poem is many words)
        if (base !== 'ja') for (const m of s.matchAll(CJK)) if (!(hanScript && HAN.test(m[0])) && !ownJapanese(m[0])) report(`${JAPANESE} on a ${NAMES[lang]} page, in`, m, true);
      }
    });
    for (const o of await timed('overflow', () => page.evaluate(overflowInPage, size === 'phone'))) offenders.push({ ...o, where });
    if (AXE_ALL || size === 'phone' || lang === 'en') for (const v of await timed('axe', () => h.axe(page)))
      axeFound.push({ what: `axe: ${v.id} (${v.impact})`, where, match: v.help, around: v.nodes.slice(0, 3).join(' | ') });
    // City Behind Walls' news box, its lines grown after they were drawn (a font that comes
    // late, a narrower box: what axe once found at the end of a game in Russian, by chance): a
    // box that scrolls then must take the focus too (axe's scrollable-region-focusable)
    if (where.startsWith('cbw-') && size === 'phone') await timed('axe', async () => {
      const grown = await page.evaluate(() => {
        const b = document.querySelector('.cbw-news');
        if (!b) return false;
        b.style.maxWidth = '40%';
        return b.scrollHeight > b.clientHeight + 1;
      });
      if (grown) for (const v of await h.axe(page, { include: '.cbw-news' }))
        axeFound.push({ what: `axe: ${v.id} (${v.impact}), the news box's lines grown`, where, match: v.help, around: v.nodes.slice(0, 3).join(' | ') });
      await page.evaluate(() => document.querySelector('.cbw-news') && (document.querySelector('.cbw-news').style.maxWidth = ''));
    });
    await h.shot(page, where.replace(/[^a-z0-9]+/gi, '-'));
  }

  // one room of computers per game played to the end meanwhile (karuta: one card a side)
  const ended = {};
  if (WALK.some((l) => ROOM_SIZES[l].length)) await h.step('rooms of computers that play to the end meanwhile', async () => {
    const p = await h.page('desktop', { lang: 'en' });
    await p.goto(h.url('/'));
    for (const [game, g] of Object.entries(GAMES))
      ended[game] = (await h.createRoom(p, { game, options: g.end || g.options, seats: Array.from({ length: g.seats }, () => ({ kind: 'ai', level: 'easy' })) })).room;
  });

  for (const lang of WALK) {
    for (const size of ['phone', 'desktop']) {
      const tag = `${size}-${lang}`;
      const page = await h.page(size, { lang });
      const name = 'Mai'; // a name of every language's page (the lobby of one lists the rooms of all)

      await h.step(`${tag}: the lobby and the new-room form of every game, every option opened`, async () => {
        await page.goto(h.url('/'));
        await page.locator('#new-game').waitFor();
        await judge(page, `lobby-${tag}`, lang, size);
        for (const game of Object.keys(GAMES)) {
          await page.selectOption('#new-game', game);
          await page.evaluate(() => document.querySelectorAll('#new-room details').forEach((d) => (d.open = true)));
          await judge(page, `new-${game}-${tag}`, lang, size);
        }
      });

      await h.step(`${tag}: karuta's drills: the setup, and a kimariji drill after a wrong answer`, async () => {
        await page.goto(h.url('/drill'));
        await page.waitForFunction(() => window.__parlour.page.drill && window.__parlour.page.drill.loaded());
        await page.locator('#drill-setup').waitFor();
        await judge(page, `drill-setup-${tag}`, lang, size);
        await page.selectOption('#drill-size', '6');
        await page.locator('#drill-start').click();
        const n = await (await page.waitForFunction(() => window.__parlour.page.drill.asked())).jsonValue();
        await page.locator(`#drill-field .drill-card:not([data-card="${n}"])`).first().click();
        await page.locator('#drill-feedback[data-grade="miss"]').waitFor();
        await judge(page, `drill-${tag}`, lang, size);
      });

      if (!ROOM_SIZES[lang].includes(size)) continue;
      for (const [game, g] of Object.entries(GAMES)) {
        await h.step(`${tag}: ${game}: a room at the start, in the middle, at the end, and its replay`, async () => {
          // the start: a player seated against computers
          await page.goto(h.url('/'));
          const seats = [{ kind: 'person' }].concat(Array.from({ length: g.seats - 1 }, () => ({ kind: 'ai', level: 'easy' })));
          const mine = await h.createRoom(page, { game, options: g.options, seats });
          await h.join(page, mine.room, name);
          // playing, or over already (a short game whose moves were all forced)
          await h.waitState(page, (st) => st.status !== 'waiting');
          await judge(page, `${game}-start-${tag}`, lang, size);
          // the middle and the end: computers, watched
          const all = await h.createRoom(page, { game, options: g.options, seats: Array.from({ length: g.seats }, () => ({ kind: 'ai', level: 'easy' })) });
          await page.goto(h.url('/room/' + all.room));
          await h.waitState(page, (st) => st.over || (st.history_from || 0) + (st.history || []).length >= 6, undefined, 60000);
          await judge(page, `${game}-middle-${tag}`, lang, size);
          await page.goto(h.url('/room/' + ended[game]));
          await h.waitState(page, (st) => st.over, undefined, 300000);
          await judge(page, `${game}-end-${tag}`, lang, size);
          await page.goto(h.url('/room/' + ended[game] + '#replay'));
          await page.locator('#replay-step').waitFor();
          await page.keyboard.press('ArrowRight');
          await page.keyboard.press('ArrowRight');
          await judge(page, `${game}-replay-${tag}`, lang, size);
        });
      }
    }
  }

  const secs = Math.round((Date.now() - started) / 1000);
  await h.step(`no notation, jargon, leftover language or overflowing text on ${pages} pages (walked in ${secs} s)`, async () => {
    if (process.env.PARLOUR_WORDS_REPORT) writeFileSync(process.env.PARLOUR_WORDS_REPORT, JSON.stringify(offenders.concat(axeFound), null, 1) + '\n');
    // every offender at once, grouped by what matched and the text matched
    const list = (items) => {
      const groups = new Map();
      for (const o of items) {
        const k = `${o.what}: "${o.match}"`;
        if (!groups.has(k)) groups.set(k, { pages: new Set(), around: o.around });
        groups.get(k).pages.add(o.where);
      }
      const lines = [...groups.entries()].sort().map(([k, v]) => `${k} on ${v.pages.size} page(s) (${[...v.pages].slice(0, 4).join(', ')}${v.pages.size > 4 ? ', …' : ''})\n      …${v.around}…`);
      return { n: groups.size, text: lines.join('\n  ') };
    };
    const a = list(axeFound);
    if (axeFound.length) console.log(`axe: ${axeFound.length} serious or critical violations, ${a.n} distinct:\n  ` + a.text);
    const o = list(offenders);
    if (offenders.length) console.log(`words: ${offenders.length} offenders, ${o.n} distinct:\n  ` + o.text);
    console.log(`words: ${pages} pages in ${secs} s (axe ${Math.round(spent.axe / 1000)} s, overflow ${Math.round(spent.overflow / 1000)} s, languages ${Math.round(spent.words / 1000)} s)`);
    h.check(!offenders.length, `${o.n} kinds of notation, jargon, leftover language or overflow on the pages (listed above)`);
    h.check(!axeFound.length, `${a.n} kinds of axe violations (listed above)`);
  });
});
