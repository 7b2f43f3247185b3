// test_playnow.mjs — "Play now" in the lobby (issue 33 §3; web/js/playnow.js):
// two pages (a phone and a desktop) press Play now on Ur, the first waits (the
// pool in words, the time, the people waiting; the other lobby's count of
// people waiting for Ur goes to 1), then both land in one room, seated by
// name, and play; a page that lets a computer take the seat after 2 s lands in
// a room with a computer, at both sizes; Cancel ends a seek. Layout checked,
// screenshots of the form, the waiting panel and the rooms.

import { run } from './harness.mjs';
import en from '../../web/i18n/en.js';

async function plainPage(h, size, lang = 'en') {
  const ctx = await h.context(size, { lang });
  await ctx.addInitScript(() => {
    try {
      localStorage.setItem('parlour.table', 'plain');
    } catch {} // about:blank has no storage
  });
  return ctx.newPage();
}

run('playnow', async (h) => {
  const ann = await h.page('phone'); // the games' own tables: the rooms' screenshots
  const bob = await h.page('desktop');

  await h.step('the lobby: Play now on every game, people online', async () => {
    for (const p of [ann, bob]) {
      await p.goto(h.url('/'));
      for (const g of ['ur', 'cbw', 'tamcuc', 'karuta']) await p.locator('#playnow-' + g).waitFor();
      await p.locator('#online', { hasText: /\d/ }).waitFor();
    }
  });

  await h.step('Ann seeks Ur: the form, then the waiting panel; Bob sees one waiting', async () => {
    await ann.click('#playnow-ur');
    await ann.locator('#playnow-form').waitFor();
    await ann.fill('#playnow-name', 'Ann');
    await ann.uncheck('#playnow-computer');
    h.expectLayout(await h.layout(ann), 'the form, phone');
    await h.shot(ann, 'form-phone', { fullPage: false });
    await ann.click('#playnow-go');
    await ann.locator('#playnow-pool', { hasText: en['playnow.pool.ur.skiryuk'] }).waitFor();
    await ann.locator('#playnow-people', { hasText: '1' }).waitFor();
    await ann.locator('#playnow-since', { hasText: /0:0[1-9]/ }).waitFor(); // the time waited runs
    const words = await ann.locator('#playnow').innerText();
    h.check(!/null|undefined/.test(words), 'no stray null in the panel: ' + words);
    h.check((await ann.locator('#playnow-computer-note').count()) === 0, 'no computer note without the computer');
    h.expectLayout(await h.layout(ann), 'waiting, phone');
    await h.shot(ann, 'waiting-phone', { fullPage: false });
    await bob.locator('#counts-ur', { hasText: '1' }).waitFor();
  });

  let room;
  await h.step('Bob seeks Ur too: both land in one room, seated by name', async () => {
    await bob.click('#playnow-ur');
    await bob.fill('#playnow-name', 'Bob');
    await bob.uncheck('#playnow-computer');
    await bob.click('#playnow-go');
    await Promise.all([ann.waitForURL(/\/room\/[0-9a-f]{32}$/), bob.waitForURL(/\/room\/[0-9a-f]{32}$/)]);
    room = ann.url().split('/room/')[1];
    h.check(bob.url().endsWith('/room/' + room), 'one room: ' + ann.url() + ' ' + bob.url());
    const a = await h.waitState(ann, (st) => st.seat >= 0 && st.status === 'playing');
    const b = await h.waitState(bob, (st) => st.seat >= 0 && st.status === 'playing');
    h.check(a.seat !== b.seat, 'two seats');
    h.check(a.seats[a.seat].name === 'Ann' && a.seats[b.seat].name === 'Bob', 'the names: ' + JSON.stringify(a.seats));
    h.check((await ann.locator('#join-name').count()) === 0, 'no join form: seated by the token');
  });

  await h.step('they play: a move of the one to act is accepted', async () => {
    const st = await h.waitState(ann, (st) => st.view.actors.length > 0);
    const page = st.view.actors[0] === st.seat ? ann : bob;
    const mine = await h.waitState(page, (s) => s.legal.length > 0);
    await h.act(page, mine.legal[0].action);
    await h.waitState(page, (s, seq) => s.seq > seq, mine.seq);
    h.expectLayout(await h.layout(ann), 'the room, phone');
    await h.shot(ann, 'room-phone', { fullPage: false });
    await h.shot(bob, 'room-desktop', { fullPage: false });
  });

  for (const size of ['desktop', 'phone'])
    await h.step(`a computer after 2 s (${size})`, async () => {
      const cat = await plainPage(h, size);
      await cat.goto(h.url('/'));
      await cat.click('#playnow-ur');
      await cat.fill('#playnow-name', 'Cat');
      await cat.check('#playnow-computer');
      await cat.fill('#playnow-after', '2');
      await cat.click('#playnow-go');
      await cat.locator('#playnow-computer-note', { hasText: '2' }).waitFor();
      if (size === 'desktop') {
        h.expectLayout(await h.layout(cat), 'waiting, desktop');
        await h.shot(cat, 'waiting-desktop', { fullPage: false });
      }
      await cat.waitForURL(/\/room\/[0-9a-f]{32}$/, { timeout: 20000 });
      const st = await h.waitState(cat, (s) => s.seat >= 0);
      h.check(st.seats[1 - st.seat].kind === 'ai', 'a computer in the other seat: ' + JSON.stringify(st.seats));
      h.check(st.seats[st.seat].name === 'Cat', 'her seat');
      await h.shot(cat, 'computer-' + size, { fullPage: false });
      await cat.context().close();
    });

  await h.step('Cancel ends the seek', async () => {
    const dan = await plainPage(h, 'desktop');
    const eve = await plainPage(h, 'desktop');
    await eve.goto(h.url('/'));
    await dan.goto(h.url('/'));
    await dan.click('#playnow-tamcuc');
    await dan.selectOption('#playnow-opt-players', '3');
    await dan.uncheck('#playnow-computer');
    await dan.click('#playnow-go');
    await dan.locator('#playnow-pool', { hasText: en['playnow.pool.tamcuc.3'] }).waitFor();
    await eve.locator('#counts-tamcuc', { hasText: '1' }).waitFor();
    await dan.click('#playnow-cancel');
    await dan.locator('#playnow-form').waitFor();
    await eve.locator('#counts-tamcuc', { hasText: '0' }).waitFor();
    await dan.context().close();
    await eve.context().close();
  });
});
