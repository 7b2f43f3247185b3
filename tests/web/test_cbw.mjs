// test_cbw.mjs — the City Behind Walls table (web/games/cbw.js) in a real
// browser: two persons (Ann on a desktop, Bob on a phone in Russian) and two
// computer seats (easy) play a whole game on a small Rectangle (4×2) through
// the table's UI only: a tap on a hand card lights the cells `legal` allows, a
// tap on a lit cell plays it, the Pass button passes. On the way: an illegal
// placement made by tapping a free cell that is not lit (the reason is
// shown next to it in words, nothing changes), a reload of Bob's page in the middle
// (same seat, the table rebuilt from the view), a spectator whose page holds
// no card of any hand, screenshots at phone and desktop size and the layout
// check (the board scrolls inside its own box, never the page); the refusal
// is told in the page's words next to the cell tapped. The legal
// placements are read from their `fields` (checked against their notation);
// what happened is told from the history entries' `events`, in each page's
// language: every capture a page was sent is checked in its words (its cards,
// the team that took them), and the replay words its steps the same way.

import { run } from './harness.mjs';

const PLACE = /^([0-9JQKA]+[SHDC])@(-?\d+),(-?\d+)$/;

/** {card → [cells]} of the legal placements of a state, from their `fields`
 * (docs/web-views.md, cbw "Action fields"), which must say what the notation says. */
function placements(st) {
  const m = new Map();
  for (const a of st.legal || []) {
    const p = PLACE.exec(a.action);
    const f = a.fields || {};
    if (!p) {
      if (f.move !== 'pass') throw new Error(`fields of ${a.action}: ${JSON.stringify(f)}`);
      continue;
    }
    if (f.move !== 'place' || f.card !== p[1] || f.x !== Number(p[2]) || f.y !== Number(p[3]) || !Number.isInteger(f.captures))
      throw new Error(`fields of ${a.action}: ${JSON.stringify(f)}`);
    if (!m.has(f.card)) m.set(f.card, []);
    m.get(f.card).push([f.x, f.y]);
  }
  return m;
}

const SUIT = { S: '♠', H: '♥', D: '♦', C: '♣' };
const short = (c) => c.slice(0, -1) + SUIT[c.slice(-1)];
const TEAMS = { en: ['Red', 'Black'], ru: ['Красные', 'Чёрные'] };

/** The captures in the entries a page was sent with its last state (only the
 * last entry after a (re)load): [{by, cards}] from their events. */
function capturesOf(st) {
  const entries = (st.history || []).filter((e) => e && Array.isArray(e.events));
  const told = st.history_from === 0 ? entries.slice(-1) : entries;
  return told.flatMap((e) => e.events.filter((ev) => ev.type === 'capture'));
}

/** The cards drawn on the board of a page (data-card of the cells holding one). */
async function boardCards(page) {
  return page.$$eval('.cbw-board .cbw-on', (els) => els.map((e) => `${e.dataset.card}@${e.dataset.x},${e.dataset.y}`).sort());
}

function tableOf(st) {
  return st.view.table.map((c) => `${c.card}@${c.x},${c.y}`).sort();
}

