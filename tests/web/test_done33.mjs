// test_done33.mjs — issue 33's "Done when", end to end in Chromium: new people
// sign up through the real dialog, press "Play now" for Ur and are paired (a)
// with each other — Ann on a phone (360×740), Bob on a desktop (1366×768) —
// and play a rated game to the end by clicking the table's move list and its
// Move button, both see both ratings change in the room (before → after, the
// change), Ann opens her page from the room and Bob his from the account
// menu, each sees the game and the new rating there and opens its replay and
// steps through it; (b) each with a computer of a near rating ("let a
// computer take the seat after N seconds"), Ann in Skiryuk's rules (her
// rating from (a) is what the room shows as before), Bob in Finkel's, both to
// the end and the rating shown; (c) in a rated room with a 1 s move clock
// where neither moves, each seat's note says the computer finishes it and
// that it counts (stalling, docs/ratings.md). No fixed sleeps: every step
// waits for a state.
// Screenshots of each stage at both sizes.

import { run } from './harness.mjs';
import { pathOf } from '../../web/games/ur.js';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';
import ja from '../../web/i18n/ja.js';

const PASSWORD = 'correct horse battery';

run('done33', async (h) => {
  const ann = await h.page('phone');
  const bob = await h.page('desktop');
  const size = (p) => (p === ann ? 'phone' : 'desktop');
  const tap = (p, loc) => (p === ann ? loc.tap() : loc.click());

  /** A new person signs up through the header's dialog (switched to sign-up). */
  async function signUp(page, name) {
    await page.goto(h.url('/'));
    await tap(page, page.locator('#acct-open'));
    await page.locator('dialog#acct-signin[open]').waitFor();
    await tap(page, page.locator('#acct-switch'));
    await page.locator('#acct-signin-title', { hasText: en['acct.title.signup'] }).waitFor();
    await page.fill('#acct-name', name);
    await page.fill('#acct-password', PASSWORD);
    await tap(page, page.locator('dialog#acct-signin button[type=submit]'));
    await page.locator('#acct-me .acct-name', { hasText: name }).waitFor(); // the page reloaded, signed in
  }

  /** Play now for Ur: the form (no name asked: signed in), the options, and the seek. */
  async function playNow(page, { rules = 'skiryuk', computerAfter = 0 } = {}) {
    await page.locator('#playnow-ur').waitFor();
    await tap(page, page.locator('#playnow-ur'));
    await page.locator('#playnow-form').waitFor();
    h.check((await page.locator('#playnow-name').count()) === 0, 'a signed-in player is not asked for a name (' + size(page) + ')');
    await page.selectOption('#playnow-opt-rules', rules);
    if (computerAfter) {
      await page.check('#playnow-computer');
      await page.fill('#playnow-after', String(computerAfter));
    } else await page.uncheck('#playnow-computer');
    await tap(page, page.locator('#playnow-go'));
    // seeking in the pool, or already paired (the other was waiting: the page went to the room
    // before the check could read the pool; that made step (a) fail on a loaded machine)
    await page.waitForFunction((pool) => location.pathname.startsWith('/room/') ||
      (document.querySelector('#playnow-pool')?.textContent || '').includes(pool), en['playnow.pool.ur.' + rules], { timeout: 20000 });
  }

  /** The move a racing player picks: bear off, else capture, else the piece furthest along. */
  function pick(st, opts) {
    const path = pathOf(st.seat, opts);
    const score = (e) => {
      const f = e.fields || {};
      if (f.to === 'off') return 1000;
      if (f.captures) return 500;
      if (f.from && f.from !== 'reserve') return 100 + path.lastIndexOf(f.from);
      return 0;
    };
    return st.legal.slice().sort((a, b) => score(b) - score(a))[0];
  }

  /** Plays `page`'s moves by clicking until its game is over (another page or a computer plays the other seat). */
  async function playOut(page, opts, limit = 500) {
    for (let n = 0; n < limit; n++) {
      const st = await h.waitState(page, (s) => s.over || (s.legal.length > 0 && (s.view.actors || []).includes(s.seat)), null, 60000);
      if (st.over) return st;
      const m = pick(st, opts);
      await tap(page, page.locator(`.ur-mv[data-action="${m.action}"]`));
      await page.locator(`.ur-mv[data-action="${m.action}"][aria-pressed="true"]`).waitFor();
      await tap(page, page.locator('#ur-play'));
      // the move made (or the room moved on without it: an only move the page played itself)
      await h.waitState(page, (s, seq) => s.seq > seq, st.seq, 60000);
    }
    throw new Error('the game did not end in ' + limit + ' moves');
  }

  /** The room's ratings box after the `rated` message: {seat: {before, after, delta, text}}. */
  async function ratedShown(page, n) {
    await page.locator('#rated li.rated-seat').nth(n - 1).waitFor({ timeout: 30000 });
    return page.locator('#rated li.rated-seat').evaluateAll((els) => els.map((e) => ({
      seat: Number(e.dataset.seat), before: Number(e.dataset.before), after: Number(e.dataset.after), delta: Number(e.dataset.delta), text: e.textContent,
    })));
  }

  /** Its own page: the rating in the pool, the game rated, its replay stepped through. */
  async function ownPage(page, name, pool, rating, opponent) {
    await page.waitForURL('**/player/' + encodeURIComponent(name));
    await page.locator('#player-ratings li').first().waitFor();
    const r = await page.locator('#player-ratings li', { hasText: en['playnow.pool.' + pool.replace('/', '.')] }).innerText();
    h.check(r.includes(String(rating)), `${name}'s page shows the new rating ${rating}: ${r}`);
    const game = page.locator('#player-games li').first();
    const g = await game.innerText();
    h.check(g.includes(en['player.rated']) && g.includes(opponent), `${name}'s page lists the rated game against ${opponent}: ${g}`);
    h.expectLayout(await h.layout(page), name + "'s page");
    await h.shot(page, 'page-' + size(page));
    await tap(page, game.locator('a'));
    await page.waitForURL(/\/room\/[0-9a-f]{32}#replay$/);
    await page.locator('#replay-step').waitFor();
    const step = async () => (await page.locator('#replay-step').innerText()).match(/\d+/g).map(Number);
    const [i0, n] = await step();
    h.check(i0 === 0 && n > 10, 'the replay starts at the beginning of a whole game: ' + [i0, n]);
    for (let k = 1; k <= 3; k++) {
      await tap(page, page.locator('#replay-forward'));
      await page.locator('#replay-step', { hasText: en['replay.step'].replace('{i}', k).replace('{n}', n) }).waitFor();
    }
    await page.locator('.ur-board').first().waitFor(); // the board as it was at that step
    const told = await page.locator('p.said').innerText();
    h.check(told.length > 0 && !/undefined|null/.test(told), 'a step told in words: ' + told);
    await tap(page, page.locator('#replay-last'));
    await page.locator('#replay-step', { hasText: en['replay.step'].replace('{i}', n).replace('{n}', n) }).waitFor();
    await h.shot(page, 'replay-' + size(page), { fullPage: false });
  }

  await h.step('two new people sign up through the dialog (phone and desktop)', async () => {
    await signUp(ann, 'Ann Phone');
    await signUp(bob, 'Bob Desktop');
  });

  let room, seatA, seatB;
  await h.step('(a) both press Play now for Ur: paired into one rated room under their names', async () => {
    await playNow(ann);
    await h.shot(ann, 'waiting-phone', { fullPage: false });
    await playNow(bob);
    await Promise.all([ann.waitForURL(/\/room\/[0-9a-f]{32}$/), bob.waitForURL(/\/room\/[0-9a-f]{32}$/)]);
    room = ann.url().split('/room/')[1];
    h.check(bob.url().endsWith('/room/' + room), 'one room');
    const a = await h.waitState(ann, (s) => s.seat >= 0 && s.status === 'playing');
    const b = await h.waitState(bob, (s) => s.seat >= 0 && s.status === 'playing');
    [seatA, seatB] = [a.seat, b.seat];
    h.check(seatA !== seatB, 'two seats');
    h.check(a.seats[seatA].name === 'Ann Phone' && a.seats[seatB].name === 'Bob Desktop', 'seated under the accounts’ names: ' + JSON.stringify(a.seats));
    h.check((await ann.locator('#join-name').count()) === 0 && (await bob.locator('#join-name').count()) === 0, 'no one asked for a name');
  });

  let ra;
  await h.step('(a) they play to the end by clicking; both see both ratings change', async () => {
    const opts = await ann.evaluate(() => window.__parlour.page.room.options || {});
    const [sa] = await Promise.all([playOut(ann, opts), playOut(bob, opts)]);
    const winner = sa.result.winner;
    h.check(winner === seatA || winner === seatB, 'a winner: ' + JSON.stringify(sa.result));
    ra = await ratedShown(ann, 2);
    const rb = await ratedShown(bob, 2);
    const figures = (l) => JSON.stringify(l.map(({ seat, before, after, delta }) => [seat, before, after, delta]));
    h.check(figures(ra) === figures(rb), 'both see the same changes: ' + figures(ra) + ' / ' + figures(rb));
    h.check(ra.find((x) => x.seat === seatA).text.includes(en['room.seat.you']) && rb.find((x) => x.seat === seatB).text.includes(en['room.seat.you']), 'each sees their own marked');
    for (const x of ra) {
      h.check(x.before === 1500, 'a new player starts at 1500: ' + x.text);
      h.check(x.seat === winner ? x.delta > 0 && x.text.includes('+' + x.delta) : x.delta < 0 && x.text.includes('\u2212' + -x.delta),
        'the winner up, the loser down, the change with its sign: ' + x.text);
      h.check(x.text.includes('1500 → ' + x.after), 'before → after in words: ' + x.text);
    }
    h.check(ra.find((x) => x.seat === seatA).text.includes('Ann Phone'), 'by name: ' + ra.map((x) => x.text));
    await ann.locator('#rated-mine').waitFor();
    await bob.reload(); // a reload (or a connection lost at the end) shows them again
    const again = await ratedShown(bob, 2);
    h.check(figures(again) === figures(ra), 'the ratings again after a reload: ' + figures(again));
    for (const p of [ann, bob]) {
      await p.locator('#rated').scrollIntoViewIfNeeded();
      h.expectLayout(await h.layout(p), 'the room after a rated game, ' + size(p));
      await h.expectAxeClean(p, 'the ratings, ' + size(p), { include: '#rated' });
      await h.shot(p, 'rated-' + size(p), { fullPage: false });
    }
  });

  await h.step('(a) Ann opens her page from the room, Bob from the menu; each replays the game', async () => {
    const after = (seat) => ra.find((x) => x.seat === seat).after;
    await tap(ann, ann.locator('#rated-mine'));
    await ownPage(ann, 'Ann Phone', 'ur/skiryuk', after(seatA), 'Bob Desktop');
    await bob.locator('#acct-me').click();
    await bob.locator('#acct-page').click();
    await ownPage(bob, 'Bob Desktop', 'ur/skiryuk', after(seatB), 'Ann Phone');
  });

  await h.step('(b) each plays Play now with a computer after 1 s to the end: the rating changes', async () => {
    const annBefore = ra.find((x) => x.seat === seatA).after;
    const one = async (page, rules, before, name) => {
      await page.goto(h.url('/'));
      await playNow(page, { rules, computerAfter: 1 });
      await page.waitForURL(/\/room\/[0-9a-f]{32}$/, { timeout: 30000 });
      const st = await h.waitState(page, (s) => s.seat >= 0 && s.status === 'playing');
      h.check(st.seats[1 - st.seat].kind === 'ai' && st.seats[st.seat].name === name, 'a computer in the other seat: ' + JSON.stringify(st.seats));
      const opts = await page.evaluate(() => window.__parlour.page.room.options || {});
      const end = await playOut(page, opts);
      const shown = await ratedShown(page, 2);
      const me = shown.find((x) => x.seat === st.seat), cpu = shown.find((x) => x.seat !== st.seat);
      h.check(me.before === before, `${name}'s rating before is the stored one (${before}): ${me.text}`);
      h.check(end.result.winner === st.seat ? me.delta > 0 : me.delta < 0, 'the rating moves with the result: ' + me.text);
      h.check(cpu.text.includes(String(cpu.before)) && !cpu.text.includes('→'), "the computer's fixed rating: " + cpu.text);
      await page.locator('#rated').scrollIntoViewIfNeeded();
      h.expectLayout(await h.layout(page), 'the room after a rated game with a computer, ' + size(page));
      await h.shot(page, 'computer-' + size(page), { fullPage: false });
      // the same box in another language (a language change draws the room again): no English left
      const [lang, cat] = page === ann ? ['ru', ru] : ['ja', ja];
      await page.evaluate((l) => window.__parlour.setLang(l), lang);
      await page.locator('#rated-h', { hasText: cat['rated.title'].split(' ')[0] }).waitFor();
      const words = (await page.locator('#rated').innerText()).replaceAll(name, '');
      h.check(!/[A-Za-z]{3,}/.test(words), `the ratings in ${lang}, no English: ${words}`);
      h.check(words.includes(cat['rated.mine']) && words.includes(String(me.after)), `the ratings and the link in ${lang}: ${words}`);
      await h.shot(page, `computer-${size(page)}-${lang}`, { fullPage: false });
      await page.evaluate(() => window.__parlour.setLang('en'));
      await page.locator('#rated-h', { hasText: en['rated.title'].split(' ')[0] }).waitFor();
      await tap(page, page.locator('#rated-mine'));
      await page.locator('#player-ratings li', { hasText: en['playnow.pool.ur.' + rules] }).waitFor();
      const r = await page.locator('#player-ratings li', { hasText: en['playnow.pool.ur.' + rules] }).innerText();
      h.check(r.includes(String(me.after)), `the page's rating is the room's (${me.after}): ${r}`);
      h.check((await page.locator('#player-games li').first().innerText()).includes(en['player.computer']), 'the game against the computer listed');
    };
    await Promise.all([one(ann, 'skiryuk', annBefore, 'Ann Phone'), one(bob, 'finkel', 1500, 'Bob Desktop')]);
    h.check((await h.missingKeys(ann)).length === 0 && (await h.missingKeys(bob)).length === 0, 'no missing words');
  });

  await h.step('(c) a rated room with a 1 s move clock where neither moves: after three in a row, each seat says the computer finishes it and it counts', async () => {
    const { room: code } = await h.createRoom(ann, { game: 'ur', rated: true, clock: { move_s: 1 } });
    for (const p of [ann, bob]) {
      await p.goto(h.url('/room/' + code));
      await tap(p, p.locator('#join-button'));
      await h.waitState(p, (s) => s.seat >= 0);
    }
    const both = (s) => s.seats.every((x) => x.stalled && x.covered);
    const sts = [await h.waitState(ann, both, null, 60000), await h.waitState(bob, both, null, 60000)];
    for (const [p, st] of [[ann, sts[0]], [bob, sts[1]]]) {
      const note = (i) => p.locator(`ol.seats li.seat[data-seat="${i}"] .seat-note`).innerText();
      const other = 1 - st.seat;
      h.check((await note(st.seat)).includes(en['room.seat.stalledYou']), 'my seat says it: ' + (await note(st.seat)));
      h.check((await note(other)).includes(en['room.seat.stalled'].replace('{name}', st.seats[other].name)), "the other's seat says it: " + (await note(other)));
      const clocks = await p.locator('ol.seats li.seat .clock').allInnerTexts();
      h.check(clocks.every((x) => x === ''), 'no move clock runs for a seat the computer keeps: ' + JSON.stringify(clocks));
      await p.locator("ol.seats").scrollIntoViewIfNeeded();
      h.expectLayout(await h.layout(p), 'a stalled rated room, ' + size(p));
      await h.shot(p, 'stalled-' + size(p), { fullPage: false });
    }
    await ann.evaluate(() => window.__parlour.setLang('ru'));
    const ruNote = ann.locator(`ol.seats li.seat[data-seat="${sts[0].seat}"] .seat-note`);
    await ruNote.filter({ hasText: ru['room.seat.stalledYou'] }).waitFor();
    await h.shot(ann, 'stalled-phone-ru', { fullPage: false });
    await ann.evaluate(() => window.__parlour.setLang('en'));
    h.check((await h.missingKeys(ann)).length === 0 && (await h.missingKeys(bob)).length === 0, 'no missing words');
  });
}, { extra: ['--test-fast-hash'] });
