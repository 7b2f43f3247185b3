// test_hint.mjs — hints in the room (issue 34 §3; web/js/hint.js, docs/hints.md) in a real
// browser: Ur (against a computer) and Tam Cúc (four seats, three computers), each at phone
// (360×740) and desktop (1366×768) size in another language: at the player's decision (a
// choice of more than one move) the Hint button asks, the answer is shown in the page's
// language (the game's own words for the move, never its notation; the chance as a percentage
// marked as an estimate) and the move is marked on the table (Ur's squares, Tam Cúc's cards);
// the button is gone once asked (one hint a decision); a spectator of the same room gets no
// button and no hint; axe finds nothing serious in the answer; the harness checks missing
// catalogue keys, page errors and the layout.

import { run } from './harness.mjs';
import { actionWords as urWords } from '../../web/games/ur.js';
import { actionWords as tcWords } from '../../web/games/tamcuc.js';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';
import ja from '../../web/i18n/ja.js';
import vi from '../../web/i18n/vi.js';

const cats = { en, ru, ja, vi };
const tr = (lang) => (k, vars) => {
  const s = cats[lang][k] ?? cats[lang][k + '.other'] ?? en[k];
  if (s === undefined) throw new Error('no key ' + k);
  return vars ? s.replace(/\{(\w+)\}/g, (m, x) => (vars[x] === undefined ? m : String(vars[x]))) : s;
};

const CASES = [
  { game: 'ur', size: 'desktop', lang: 'en', seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }], words: urWords },
  { game: 'ur', size: 'phone', lang: 'ru', seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }], words: urWords },
  { game: 'tamcuc', size: 'phone', lang: 'vi', options: { players: '4' }, seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }], words: tcWords },
  { game: 'tamcuc', size: 'desktop', lang: 'ja', options: { players: '4' }, seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }], words: tcWords },
];

run('hint', async (h) => {
  for (const c of CASES) {
    const where = `${c.game} ${c.size} ${c.lang}`;
    const page = await h.page(c.size, { lang: c.lang });
    const eve = await h.page('phone', { lang: c.lang });
    let room, st;
    await h.step(`${where}: a casual room, the player to choose`, async () => {
      await page.goto(h.url('/'));
      room = (await h.createRoom(page, { game: c.game, options: c.options, seats: c.seats })).room;
      h.check((await h.join(page, room, 'Ann')) === 0, 'Ann has seat 0');
      await eve.goto(h.url('/room/' + room));
      await h.waitState(eve, (s) => s.seat === -1 && s.status === 'playing');
      // the page plays a single move by itself: wait for a real choice
      st = await h.waitState(page, (s) => !s.over && s.view && (s.view.actors || []).includes(0) && (s.legal || []).length > 1, null, 60000);
    });
    await h.step(`${where}: the hint in words, marked on the table`, async () => {
      await page.waitForSelector('#hint', { state: 'visible' });
      h.check((await eve.locator('#hint').count()) === 0, 'a spectator has no Hint button');
      await page.click('#hint');
      await page.waitForSelector('#hint-box .hint-move', { timeout: 30000 });
      const got = await page.evaluate(() => ({
        move: document.querySelector('#hint-box .hint-move').textContent,
        chance: document.querySelector('#hint-box .hint-chance').textContent,
        box: document.querySelector('#hint-box').textContent,
        marks: document.querySelectorAll('.hint-mark').length,
        button: !!document.querySelector('#hint') && !document.querySelector('#hint').disabled,
      }));
      const now = await h.state(page);
      h.check(now.seq === st.seq, 'still the same decision');
      const t = tr(c.lang);
      const ctx = { t, lang: c.lang, has: (k) => k in cats[c.lang], seat: 0 };
      const all = (now.legal || []).map((a) => c.words(a, ctx));
      h.check(all.includes(got.move), `${where}: the hint is one of the legal moves in words: ${got.move} (of ${all.join(' | ')})`);
      h.check(!(now.legal || []).some((a) => a.action === got.move && !all.includes(a.action)), `${where}: not the notation: ${got.move}`);
      h.check(/\d+ %/.test(got.chance) && got.box.startsWith(t('hint.title')), `${where}: the chance in the page's words: ${got.box}`);
      if (c.lang !== 'en') h.check(!/Hint|chance|estimate/.test(got.box), `${where}: no English: ${got.box}`);
      h.check(got.marks >= 1, `${where}: the move marked on the table (${got.marks})`);
      h.check(!got.button, `${where}: one hint a decision (the button is gone or disabled)`);
      const eveBox = await eve.evaluate(() => { const b = document.querySelector('#hint-box'); return b ? b.textContent : ''; });
      h.check(eveBox === '', `${where}: the spectator sees no hint: ${eveBox}`);
      h.expectLayout(await h.layout(page), where);
      await h.expectAxeClean(page, `${where}, the hint`, { include: '#hint-box' });
      await h.shot(page, `${c.game}-${c.size}-${c.lang}`);
    });
  }
});
