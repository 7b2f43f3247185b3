// test_room.mjs — a room in a real browser, on the plain table (the JSON view
// and the legal actions as buttons; localStorage parlour.table=plain), so it
// tests the room's own parts whatever the game tables do: two contexts join by
// the invitation link, chat reaches the other, a reload in the middle comes
// back to the same seat (token), a dropped socket shows "reconnecting…" and
// rejoins, a spectator sees no legal action, an illegal act shows the
// server's explanation and changes nothing, the clock counts down, the game
// is played to the end with the buttons, the result is in words, the
// records download as JSON, and rematch takes both players to the new room.

import { run } from './harness.mjs';
import { readFileSync } from 'node:fs';
import ru from '../../web/i18n/ru.js';

async function plainPage(h, size, lang = 'en') {
  const ctx = await h.context(size, { lang });
  await ctx.addInitScript(() => {
    try {
      localStorage.setItem('parlour.table', 'plain');
    } catch {} // about:blank has no storage
  });
  return ctx.newPage();
}

run('room', async (h) => {
  const ann = await plainPage(h, 'desktop');
  const bob = await plainPage(h, 'phone', 'ru');
  const eve = await plainPage(h, 'phone');
  let room;

  await h.step('a room for two persons with a move clock', async () => {
    await ann.goto(h.url('/'));
    const made = await h.createRoom(ann, { game: 'ur', options: { pieces: '1' }, seats: [{ kind: 'person' }, { kind: 'person' }], clock: { move_s: 600 }, public: true });
    room = made.room;
    h.check(made.link === '/room/' + room, 'the link');
  });

  await h.step('two contexts join by the link; the seats show both names', async () => {
    h.check((await h.join(ann, room, 'Ann')) === 0, 'Ann has seat 0');
    await bob.goto(h.url('/room/' + room));
    await bob.locator('#join-name').fill('Bob');
    await bob.locator('#join-button').click();
    const st = await h.waitState(bob, (st) => st.seat === 1 && st.status === 'playing');
    h.check(st.seats[0].name === 'Ann' && st.seats[1].name === 'Bob', 'names in the state');
    await ann.locator('.seat[data-seat="1"] .seat-name', { hasText: 'Bob' }).waitFor();
    await bob.locator('.seat[data-seat="0"] .seat-name', { hasText: 'Ann' }).waitFor();
    h.check((await ann.locator('#join-name').count()) === 0, 'no join form once seated');
  });

  await h.step('the clock of the seat to act counts down', async () => {
    const st = await h.waitState(ann, (st) => st.view.actors.length > 0);
    const who = st.view.actors[0];
    const clock = ann.locator(`.seat[data-seat="${who}"] .clock`);
    await clock.filter({ hasText: /^\d+:\d\d$/ }).waitFor();
    const first = await clock.textContent();
    await ann.waitForFunction(([sel, first]) => document.querySelector(sel).textContent !== first, [`.seat[data-seat="${who}"] .clock`, first]);
    h.check(/^(9|10):\d\d$/.test(first), 'about ten minutes: ' + first);
  });

  await h.step('whose turn, in words', async () => {
    const st = await h.waitState(ann, (st) => st.view.actors.length > 0 && st.status === 'playing');
    const [me, other, otherName] = st.view.actors[0] === 0 ? [ann, bob, 'Ann'] : [bob, ann, 'Bob'];
    await me.locator('.turn', { hasText: /^(Your turn\.|Ваш ход\.)$/ }).waitFor();
    await other.locator('.turn', { hasText: new RegExp('^(Waiting for|Ждём:) ' + otherName + '\\.$') }).waitFor();
  });

  await h.step('a chat message reaches the other', async () => {
    await ann.fill('#chat-text', 'good luck <b>bold</b>');
    await ann.press('#chat-text', 'Enter');
    const line = bob.locator('.chat-list li', { hasText: 'good luck' });
    await line.waitFor();
    h.check((await line.locator('.chat-text').textContent()) === 'good luck <b>bold</b>', 'the text as text, not HTML');
    h.check((await bob.locator('.chat-list b', { hasText: 'bold' }).count()) === 0, 'no markup from a message');
  });

  await h.step('a spectator sees no legal action', async () => {
    await eve.goto(h.url('/room/' + room));
    const st = await h.waitState(eve, (st) => st.seat === -1);
    h.check(st.legal.length === 0, 'legal is empty');
    await eve.locator('.table-root').waitFor();
    h.check((await eve.locator('button.act').count()) === 0, 'no action buttons');
    h.check((await eve.locator('.seat.me').count()) === 0, 'no seat is mine');
  });

  await h.step('an illegal act shows the server’s explanation and changes nothing', async () => {
    const st = await h.waitState(ann, (st) => st.legal.length > 0 || true);
    const actor = st.view.actors.includes(0) && st.legal.length ? ann : bob;
    const before = await h.state(actor);
    await h.act(actor, 'Z9');
    const err = actor.locator('.note.error');
    await err.waitFor();
    const text = await err.textContent();
    h.check(/bad action 'Z9'/.test(text), 'the game’s explanation: ' + text);
    const after = await h.state(actor);
    h.check(after.seq === before.seq, 'nothing changed');
  });

  await h.step('on the Russian page an illegal act: a Russian lead-in, the server’s English words quoted as lang="en" (issue 16)', async () => {
    const st = await h.state(bob);
    const mine = st.view.actors.includes(1) && st.legal.length > 0; // else the server says it is not Bob's turn
    const before = await bob.locator('.note.error').count();
    await h.act(bob, 'Z9');
    await bob.waitForFunction((n) => document.querySelectorAll('.note.error').length > n, before);
    const err = bob.locator('.note.error').last();
    const lead = mine ? ru['error.illegal'] : ru['error.not-your-turn'];
    const text = await err.locator('.note-text').textContent();
    h.check(text.startsWith(lead + ' '), `the catalogue's lead-in first: ${text}`);
    const q = err.locator('q[lang="en"]');
    h.check((await q.count()) === 1, 'the server’s words in one <q lang="en">');
    const said = await q.textContent();
    h.check(said.length > 0 && (!mine || /bad action 'Z9'/.test(said)), 'the server’s words as they came: ' + said);
    h.check((await ann.locator('.note q').count()) === 0, 'the English page quotes nothing');
  });

  await h.step('the language switch redraws the room in place (same seat, table kept)', async () => {
    await ann.selectOption('#lang', 'ru');
    await ann.locator('.seats-box h2', { hasText: 'Места' }).waitFor();
    await ann.locator('.table-root').waitFor();
    h.check((await h.state(ann)).seat === 0, 'still seat 0');
    await ann.selectOption('#lang', 'en');
    await ann.locator('.seats-box h2', { hasText: 'Seats' }).waitFor();
  });

  await h.step('the room page has no layout fault (phone, desktop, spectator)', async () => {
    h.expectLayout(await h.layout(ann), 'desktop');
    h.expectLayout(await h.layout(bob), 'phone');
    h.expectLayout(await h.layout(eve), 'spectator phone');
    await h.shot(ann, 'desktop');
    await h.shot(bob, 'phone-ru');
  });

  await h.step('a reload in the middle comes back to the same seat', async () => {
    await bob.reload();
    const st = await h.waitState(bob, (st) => st.seat === 1);
    h.check(st.seats[1].name === 'Bob', 'the seat is still Bob’s');
    h.check((await bob.locator('#join-name').count()) === 0, 'no join form after the reload');
    await ann.locator('.seat[data-seat="1"][data-connected="true"]').waitFor();
  });

  await h.step('a dropped connection shows "reconnecting…" and rejoins', async () => {
    await ann.evaluate(() => window.__parlour.net.drop());
    await ann.locator('#banner.down').waitFor();
    await ann.waitForFunction(() => document.getElementById('banner').hidden);
    const st = await h.waitState(ann, (st) => st.seat === 0);
    h.check(st.seat === 0, 'seat 0 again');
  });

  await h.step('the game is played to the end with the buttons', async () => {
    for (let moves = 0; moves < 400; moves++) {
      const [a, b] = [await h.state(ann), await h.state(bob)];
      if (a.over && b.over) break;
      const page = a.legal.length && !a.over ? ann : b.legal.length && !b.over ? bob : null;
      if (!page) {
        await ann.waitForTimeout(50);
        continue;
      }
      const seq = (await h.state(page)).seq;
      await page.locator('button.act').first().click();
      await h.waitState(page, (st, seq) => st.seq !== seq || st.over, seq).catch(() => {});
    }
    const st = await h.waitState(ann, (st) => st.over);
    h.check(st.result && st.result.kind === 'seat', 'a result');
    const text = await ann.locator('.result-text').textContent();
    h.check(text === (st.result.winner === 0 ? 'You win! Score: ' : 'Bob wins. Score: ') + `Ann ${st.result.score[0]}, Bob ${st.result.score[1]}.`, 'the result in words: ' + text);
    await bob.locator('.result-text').waitFor();
    h.expectLayout(await h.layout(bob), 'over, phone');
    await h.shot(bob, 'over-phone-ru');
  });

  await h.step('the record downloads as JSON after the end (the whole game: test_replay.mjs tests the records)', async () => {
    h.check((await ann.locator('#record-seat').count()) === 0, 'no seat\'s record after the end: the whole one');
    for (const [id, format] of [['#record-referee', 'parlour-record']]) {
      const [dl] = await Promise.all([ann.waitForEvent('download'), ann.click(id)]);
      const rec = JSON.parse(readFileSync(await dl.path(), 'utf8'));
      h.check(rec.format === format && rec.game === 'ur', `${id}: ${rec.format}`);
      h.check(dl.suggestedFilename().endsWith('.json'), 'a .json file');
    }
  });

  await h.step('rematch takes both players to the new room with their seats', async () => {
    await ann.click('#rematch');
    await bob.click('#rematch');
    await ann.waitForURL((u) => u.pathname.startsWith('/room/') && !u.pathname.endsWith(room));
    await bob.waitForURL((u) => u.pathname.startsWith('/room/') && !u.pathname.endsWith(room));
    const a = await h.waitState(ann, (st) => st.seat === 0 && st.status === 'playing');
    const b = await h.waitState(bob, (st) => st.seat === 1);
    h.check(a.room === b.room && a.room !== room, 'the same new room');
  });

  await h.step('the seat opened in a second tab moves there; the first tab says so', async () => {
    const ann2 = await ann.context().newPage(); // same storage: the same token
    await ann2.goto(ann.url());
    await h.waitState(ann2, (st) => st.seat === 0);
    await ann.locator('.note.info', { hasText: 'another window' }).waitFor();
    await ann2.close();
  });

  await h.step('a person away past the grace: "the computer plays for X until they return"', async () => {
    await ann.goto(h.url('/'));
    const made = await h.createRoom(ann, { game: 'ur', seats: [{ kind: 'person' }, { kind: 'person' }], grace_s: 1 });
    await h.join(ann, made.room, 'Ann');
    await h.join(bob, made.room, 'Bob');
    await h.waitState(ann, (st) => st.status === 'playing');
    await bob.evaluate(() => window.__parlour.net.close()); // gone, no reconnection
    const note = ann.locator('.seat[data-seat="1"] .seat-note', { hasText: 'the computer plays for Bob until they return' });
    await note.waitFor();
    await h.shot(ann, 'covered-desktop');
    await bob.evaluate(() => window.__parlour.net.connect()); // back with the token
    await h.waitState(ann, (st) => !st.seats[1].covered && st.seats[1].connected);
    await note.waitFor({ state: 'detached' });
  });
});