run('cbw', async (h) => {
  const ann = await h.page('desktop');
  const bob = await h.page('phone', { lang: 'ru' });
  let eve = null; // the spectator, opened when the table has cards
  let room;
  const placed = { ann: 0, bob: 0 };
  let reloaded = false;
  let illegalDone = false;
  let spectatorChecked = false;
  let shots = false;
  let byKeyboard = false;
  let maxCastles = 0;
  let shotDesktop = false;
  let capturesTold = 0;

  /** Every capture the page's last state brought is told in the page's
   * language from its events: each captured card, the team that took it. */
  async function checkCapturesTold(page, lang) {
    const st = await h.state(page);
    const caps = capturesOf(st);
    if (!caps.length) return;
    const text = await page.locator('.cbw-last').textContent();
    for (const c of caps) {
      for (const card of c.cards) h.check(text.includes(short(card.card)), `the capture of ${card.card} told (${lang}): ${text}`);
      h.check(text.includes(TEAMS[lang][c.by]), `the team that took it, ${TEAMS[lang][c.by]}, named: ${text}`);
    }
    // the team that took them shows its gain
    const gain = [0, 0];
    for (const c of caps) gain[c.by] += c.cards.length;
    for (const team of [0, 1])
      if (gain[team]) {
        const badge = await page.locator(`.cbw-team.team${team} .cbw-gain`).textContent();
        h.check(badge.includes(String(gain[team])), `${TEAMS[lang][team]}'s gain shown: ${badge}`);
      }
    const said = (st.history || []).map((e) => e.said).filter(Boolean);
    for (const s of said) h.check(!text.includes(s), 'not the server’s English: ' + s);
    if (lang === 'ru') h.check(!/captured|prisoner/.test(text), 'no English in the Russian page: ' + text);
    capturesTold++;
  }

  await h.step('a room: two persons, two computers (easy), a 4×2 Rectangle', async () => {
    await ann.goto(h.url('/'));
    const made = await h.createRoom(ann, {
      game: 'cbw',
      options: { players: '4', deck: '36', w: '4', h: '2', first: 'red' },
      seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }],
    });
    room = made.room;
    h.check((await h.join(ann, room, 'Ann')) === 0, 'Ann has seat 0');
    h.check((await h.join(bob, room, 'Bob')) === 1, 'Bob has seat 1');
    await h.waitState(ann, (st) => st.status === 'playing');
  });

  await h.step('the table is drawn: the hand as card buttons, the seats with their teams', async () => {
    const st = await h.waitState(ann, (st) => st.legal.length > 0);
    await ann.locator('.cbw-board svg').waitFor();
    const hand = await ann.$$eval('.cbw-hand .cbw-hcard', (els) => els.map((e) => e.dataset.card));
    h.check(JSON.stringify(hand) === JSON.stringify(st.view.hand), 'the hand: ' + hand.join(' '));
    const label = await ann.getByRole('group', { name: 'Your cards (seat 1)' }).getByRole('button').first().textContent(); // its name: text, no aria-label (issue 32)
    h.check(/ of (spades|hearts|diamonds|clubs)/.test(label), 'a card has its name: ' + label);
    h.check((await ann.locator('.cbw-seat.team0').count()) === 2 && (await ann.locator('.cbw-seat.team1').count()) === 2, 'two seats a team');
    h.check((await ann.locator('.cbw-seat.turn[data-seat="0"]').count()) === 1, 'seat 0 to play');
    h.check((await ann.locator('button.cbw-pass:visible').count()) === 1, 'a Pass button');
  });

  /** Ann or Bob plays one move through the UI: a card with a lit cell, or Pass. */
  async function play(page, who, st) {
    const moves = placements(st);
    const seq = st.seq;
    if (moves.size && placed[who] === 1 && who === 'bob') {
      // by keyboard: Enter on a hand card, then Enter on a lit cell
      const [card, cells] = [...moves.entries()][0];
      await page.locator(`.cbw-hcard[data-card="${card}"]`).focus();
      await page.keyboard.press('Enter');
      const [x, y] = cells[0];
      const cell = page.locator(`.cbw-target[data-x="${x}"][data-y="${y}"]`);
      await cell.focus();
      // the arrow keys move between cells (there is a cell beside a lit one, left or right)
      const [away, back] = (await page.locator(`.cbw-cell[data-x="${x - 1}"][data-y="${y}"]`).count()) ? ['ArrowLeft', 'ArrowRight'] : ['ArrowRight', 'ArrowLeft'];
      await page.keyboard.press(away);
      const moved = await page.evaluate(() => document.activeElement.dataset.x + ',' + document.activeElement.dataset.y);
      h.check(moved === `${away === 'ArrowLeft' ? x - 1 : x + 1},${y}`, `${away} moves the focus to the next cell: ${moved}`);
      await page.keyboard.press(back);
      await page.keyboard.press('Enter');
      placed[who]++;
      byKeyboard = true;
    } else if (moves.size && placed[who] < 5) {
      const [card, cells] = [...moves.entries()][placed[who] % moves.size];
      await page.locator(`.cbw-hcard[data-card="${card}"]`).click();
      const lit = await page.$$eval('.cbw-target', (els) => els.map((e) => [Number(e.dataset.x), Number(e.dataset.y)]));
      h.check(JSON.stringify(lit.sort()) === JSON.stringify(cells.slice().sort()), `the lit cells of ${card}: ${JSON.stringify(lit)} vs ${JSON.stringify(cells)}`);
      const [x, y] = cells[0];
      await page.locator(`.cbw-target[data-x="${x}"][data-y="${y}"]`).click();
      placed[who]++;
    } else {
      await page.locator('button.cbw-pass').click();
    }
    await h.waitState(page, (s, seq) => s.seq !== seq, seq);
  }

  async function illegal(page, st) {
    // a hand card and a free cell drawn on the board that legal does not pair
    const moves = placements(st);
    const free = await page.$$eval('.cbw-free', (els) => els.map((e) => [Number(e.dataset.x), Number(e.dataset.y)]));
    for (const card of st.view.hand) {
      const ok = new Set((moves.get(card) || []).map(([x, y]) => x + ',' + y));
      const cell = free.find(([x, y]) => !ok.has(x + ',' + y));
      if (!cell) continue;
      const before = await boardCards(page);
      await page.locator(`.cbw-hcard[data-card="${card}"]`).click();
      await page.locator(`.cbw-free[data-x="${cell[0]}"][data-y="${cell[1]}"]`).click({ force: true }); // aria-disabled, yet a tap says why
      // the reason in the page's words (the server's `refusal`), beside the cell tapped
      const box = page.locator('.cbw-refusal:not([hidden])');
      await box.waitFor();
      const text = await box.textContent();
      h.check(!/CBW-R\d+|@-?\d|-?\d+,-?\d+/.test(text) && text.length > 10, 'the reason in words, no notation: ' + text);
      h.check((await page.locator(`.cbw-refused[data-x="${cell[0]}"][data-y="${cell[1]}"]`).count()) === 1, 'the cell tapped ringed');
      await h.expectInView(page, { reason: '.cbw-refusal' }, 'refused', { keepScroll: true });
      const after = await h.state(page);
      h.check(after.seq === st.seq, 'nothing changed (seq)');
      h.check(JSON.stringify(await boardCards(page)) === JSON.stringify(before), 'the board is the same');
      h.check((await page.locator(`.cbw-hcard[data-card="${card}"]`).count()) === 1, 'the card is still in the hand');
      await page.locator(`.cbw-hcard[data-card="${card}"]`).click(); // put it back
      return true;
    }
    return false;
  }

  async function spectator() {
    eve = await h.page('phone');
    await eve.goto(h.url('/room/' + room));
    const st = await h.waitState(eve, (s) => s.seat === -1 && s.view.table.length > 0);
    await eve.locator('.cbw-board .cbw-on').first().waitFor();
    h.check(st.view.hand === undefined && st.legal.length === 0, 'the view has no hand');
    h.check((await eve.locator('.cbw-hcard').count()) === 0, 'no hand is drawn');
    const hands = [...(await h.state(ann)).view.hand, ...(await h.state(bob)).view.hand];
    const onTable = new Set(tableOf(await h.state(eve)).map((s) => s.split('@')[0]));
    const inDom = await eve.$$eval('[data-card]', (els) => els.map((e) => e.dataset.card));
    for (const c of inDom) h.check(onTable.has(c), `${c} drawn for the spectator is on the table`);
    const html = await eve.content();
    const names = await ann.$$eval('.cbw-hcard .sr', (els) => els.map((e) => e.textContent.split(',')[0]));
    for (const n of names) h.check(!html.includes(n), `the spectator's page does not name ${n}`);
    for (const c of hands) h.check(!html.includes(`data-card="${c}"`), `no ${c} in the spectator's page`);
    h.expectLayout(await h.layout(eve), 'spectator phone');
  }

  await h.step('the whole game through the table, with an illegal tap, a reload and a spectator', async () => {
    for (let turn = 0; turn < 400; turn++) {
      const [a, b] = [await h.state(ann), await h.state(bob)];
      if (a.over) break;
      const page = a.legal.length ? ann : b.legal.length ? bob : null;
      if (!page) {
        await ann.waitForTimeout(40);
        continue;
      }
      const st = page === ann ? a : b;
      if (page === ann && !illegalDone && st.view.table.length >= 2) {
        await h.step('a tap on a free cell that is not lit: the reason in words beside it, nothing changed', async () => {
          illegalDone = await illegal(ann, st);
        });
      }
      if (page === bob && !reloaded && st.view.table.length >= 3) {
        await h.step('a reload in the middle: the same seat, the table rebuilt', async () => {
          const before = await h.state(bob);
          await bob.reload();
          const again = await h.waitState(bob, (s) => s.seat === 1 && s.view && s.view.table.length > 0);
          h.check(again.seats[1].name === 'Bob', 'still Bob’s seat');
          await bob.locator('.cbw-board .cbw-on').first().waitFor();
          h.check(JSON.stringify(await boardCards(bob)) === JSON.stringify(tableOf(again)), 'the board is the view’s table');
          h.check(JSON.stringify(tableOf(again)) === JSON.stringify(tableOf(before)), 'the same table as before the reload');
          h.check((await bob.locator('.cbw-hcard').count()) === again.view.hand.length, 'the hand rebuilt');
          reloaded = true;
        });
        continue;
      }
      if (!spectatorChecked && st.view.table.length >= 4) {
        await h.step('a spectator sees the table and no card of any hand', spectator);
        spectatorChecked = true;
      }
      if (!shots && page === bob && st.view.table.length >= 4) {
        await h.step('screenshots and the layout check (phone, desktop)', async () => {
          await bob.locator('.cbw-hcard.playable').first().click();
          await bob.locator('.cbw-target').first().waitFor();
          h.expectLayout(await h.layout(bob), 'phone');
          h.expectLayout(await h.layout(ann), 'desktop');
          await h.shot(bob, 'phone');
          await bob.locator('.cbw-hcard.selected').click();
          // zoomed in, the board is wider than the phone: it scrolls in its own box, not the page
          await bob.locator('.cbw-zoom-in').click();
          await bob.locator('.cbw-zoom-in').click();
          const box = await bob.$eval('.cbw-board', (el) => ({ sw: el.scrollWidth, cw: el.clientWidth }));
          h.check(box.sw > box.cw, `the zoomed board scrolls (${box.sw} > ${box.cw} px)`);
          h.expectLayout(await h.layout(bob), 'phone, zoomed in');
          await bob.locator('.cbw-zoom-fit').click();
          // touch: a pinch (two fingers apart) zooms in, one finger drags the board
          const svgWidth = () => bob.$eval('.cbw-board svg', (el) => Number(el.getAttribute('width')));
          const w0 = await svgWidth();
          const r = await bob.$eval('.cbw-board', (el) => {
            const b = el.getBoundingClientRect();
            return { x: b.left + b.width / 2, y: b.top + Math.min(b.height, 300) / 2 };
          });
          const cdp = await bob.context().newCDPSession(bob);
          const touch = (type, pts) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pts.map(([x, y], id) => ({ x, y, id })) });
          await touch('touchStart', [[r.x - 30, r.y], [r.x + 30, r.y]]);
          for (let d = 40; d <= 120; d += 20) await touch('touchMove', [[r.x - d, r.y], [r.x + d, r.y]]);
          await touch('touchEnd', []);
          const w1 = await svgWidth();
          h.check(w1 > w0 * 1.5, `a pinch zooms in (${w0} → ${w1} px)`);
          const sl0 = await bob.$eval('.cbw-board', (el) => el.scrollLeft);
          await touch('touchStart', [[r.x, r.y]]);
          for (let d = 10; d <= 80; d += 10) await touch('touchMove', [[r.x - d, r.y]]);
          await touch('touchEnd', []);
          const sl1 = await bob.$eval('.cbw-board', (el) => el.scrollLeft);
          h.check(sl1 > sl0, `a drag pans the board (${sl0} → ${sl1})`);
          h.expectLayout(await h.layout(bob), 'phone, pinched');
          await bob.locator('.cbw-zoom-fit').click();
        });
        shots = true;
      }
      if (shots && !shotDesktop && page === ann) {
        await h.step('the desktop screenshot, a card chosen', async () => {
          await ann.locator('.cbw-hcard.playable').first().click();
          await ann.locator('.cbw-target').first().waitFor();
          h.expectLayout(await h.layout(ann), 'desktop');
          await h.shot(ann, 'desktop');
          await ann.locator('.cbw-hcard.selected').click();
        });
        shotDesktop = true;
      }
      // the table always shows the view's cards
      const drawn = await boardCards(page);
      const want = tableOf(await h.state(page));
      h.check(JSON.stringify(drawn) === JSON.stringify(want), `the board ${drawn} is the view's table ${want}`);
      const now = await h.state(page);
      const castles = now.view.castles[0] + now.view.castles[1];
      h.check((await page.locator('.cbw-castle').count()) === castles, `the castles drawn are the view's ${castles}`);
      maxCastles = Math.max(maxCastles, castles);
      await checkCapturesTold(ann, 'en');
      await checkCapturesTold(bob, 'ru');
      await play(page, page === ann ? 'ann' : 'bob', await h.state(page));
    }
    const st = await h.waitState(ann, (s) => s.over);
    h.check(illegalDone && reloaded && spectatorChecked && shots && shotDesktop && byKeyboard, 'every check ran');
    h.check(placed.ann > 0 && placed.bob > 0, 'both persons placed cards');
    h.check(st.result && st.result.kind !== undefined, 'a result');
    await ann.locator('.result-text').waitFor();
    await bob.locator('.result-text').waitFor();
    h.check((await ann.locator('button.cbw-pass:visible').count()) === 0, 'no Pass once over');
    const outcome = await ann.locator('.cbw-outcome').textContent();
    const o = st.view.outcome;
    const want = o.kind === 'draw' || o.winner === null ? /^A draw/ : new RegExp('^' + ['Red', 'Black'][o.winner] + ' wins, ' + st.view.score.join(' : '));
    h.check(want.test(outcome), 'the outcome in words: ' + outcome);
    // the room's result names the team as the table does (Red/Black), in both languages
    const rt = await ann.locator('.result-text').textContent();
    const rtRu = await bob.locator('.result-text').textContent();
    if (o.kind === 'draw' || o.winner === null) h.check(/^A draw/.test(rt), 'the room’s result: ' + rt);
    else {
      const en = ['Red', 'Black'][o.winner], ru = ['Красные', 'Чёрные'][o.winner];
      h.check(new RegExp('^(' + en + ' wins|Your team, ' + en + ', wins)').test(rt) && !/Team \d/.test(rt), 'the room’s result names the team as the table does: ' + rt);
      h.check(rtRu.includes(ru) && !/команда \d/i.test(rtRu), 'in Russian too: ' + rtRu);
    }
    h.expectLayout(await h.layout(bob), 'over, phone');
    const captured = st.view.prisoners[0].length + st.view.prisoners[1].length;
    const faded = Number(await ann.$eval('.cbw-board', (el) => el.dataset.faded));
    h.check(faded === captured, `every captured card faded out on Ann's table (${faded} of ${captured})`);
    const endText = await ann.locator('.cbw-last').textContent();
    const end = (st.history || []).flatMap((e) => e.events || []).find((ev) => ev.type === 'end');
    if (end) h.check(endText.includes('Game over') && endText.includes(end.score.join(' : ')), 'the end told from its event: ' + endText);
    console.log(`# ${placed.ann + placed.bob} cards placed by the persons, ${captured} captured, at most ${maxCastles} castle cells, ${st.view.history.length} turns, ${capturesTold} captures told`);
  });

  await h.step('the replay page draws the finished game with this table', async () => {
    const final = await h.state(ann);
    // the whole history Ann's page holds, with each entry's events
    const history = await ann.evaluate(() => window.__parlour.page.room.history);
    const capture = history.find((e) => e && (e.events || []).some((ev) => ev.type === 'capture'));
    await ann.goto(h.url('/room/' + room + '#replay'));
    await ann.locator('#replay-step').waitFor();
    await ann.keyboard.press('End');
    if (!(await ann.evaluate(() => window.__parlour.page.replay.views))) {
      console.log('# the server sends no views for a replay yet (no `replay` message): the page steps as text; table not checked');
      return;
    }
    await ann.locator('.cbw-board .cbw-on').first().waitFor();
    await ann.waitForFunction((n) => document.querySelectorAll('.cbw-board .cbw-on').length === n, final.view.table.length);
    h.check(JSON.stringify(await boardCards(ann)) === JSON.stringify(tableOf(final)), 'the last step is the final table');
    h.check((await ann.locator('.cbw-hcard').count()) === 0, 'no hand in a replay');
    // every step listed in words from its events (this table's `tell`), a capture with its cards and team
    h.check(!!capture, 'the game had a capture');
    const item = ann.locator('.replay-history li').nth(capture.seq);
    const words = await item.textContent();
    for (const ev of capture.events.filter((e) => e.type === 'capture')) {
      for (const c of ev.cards) h.check(words.includes(short(c.card)), `the replay tells the capture of ${c.card}: ${words}`);
      h.check(words.includes(TEAMS.en[ev.by]), `and the team that took it: ${words}`);
    }
    h.check(!capture.said || !words.includes(capture.said), 'in the page’s words, not the server’s English');
    await ann.keyboard.press('Home');
    await ann.waitForFunction(() => document.querySelectorAll('.cbw-board .cbw-on').length === 0);
  });

  await h.step('players=2: one person plays both seats of a team, from two piles', async () => {
    const made = await h.createRoom(ann, {
      game: 'cbw',
      options: { players: '2', deck: '36', w: '4', h: '2', first: 'black' },
      seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'partner', of: 0 }, { kind: 'ai', level: 'easy' }],
    });
    h.check((await h.join(ann, made.room, 'Ann')) === 0, 'Ann has seat 0');
    await ann.locator('.cbw-pile').nth(1).waitFor();
    h.check((await ann.locator('.cbw-pile').count()) === 2, 'two piles');
    // seat 1 opens; then seat 2 (the partner pile) acts: play from it
    const st = await h.waitState(ann, (s) => s.legal.length > 0 && s.legal[0].seat === 2);
    const [card, cells] = [...placements(st).entries()][0];
    h.check(st.view.partner_hand.cards.includes(card), 'the card is of the other pile');
    await ann.locator(`.cbw-pile:nth-child(2) .cbw-hcard[data-card="${card}"]`).click();
    await ann.locator(`.cbw-target[data-x="${cells[0][0]}"][data-y="${cells[0][1]}"]`).click();
    const after = await h.waitState(ann, (s, seq) => s.seq > seq, st.seq);
    h.check(after.view.history.some((e) => e.seat === 2 && e.card === card), `seat 2 placed ${card}`);
  });
});
