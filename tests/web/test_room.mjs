// test_room.mjs — a room in a real browser, on the plain table (the JSON view
// and the legal actions as buttons; localStorage parlour.table=plain), so it
// tests the room's own parts whatever the game tables do: two contexts join by
// the invitation link, chat reaches the other, a reload in the middle comes
// back to the same seat (token), a dropped socket shows "reconnecting…" and
// rejoins, a spectator sees no legal action, an illegal act is refused in the
// player's words (never the engine's notation) and changes nothing, the clock
// counts down, the game is played to the end with the buttons, the result is
// in words, a finished room offers no seat, the records download as JSON, and
// rematch takes both players to the new room. Issue 31: a person's only move
// is played for them with a note; a takeback is asked, declined, asked again
// and accepted (the table goes back); a table's own refused() and status()
// are used when it has them.

import { run } from './harness.mjs';
import { readFileSync } from 'node:fs';
import ru from '../../web/i18n/ru.js';
import en from '../../web/i18n/en.js';

// Engine notation a player must never read (issue 31 §4): a square, a move
// notation, a rule id, the parser's words.
const NOTATION = /\b[A-C][1-8]\b|bad action|illegal move|\bZ9\b|[A-Z]{2,4}-R\d|@-?\d|\{\w+\}/;
// The same less Ur's squares, which a game's own words name ("C2 → B1", issue 31 §2).
const ENGINE = /bad action|illegal move|\bZ9\b|[A-Z]{2,4}-R\d|@-?\d|\{\w+\}|\b(enter|pass|roll \d)\b/;

