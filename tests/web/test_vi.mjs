// test_vi.mjs — issue 32 §1, the Vietnamese catalogue (web/i18n/vi.js) and the
// rules' `vi:` sections in the browser: with a Vietnamese browser (locale
// vi-VN) the lobby, every game's new-room form (its options opened), a room
// of each game at the start (a player seated) and after some moves (computers,
// watched), its rules box, the replay of a room and the empty replay page are
// walked at phone and desktop size, with the room's announcements and its
// "Describe the table" words. Each page must say html lang="vi" and
// show no ⟦missing key⟧, no Cyrillic, and no English: a text node or a
// title/aria-label/placeholder/alt made of nothing but words of the list
// below, or a sentence (4 words or more) with no Vietnamese mark and half its
// words in the list, fails (Vietnamese written without its marks can look
// like English, so a word list, not a-z; the list leaves out what is also a
// Vietnamese syllable: "to", "no", "do", "an", "in", "can", "so"…).
// The room's table (#table) and its rules box must also hold without layout faults (the
// harness's check: nothing overlapping or outside the viewport) — Vietnamese
// is longer than English. The full four-language walker is another test's;
// this one is kept short.
// Shots: SHOTS/vi-GAME-room-SIZE-vi.png (the phone ones are in docs/screenshots),
// vi-GAME-moves-SIZE-vi.png (after some moves, the table described).

import { run } from './harness.mjs';

const ENGLISH = new Set(('the and or of for with your you my our their is are was be not this that it at by from here now ' +
  'room rooms game games card cards move moves seat seats play player players playing turn waiting wait lobby ' +
  'new open computer piece pieces score throw lead trick tricks deal reading readings poem poet field pass ready ' +
  'start rules rule replay record download join leave invite copy send chat message team wins win won draw over ' +
  'left right back forward step hand level easy medium hard champion options option yes none more take taken ' +
  'light dark reserve board square empty off one two three four five last first next other others only ' +
  'show hide keep declare counter single pair triple soldiers general advisor elephant chariot cannon horse soldier ' +
  'red black spades hearts diamonds clubs king queen jack ace prisoners castle castles rectangle zoom fit ' +
  'connecting online reconnecting language refresh seconds clock link code loading score total won dealer').split(/\s+/));

const VIETNAMESE_MARKS = /[àáảãạăắằẳẵặâấầẩẫậđèéẻẽẹêếềểễệìíỉĩịòóỏõọôốồổỗộơớờởỡợùúủũụưứừửữựỳýỷỹỵ]/i;

/** Is `s` English: every word (letters only) in ENGLISH, or a sentence of 4
 * words or more without a Vietnamese mark, half of them in ENGLISH? */
export function english(s) {
  const words = s.match(/\p{L}+/gu) || [];
  if (!words.length) return false;
  const known = words.filter((w) => ENGLISH.has(w.toLowerCase())).length;
  return known === words.length || (words.length >= 4 && !VIETNAMESE_MARKS.test(s) && known * 2 >= words.length);
}

/** What a player reads: each visible text node, and the title, aria-label,
 * placeholder and alt of every element (outside <code>, <script>, <style>,
 * <noscript>, the language menu and an element marked as another language:
 * the server's quoted words are lang="en"); plus the page's lang and missing keys. */
async function readPage(page) {
  return page.evaluate(() => {
    // (the language menu names each language in itself; <noscript> is for a browser without scripts)
    const other = 'code, script, style, noscript, #lang, [lang]:not([lang="vi"])';
    const texts = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || el.closest(other)) continue;
      const st = getComputedStyle(el);
      if (st.display === 'none' || st.visibility === 'hidden') continue;
      texts.push(n.textContent.trim());
    }
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]'))
      if (!el.closest(other)) for (const a of ['title', 'aria-label', 'placeholder', 'alt']) if (el.getAttribute(a)) texts.push(el.getAttribute(a));
    texts.push(document.title);
    return { lang: document.documentElement.lang, texts, missing: window.__parlour ? [...window.__parlour.missing] : [] };
  });
}

// small, quick rooms (as tests/web/test_words.mjs makes them)
const GAMES = {
  ur: { options: { pieces: '2' }, seats: 2 },
  cbw: { options: { w: '3', h: '2' }, seats: 4 },
  tamcuc: { options: { players: '2' }, seats: 2 },
  karuta: { options: { variant: 'kyogi', deal: '1;2;3/4;5;6', memo_s: '0', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '300' }, seats: 2 },
};

