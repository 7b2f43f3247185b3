// test_ja.mjs — issue 32 §1, the Japanese catalogue (web/i18n/ja.js, the ja:
// rules of web/rules/GAME.js): with a Japanese browser (locale ja-JP, no
// stored choice) at phone and desktop size, the lobby, every game's new-room
// form with its options opened, a room of each game with a player seated and
// its rules box opened, a room of computers after some moves (watched), the
// replay of a finished game (ur, cbw, tamcuc: they end in seconds), the
// empty replay page and karuta's practice page are in Japanese: <html
// lang="ja">, no English word (3+ Latin letters) outside the allow-list
// below, no Cyrillic, no ⟦missing key⟧. It reads what a player reads: the
// visible text nodes and the title / aria-label / placeholder / alt
// attributes. The walker over all four languages is test_lang.mjs's; this
// is the short check that lands with the translation. Shots:
// SHOTS/ja-{lobby,GAME-room,GAME-watched}-SIZE.png, ja-GAME-{rules,replay}-phone.png.

import { run } from './harness.mjs';

// Latin words a Japanese page may show: the product's name, the JSON of
// "what the server sends", a record file's .json, the Enter key. (Square
// names like B5, card ranks like K♣ and "ms" have fewer than 3 letters.)
const ALLOW = new Set(['Parlour', 'JSON', 'json', 'Enter']);
const NAME = 'さくら'; // the player's name, typed by the test

// small games that end in seconds (their replay is read), and karuta's quick readings
const GAMES = {
  ur: { options: { pieces: '1' }, seats: 2, ends: true },
  cbw: { options: { w: '3', h: '2' }, seats: 4, ends: true },
  tamcuc: { options: { players: '2' }, seats: 2, ends: true },
  karuta: { options: { variant: 'kyogi', deal: '1;2;3/4;5;6', memo_s: '0', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '300' }, seats: 2 },
};

/** What a player reads on the page (outside the language picker, whose
 * names are each in their own language, and <code>). */
async function readable(page) {
  return page.evaluate(() => {
    const skip = (el) => el.closest('code, script, style, noscript, #lang, [lang]:not([lang="ja"])');
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || skip(el)) continue;
      const st = getComputedStyle(el);
      if (st.display === 'none' || st.visibility === 'hidden') continue;
      out.push(n.textContent.trim());
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
      if (!skip(el)) for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    return { lang: document.documentElement.lang, title: document.title, texts: out };
  });
}

run('ja', async (h) => {
  const faults = new Map(); // fault -> where (first page it was seen on)
  let pages = 0;
  const judge = async (page, where) => {
    // a room's table mounted, a replay's game module in
    await page.waitForFunction(() => {
      const p = window.__parlour && window.__parlour.page;
      if (p && p.room) return !!p.room.table;
      if (p && p.replay) return !p.replay.steps || !!p.replay.mod;
      return true;
    });
    const got = await readable(page);
    pages++;
    const note = (what, s) => {
      if (!faults.has(what)) faults.set(what, `${where}: ${s.slice(0, 90)}`);
    };
    if (got.lang !== 'ja') note(`<html lang="${got.lang}">`, '');
    for (const s of [got.title, ...got.texts]) {
      for (const w of s.match(/\b[A-Za-z]{3,}\b/g) || []) if (!ALLOW.has(w)) note(`English "${w}"`, s);
      if (/[\u0400-\u04ff]/.test(s)) note('Cyrillic', s);
      if (s.includes('⟦')) note('a missing key', s);
    }
  };

  // rooms of computers, made first so that they play while the rest is read
  const watched = {};
  await h.step('rooms of computers, one per game', async () => {
    const p = await h.page('desktop', { lang: 'ja' });
    await p.goto(h.url('/'));
    for (const [game, g] of Object.entries(GAMES))
      watched[game] = (await h.createRoom(p, { game, options: g.options, seats: Array.from({ length: g.seats }, () => ({ kind: 'ai', level: 'easy' })) })).room;
  });

  for (const size of ['phone', 'desktop']) {
    const page = await h.page(size, { lang: 'ja' });
    await h.step(`${size}: the lobby and every game's form, options opened`, async () => {
      await page.goto(h.url('/'));
      await page.locator('#new-game').waitFor();
      await judge(page, `lobby ${size}`);
      await h.shot(page, `lobby-${size}`);
      for (const game of Object.keys(GAMES)) {
        await page.selectOption('#new-game', game);
        await page.locator('#create-form .opt').first().waitFor();
        await page.evaluate(() => document.querySelectorAll('#new-room details, #create-form details').forEach((d) => (d.open = true)));
        await judge(page, `form ${game} ${size}`);
      }
    });
    for (const [game, g] of Object.entries(GAMES)) {
      await h.step(`${size}: ${game}: a room with a player seated, its rules, after some moves, its replay`, async () => {
        await page.goto(h.url('/'));
        const seats = [{ kind: 'person' }].concat(Array.from({ length: g.seats - 1 }, () => ({ kind: 'ai', level: 'easy' })));
        const { room } = await h.createRoom(page, { game, options: g.options, seats });
        await h.join(page, room, NAME);
        await h.waitState(page, (st) => st.status !== 'waiting');
        await judge(page, `${game} room ${size}`);
        await h.shot(page, `${game}-room-${size}`);
        await page.locator('#rules-box summary').click();
        await page.locator('#rules-box .rules-part h3').first().waitFor();
        await judge(page, `${game} rules ${size}`);
        if (size === 'phone') await h.shot(page, `${game}-rules-${size}`);
        await page.goto(h.url('/room/' + watched[game]));
        await h.waitState(page, (st) => st.over || (st.history_from || 0) + (st.history || []).length >= 6, undefined, 60000);
        await judge(page, `${game} watched ${size}`);
        await h.shot(page, `${game}-watched-${size}`);
        if (g.ends) {
          await h.waitState(page, (st) => st.over, undefined, 60000);
          await page.goto(h.url('/room/' + watched[game] + '#replay'));
          await page.locator('#replay-step').waitFor();
          await page.keyboard.press('ArrowRight');
          await page.keyboard.press('ArrowRight');
          await judge(page, `${game} replay ${size}`);
          if (size === 'phone') await h.shot(page, `${game}-replay-${size}`);
        }
      });
    }
    for (const [hash, what] of [['#replay', 'the replay page'], ['#practice', 'the practice page']])
      await h.step(`${size}: ${what}`, async () => {
        await page.goto(h.url('/' + hash));
        await page.locator('#app *').first().waitFor();
        await judge(page, `${what} ${size}`);
      });
    await page.context().close();
  }

  await h.step(`every page in Japanese (${pages} pages read)`, async () => {
    const all = [...faults].map(([w, s]) => `${w}  (${s})`);
    h.check(faults.size === 0, `not Japanese (${all.length}):\n  ` + all.slice(0, 40).join('\n  ') + (all.length > 40 ? '\n  …' : ''));
  });
});