/** The text of the page's notes and status line. */
async function told(page) {
  return page.evaluate(() => [...document.querySelectorAll('.note-text, .turn, .takeback-box > span')].map((e) => e.textContent).join(' | '));
}

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
    const made = await h.createRoom(ann, { game: 'ur', options: { pieces: '3' }, seats: [{ kind: 'person' }, { kind: 'person' }], clock: { move_s: 600 }, public: true });
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

  await h.step('an illegal act is refused in plain words, no notation, and changes nothing (issue 31 §4)', async () => {
    const st = await h.waitState(ann, (st) => st.legal.length > 0 || true);
    const actor = st.view.actors.includes(0) && st.legal.length ? ann : bob;
    const words = actor === ann ? en['room.refused'] : ru['room.refused'];
    const before = await h.state(actor);
    // a well-formed square the rules refuse now (the server's reason names it), then a malformed one
    const square = ['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B3', 'B4', 'C1', 'C2'].find((q) => !before.legal.some((a) => a.action === q));
    for (const bad of [square, 'Z9']) {
      const old = await actor.locator('.note.error').last().elementHandle({ timeout: 50 }).catch(() => null);
      await h.act(actor, bad);
      if (old) await old.waitForElementState('hidden'); // the new refusal replaces the last one
      await actor.locator('.note.error').waitFor();
      const text = await actor.locator('.note.error .note-text').last().textContent();
      // a square the rules refuse comes with the game's `refusal` (Ur's words: "There is no piece
      // on A2."); a malformed action with none: the plain sentence
      if (bad === 'Z9') h.check(text === words, `the plain sentence for ${bad}: ${text}`);
      else h.check(text && text !== words && text.includes(bad), `the game's words for ${bad}: ${text}`);
    }
    h.check((await actor.locator('.note.error').count()) === 1, 'one refusal shown: the last');
    const allowed = await actor.locator('.note.error').last().locator('.allowed li').allTextContents();
    h.check(allowed.length === before.legal.length, 'the moves allowed now are listed under it');
    h.check(!NOTATION.test(await told(actor)), 'no notation in the refusal: ' + (await told(actor)));
    const after = await h.state(actor);
    h.check(after.seq === before.seq, 'nothing changed');
    await h.shot(actor, 'refused-' + (actor === ann ? 'desktop-en' : 'phone-ru'));
  });

  await h.step('a refusal from the server (a stub `refusal`): the game’s words when the catalogue has them, else the plain sentence; never the server’s reason', async () => {
    const keys = Object.keys(en).filter((k) => k.startsWith('ur.refusal.'));
    for (const [page, cat] of [[ann, en], [bob, ru]]) {
      const why = keys.length ? keys[0].slice('ur.refusal.'.length) : 'no-such-reason';
      const old = await page.locator('.note.error').last().elementHandle({ timeout: 50 }).catch(() => null);
      await page.evaluate((why) => {
        const msg = { type: 'error', error: 'illegal', request: 'act', message: 'illegal move 8H@-4,1: Continuity (CBW-R12): no card lies next to -4,1; legal: A1', reason: 'illegal move 8H@-4,1: Continuity (CBW-R12): no card lies next to -4,1', refusal: { why, to: 'B8' } };
        window.__parlour.net.ws.onmessage({ data: JSON.stringify(msg) });
      }, why);
      if (old) await old.waitForElementState('hidden');
      await page.locator('.note.error').waitFor();
      const text = await page.locator('.note.error .note-text').last().textContent();
      h.check(!/CBW-R12|8H@|Continuity|illegal move/.test(text), 'not the server’s reason: ' + text);
      if (!keys.length) h.check(text === cat['room.refused'], 'the plain sentence: ' + text);
      else h.check(text !== cat['room.refused'] && text.length > 0, 'the game’s words: ' + text);
      h.check((await page.locator('.note q').count()) === 0, 'no quotation of the server');
    }
    await h.shot(bob, 'refusal-phone-ru');
  });

  await h.step('on the Russian page a refusal that is not about the move (not your turn): a Russian lead-in, the server’s words quoted as lang="en" (issue 16)', async () => {
    const st = await h.state(bob);
    if (st.view.actors.includes(1) && st.legal.length > 0) return; // Bob's turn: nothing to refuse that way
    const before = await bob.locator('.note.error').count();
    await h.act(bob, 'Z9');
    await bob.waitForFunction((n) => document.querySelectorAll('.note.error').length > n, before);
    const err = bob.locator('.note.error').last();
    const text = await err.locator('.note-text').textContent();
    h.check(text.startsWith(ru['error.not-your-turn'] + ' '), `the catalogue's lead-in first: ${text}`);
    h.check((await err.locator('q[lang="en"]').count()) === 1, 'the server’s words in one <q lang="en">');
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
      for (const p of [ann, bob]) {
        const turn = await p.locator('.turn').textContent();
        h.check(!/dice|Бросок/.test(turn), 'the status line says what is going on: ' + turn);
      }
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

  await h.step('a finished room does not offer "Take a seat" (issue 31 §5)', async () => {
    for (const [size, lang] of [['phone', 'ru'], ['desktop', 'en']]) {
      const late = await plainPage(h, size, lang);
      await late.goto(h.url('/room/' + room));
      await h.waitState(late, (st) => st.over);
      await late.locator('.result-text').waitFor();
      h.check((await late.locator('#join-name, .join-form').count()) === 0, 'no join form in a finished room: ' + size);
      h.check((await late.locator('#takeback').count()) === 0, 'no takeback for a spectator');
      await h.shot(late, `finished-${size}-${lang}`);
      await late.close();
    }
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

  // ---- issue 31 §5, §7: a move played for you; a takeback between people ----
  // On the game's own table this time (Ur's board, not the plain buttons): Ann on a desktop in
  // English, Bob on a phone in Russian; moves are sent as the table sends them (h.act).
  let room2;
  const ann2 = await (await h.context('desktop', { lang: 'en' })).newPage();
  const bob2 = await (await h.context('phone', { lang: 'ru' })).newPage();
  /** page plays its first legal move (as its table would) and waits for the state after it. */
  async function play(page, st) {
    await h.act(page, st.legal[0].action);
    await h.waitState(page, (s2, seq) => s2.seq !== seq || s2.over, st.seq).catch(() => {});
  }
  /** One move of whichever of ann2, bob2 has one; false once the game is over. */
  async function oneMove() {
    const [a, b] = [await h.state(ann2), await h.state(bob2)];
    if (a.over) return false;
    const page = a.legal.length ? ann2 : b.legal.length ? bob2 : null;
    if (!page) await ann2.waitForTimeout(50);
    else await play(page, page === ann2 ? a : b);
    return true;
  }

  await h.step('a person’s only move is played for them, with a note in the page’s words (issue 31 §5)', async () => {
    await ann.goto(h.url('/'));
    const made = await h.createRoom(ann, { game: 'ur', seats: [{ kind: 'person' }, { kind: 'person' }] });
    room2 = made.room;
    await h.join(ann2, room2, 'Ann');
    await h.join(bob2, room2, 'Bob');
    await h.waitState(ann2, (st) => st.status === 'playing');
    const seen = { ann: false, bob: false };
    for (let k = 0; k < 300 && !(seen.ann && seen.bob); k++) {
      for (const [who, page, cat] of [['ann', ann2, en], ['bob', bob2, ru]]) {
        const st = await h.state(page);
        h.check(st.legal.length !== 1, 'a person is never offered a single move');
        if (!seen[who] && (await page.locator('.note.info', { hasText: cat['room.forced'] }).count())) {
          seen[who] = true;
          await h.shot(page, who === 'ann' ? 'forced-desktop-en' : 'forced-phone-ru');
          h.check(!ENGINE.test(await told(page)), 'no notation in the note: ' + (await told(page)));
        }
      }
      if (!(await oneMove())) break;
    }
    h.check(seen.ann && seen.bob, 'each saw a move played for them: ' + JSON.stringify(seen));
    const st = await h.state(ann2);
    h.check(!st.over, 'the game goes on');
  });

  /** Plays until `page` has just made a move of its own (a choice); its state before it. */
  async function ownMove(page) {
    for (let k = 0; k < 200; k++) {
      const st = await h.state(page);
      if (st.over) throw new Error('the game ended before a move of one’s own');
      if (st.legal.length > 1) {
        await play(page, st);
        return st;
      }
      const other = page === ann2 ? bob2 : ann2;
      const o = await h.state(other);
      if (o.legal.length) await play(other, o);
      else await page.waitForTimeout(50);
    }
    throw new Error('no move of one’s own');
  }

  await h.step('a takeback: asked, declined (the table stays), asked again after a move, accepted (the table goes back) (issue 31 §7)', async () => {
    await ownMove(ann2);
    await ann2.locator('#takeback').click();
    await ann2.locator('.takeback-box', { hasText: en['room.takeback.asked'] }).waitFor();
    const question = bob2.locator('.takeback-box', { hasText: ru['room.takeback.question'].replace('{name}', 'Ann') });
    await question.waitFor();
    await h.shot(bob2, 'takeback-asked-phone-ru');
    await h.shot(ann2, 'takeback-asked-desktop-en');
    h.check((await h.unseen(bob2, { accept: '#takeback-accept', decline: '#takeback-decline' })).length === 0, 'the answer buttons are in view on a phone: ' + JSON.stringify(await h.unseen(bob2, { accept: '#takeback-accept', decline: '#takeback-decline' })));
    const seq = (await h.state(ann2)).seq;
    await bob2.locator('#takeback-decline').click();
    await ann2.locator('.note.info', { hasText: en['room.takeback.declined.you'].replace('{name}', 'Bob') }).waitFor();
    await question.waitFor({ state: 'detached' });
    h.check((await h.state(ann2)).seq === seq, 'declined: nothing changed');
    h.check((await ann2.locator('#takeback').count()) === 0, 'not offered again before the next move… (button hidden or refused)' ) ;
  });

  await h.step('asked again after a move and accepted: back to before Ann’s move; the words in each page’s language', async () => {
    const before = await ownMove(ann2);
    await ann2.locator('#takeback').click();
    await bob2.locator('#takeback-accept').click();
    const st = await h.waitState(ann2, (st, seq) => st.seq === seq, before.seq);
    h.check(JSON.stringify(st.view) === JSON.stringify(before.view), 'the table is as before Ann’s move');
    h.check(st.legal.length > 1, 'Ann chooses again');
    await ann2.locator('.note.info', { hasText: en['room.takeback.done.you'] }).waitFor();
    await bob2.locator('.note.info', { hasText: ru['room.takeback.done.other'].replace('{name}', 'Ann') }).waitFor();
    h.check(!ENGINE.test(await told(ann2)) && !ENGINE.test(await told(bob2)), 'no notation: ' + (await told(ann2)) + ' / ' + (await told(bob2)));
    await h.shot(ann2, 'takeback-done-desktop-en');
    await h.shot(bob2, 'takeback-done-phone-ru');
  });

  await h.step('a table’s own refused() and status() are used when it has them (a stub table module)', async () => {
    const ctx = await h.context('desktop', { lang: 'en' });
    await ctx.route('**/games/ur.js', (route) => route.fulfill({ contentType: 'text/javascript', body: `
      export function mount(root, api) { return { update() {}, event() {}, destroy() {} }; }
      export function refused(err, ctx) { const p = document.createElement('p'); p.className = 'stub-refused'; p.textContent = 'beside the tap: ' + (err.refusal ? err.refusal.why : 'none'); ctx.root.append(p); return true; }
      export function status(view, ctx) { return 'stub status for seat ' + (ctx.seat + 1); }
    ` }));
    const p = await ctx.newPage();
    await p.goto(h.url('/room/' + room2)); // a spectator: the stub table, its status words
    await p.locator('.turn', { hasText: /^stub status for seat 0$/ }).waitFor();
    await p.evaluate(() => {
      const msg = { type: 'error', error: 'illegal', request: 'act', message: 'illegal move B8: own piece', reason: 'illegal move B8: own piece', refusal: { why: 'own-piece', to: 'B8' } };
      window.__parlour.net.ws.onmessage({ data: JSON.stringify(msg) });
    });
    await p.locator('.stub-refused', { hasText: 'beside the tap: own-piece' }).waitFor();
    h.check((await p.locator('.note.error').count()) === 0, 'the table showed it: no note of the room');
    await ctx.close();
  });

  await h.step('in a game with hidden cards the page plays a seat’s only move after a moment, with the note; not in karuta (issue 31 §5)', async () => {
    for (const [game, seats, auto] of [['tamcuc', 2, true], ['cbw', 4, true], ['karuta', 2, false]]) {
      const made = await h.createRoom(ann, { game, seats: Array.from({ length: seats }, (_, i) => ({ kind: i ? 'ai' : 'person' })), options: game === 'karuta' ? { memo_s: '600' } : game === 'tamcuc' ? { players: '2' } : {} });
      const p = await plainPage(h, 'phone', 'ru');
      await h.join(p, made.room, 'Ann');
      // its turn (no computer moves while it thinks); karuta: the memorisation holds the readings
      const st = await h.waitState(p, (st) => st.status === 'playing' && (game === 'karuta' || st.legal.length > 0));
      // the page's connection: what it sends is kept; a state as the server would send it,
      // with one legal action for this seat (a hidden game's server sends it and waits)
      const sent = await p.evaluate((st) => {
        const net = window.__parlour.net;
        window.__sent = [];
        const send = net.send.bind(net);
        net.send = (m) => (window.__sent.push(m), m.type === 'act' ? true : send(m));
        const one = { ...st, seq: st.seq + 1000, history_from: st.seq + 1000, history: [], legal: [{ action: 'only-one', fields: {}, long: 'only-one', seat: st.seat }] };
        window.__parlour.net.ws.onmessage({ data: JSON.stringify(one) });
        return window.__sent.length;
      }, st);
      h.check(sent === 0, game + ': nothing sent at once');
      await p.waitForTimeout(2500);
      const acts = await p.evaluate(() => window.__sent.filter((m) => m.type === 'act'));
      if (auto) {
        h.check(acts.length === 1 && acts[0].action === 'only-one', game + ': the only move sent for the person: ' + JSON.stringify(acts));
        await p.locator('.note.info', { hasText: ru['room.forced'] }).waitFor();
      } else h.check(acts.length === 0, 'karuta: no touch or action is played for a person: ' + JSON.stringify(acts));
      await p.context().close();
    }
  });
});