run('vi', async (h) => {
  const faults = []; // "page: what: text"
  let pages = 0;
  async function judge(page, where) {
    // a room's table mounted, a replay's game module loaded
    await page.waitForFunction(() => {
      const p = window.__parlour && window.__parlour.page;
      if (p && p.room) return !!p.room.table;
      if (p && p.replay) return !p.replay.steps || !!p.replay.mod;
      return true;
    });
    const { lang, texts, missing } = await readPage(page);
    pages++;
    if (lang !== 'vi') faults.push(`${where}: html lang="${lang}", not "vi"`);
    for (const k of missing) faults.push(`${where}: missing key ${k}`);
    for (const s of texts) {
      if (s.includes('⟦')) faults.push(`${where}: a missing key: ${s.slice(0, 80)}`);
      if (/\p{Script=Cyrillic}/u.test(s)) faults.push(`${where}: Cyrillic: ${s.slice(0, 80)}`);
      if (english(s)) faults.push(`${where}: English: ${s.slice(0, 80)}`);
    }
  }

  // rooms of computers that play meanwhile, watched later at both sizes
  const watched = {};
  await h.step('rooms of computers that play meanwhile', async () => {
    const p = await h.page('desktop', { lang: 'vi' });
    await p.goto(h.url('/'));
    for (const [game, g] of Object.entries(GAMES))
      watched[game] = (await h.createRoom(p, { game, options: g.options, seats: Array.from({ length: g.seats }, () => ({ kind: 'ai', level: 'easy' })) })).room;
    await p.context().close();
  });

  for (const size of ['phone', 'desktop']) {
    const page = await h.page(size, { lang: 'vi' });
    await h.step(`${size}: the lobby and every game's new-room form, its options opened`, async () => {
      await page.goto(h.url('/'));
      await page.locator('#new-game').waitFor();
      await judge(page, `lobby ${size}`);
      for (const game of Object.keys(GAMES)) {
        await page.selectOption('#new-game', game);
        await page.locator('#create-form .opt').first().waitFor();
        await page.evaluate(() => document.querySelectorAll('#new-room details, #create-form details').forEach((d) => (d.open = true)));
        await judge(page, `new-room form ${game} ${size}`);
      }
    });
    for (const [game, g] of Object.entries(GAMES)) {
      await h.step(`${size}: ${game}: a room at the start, its rules box, after some moves, and its replay`, async () => {
        await page.goto(h.url('/'));
        const seats = [{ kind: 'person' }].concat(Array.from({ length: g.seats - 1 }, () => ({ kind: 'ai', level: 'easy' })));
        const mine = await h.createRoom(page, { game, options: g.options, seats });
        await h.join(page, mine.room, 'Lan');
        await h.waitState(page, (st) => st.status !== 'waiting');
        await judge(page, `${game} room start ${size}`);
        for (const f of await h.layout(page, { root: '#table' })) faults.push(`${game} room start ${size}: layout: ${f}`);
        await h.shot(page, `${game}-room-${size}-vi`);
        await page.locator('#rules-box summary').click();
        await page.locator('#rules-box .rules-part h3').first().waitFor();
        await judge(page, `${game} rules ${size}`);
        await page.locator('#rules-box').scrollIntoViewIfNeeded();
        for (const f of await h.layout(page, { root: '#rules-box' })) faults.push(`${game} rules ${size}: layout: ${f}`);
        await page.goto(h.url('/room/' + watched[game]));
        await h.waitState(page, (st) => st.over || (st.history_from || 0) + (st.history || []).length >= 6, undefined, 60000);
        await judge(page, `${game} room after some moves ${size}`);
        for (const f of await h.layout(page, { root: '#table' })) faults.push(`${game} room after some moves ${size}: layout: ${f}`);
        // "Describe the table" (the table's describe(), the turn's words) in Vietnamese too
        await page.click('#describe');
        await page.locator('#table-words h2').waitFor();
        await judge(page, `${game} table described ${size}`);
        await h.shot(page, `${game}-moves-${size}-vi`);
        // (karuta's record comes when its game is over: its practice page instead, below)
        if (game === 'karuta') return;
        await page.goto(h.url('/room/' + watched[game] + '#replay'));
        await page.locator('#replay-step').waitFor();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        await judge(page, `${game} replay ${size}`);
      });
    }
    await h.step(`${size}: the replay page and karuta's practice page`, async () => {
      await page.goto(h.url('/#replay'));
      await page.locator('#replay-drop').waitFor();
      await judge(page, `replay page ${size}`);
      await page.goto(h.url('/#practice'));
      await page.locator('#kar-practice-empty').waitFor();
      await judge(page, `karuta practice page ${size}`);
    });
    await page.context().close();
  }

  await h.step(`Vietnamese on ${pages} pages: lang="vi", no missing key, no Cyrillic, no English`, async () => {
    const uniq = [...new Set(faults)];
    h.check(uniq.length === 0, `${uniq.length} faults:\n  ` + uniq.slice(0, 60).join('\n  ') + (uniq.length > 60 ? '\n  …' : ''));
  });
});
