// test_tamcuc.mjs — the Tam Cúc table (web/games/tamcuc.js) in a real
// browser: two persons (Ann on a desktop, Bob on a phone in Russian) and two
// computer seats (easy) play one whole deal through the table's UI — the
// declaration buttons (Bob declares his four black Soldiers and leads them as
// an extra trick), hand cards tapped to form a group and the play button,
// reveal/hide buttons — with a reload of Bob's page in the middle, an
// illegal lead (the General under the first-trick ban: the table dims it so
// it cannot be tapped; it is sent through the harness's act, the shell's
// fallback for tests) whose explanation is shown while nothing changes, and
// a spectator whose page holds no face of any hand or face-down card.
// What happened is drawn from the history's events (docs/web-views.md,
// "tamcuc", "Events"): the list of tricks (each seat's listed cards are its
// won pile; the spectator has it too), the last action's sentences (the last
// trick, the deal's score lines, the end) in English and in Russian; the
// declaration button is worded from the action's fields.
// The deal is fixed with the `deal=` option (docs/notation-tamcuc.md).

import { run } from './harness.mjs';

const HANDS = [
  'rG,bA,rE,rC,rN,rH,rS,bH', // Ann (seat 0, the dealer)
  'bS,bS,bS,bS,rA,bE,bC,bN', // Bob: a black Four
  'bG,rA,bA,rE,rC,bC,rS,rS',
  'bE,rN,bN,rH,bH,rS,rS,bS',
];

/** The cards a page's DOM shows face up, by zone. */
async function faces(page) {
  return page.evaluate(() => {
    const out = {};
    for (const el of document.querySelectorAll('.table-root [data-card]')) {
      const zone = el.closest('[data-zone]') ? el.closest('[data-zone]').dataset.zone : '?';
      (out[zone] = out[zone] || []).push(el.dataset.card);
    }
    return out;
  });
}

/** The cards a spectator's view shows face up (an upper bound for its DOM). */
function publicCards(v) {
  const cards = [];
  const tr = v.trick;
  if (tr) {
    if (tr.lead && (tr.lead.state === 'up' || tr.lead.state === 'revealed')) cards.push(...tr.lead.cards);
    for (const l of tr.lays || []) if (l.state === 'revealed') cards.push(...l.cards);
  }
  if (v.last_trick) {
    cards.push(...(v.last_trick.lead || []));
    for (const l of v.last_trick.lays || []) if (l.cards) cards.push(...l.cards);
  }
  for (const w of v.won || []) cards.push(...w);
  for (const d of v.discards || []) if (d.public_cards) cards.push(...d.public_cards);
  if (v.counting) cards.push(...v.counting.cards);
  return cards;
}

run('tamcuc', async (h) => {
  const ann = await h.page('desktop');
  const bob = await h.page('phone', { lang: 'ru' });
  const eve = await h.page('phone');
  let room;
  const log = [];

  await h.step('a room: two persons, two computer seats, a fixed deal', async () => {
    await ann.goto(h.url('/'));
    const made = await h.createRoom(ann, {
      game: 'tamcuc',
      options: { players: '4', dealer: '0', deal: HANDS.join('/'), seize_unlocks_first_trick: 'off' },
      seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }],
    });
    room = made.room;
    h.check((await h.join(ann, room, 'Ann')) === 0, 'Ann has seat 0');
    h.check((await h.join(bob, room, 'Bob')) === 1, 'Bob has seat 1');
    await eve.goto(h.url('/room/' + room));
    await h.waitState(eve, (st) => st.seat === -1 && st.status === 'playing');
  });

  await h.step('the hand is drawn as 8 card faces with labels (Ann, English; Bob, Russian)', async () => {
    await ann.locator('.tc-hand g.tc-card').nth(7).waitFor();
    h.check((await ann.locator('.tc-hand g.tc-card').count()) === 8, '8 cards in Ann’s hand');
    const label = await ann.locator('.tc-hand g.tc-card[data-card="rG"]').getAttribute('aria-label');
    h.check(/red General 帥 tướng/.test(label), 'the label: ' + label);
    const bl = await bob.locator('.tc-hand g.tc-card[data-card="bS"]').first().getAttribute('aria-label');
    h.check(/Солдат, чёрный, 卒 tốt/.test(bl), 'Bob’s label: ' + bl);
    // one Tab stop for the hand (issue 32: a roving tabindex), every card focusable by the arrows
    h.check((await ann.locator('.tc-hand g.tc-card[tabindex="0"]').count()) === 1 && (await ann.locator('.tc-hand g.tc-card[tabindex="-1"]').count()) === 7, 'one card in the Tab order, the others by the arrow keys');
  });

  // one move by a page through the UI; returns what it did or null
  async function move(page, name, prefer = []) {
    const st = await h.state(page);
    if (!st || st.over || !st.legal.length) return null;
    const acts = st.legal.map((a) => a.action);
    const cardActs = acts.filter((a) => /^(lead|lay|pass) /.test(a));
    if (acts.length === 1) {
      // the seat's only move (Bob's declared Four, led as the extra trick): the room plays it
      // for the player after a moment (room.js playOnlyMove); tapping its cards races it
      await h.waitState(page, (s, seq) => s.seq !== seq || s.over, st.seq);
      log.push(`${name}: ${acts[0]} (played by the room)`);
      return log[log.length - 1];
    }
    if (cardActs.length) {
      // the group to play: a preferred one if legal, else the first listed
      // (a lay: the last listed, the weakest cards, so Ann keeps her General for the illegal lead)
      const pick = prefer.map((p) => cardActs.find((a) => a.startsWith(p))).find(Boolean) || (cardActs[0].startsWith('lay') ? cardActs[cardActs.length - 1] : cardActs[0]);
      const cards = pick.split(' ').slice(1);
      for (const c of cards) {
        const card = page.locator(`.tc-hand g.tc-card[data-card="${c}"]:not(.tc-selected)`).first();
        if (name === 'Ann' && pick.startsWith('lay')) {
          // by keyboard: focus, Space (the card keeps the focus)
          await card.focus();
          await page.keyboard.press('Space');
          h.check(await page.evaluate(() => document.activeElement && document.activeElement.classList.contains('tc-selected')), 'Space selects the focused card');
        } else await card.click();
      }
      const play = page.locator('#tc-play');
      h.check(!(await play.isDisabled()), `${name}: the play button is enabled for ${pick}`);
      h.check((await play.getAttribute('data-action')) === pick || (await play.getAttribute('data-action')).split(' ').slice(1).sort().join() === cards.slice().sort().join(), `${name}: the button plays ${pick}`);
      await play.click();
      log.push(`${name}: ${pick}`);
    } else {
      const pick = prefer.map((p) => acts.find((a) => a.startsWith(p))).find(Boolean) || acts[0];
      await page.locator(`.tc-actions button[data-action="${pick}"]`).click();
      log.push(`${name}: ${pick}`);
    }
    await h.waitState(page, (s, seq) => s.seq !== seq || s.over, st.seq);
    return log[log.length - 1];
  }

  let spectatorChecked = false;
  let shotsTaken = false;
  let illegalDone = false;
  let reloaded = false;
  async function spectatorCheck() {
    const st = await h.state(eve);
    h.check(!('hand' in st.view), 'the spectator’s view has no hand');
    h.check((await eve.locator('[data-zone="hand"], .tc-own-down, [data-zone^="own"], [data-zone="trick-own"]').count()) === 0, 'no hand and no own face-down cards in the spectator’s DOM');
    const f = await faces(eve);
    const allowed = new Set(['trick-up', 'last', 'won', 'discard', 'counting', 'tricks']);
    for (const z of Object.keys(f)) h.check(allowed.has(z), 'a card face in zone ' + z + ' of the spectator’s page');
    const wonAll = (st.view.won || []).flat();
    for (const c of f.tricks || []) {
      const k = wonAll.indexOf(c);
      h.check(k >= 0, `the spectator's trick list shows ${c}, not in a won pile`);
      wonAll.splice(k, 1);
    }
    delete f.tricks;
    const shown = Object.values(f).flat();
    const pub = publicCards(st.view);
    for (const c of shown) {
      const k = pub.indexOf(c);
      h.check(k >= 0, `the spectator’s page shows ${c}, which its view does not make public`);
      pub.splice(k, 1);
    }
  }

  await h.step('Bob declares his Four black Soldiers with the declaration button', async () => {
    for (let i = 0; i < 40; i++) {
      const [a, b] = [await h.state(ann), await h.state(bob)];
      if (b.legal.some((x) => x.action === 'declare four')) {
        const btn = bob.locator('.tc-actions button[data-action="declare four"]');
        const text = await btn.locator('.tc-long').textContent();
        const f = b.legal.find((x) => x.action === 'declare four').fields;
        h.check(f && f.verb === 'declare' && f.size === 'four' && f.colour === 'black' && f.counter === false, 'the action’s fields: ' + JSON.stringify(f));
        h.check(text === 'Объявить: четыре чёрных солдата', 'the button is worded from the fields, in Russian: ' + text);
        await move(bob, 'Bob', ['declare four']);
        break;
      }
      if (a.legal.length) await move(ann, 'Ann');
      else if (b.legal.length) await move(bob, 'Bob');
      else await ann.waitForTimeout(50);
    }
    const st = await h.waitState(ann, (s) => s.view.declarations.length > 0);
    h.check(st.view.declarations[0].seat === 1 && st.view.declarations[0].size === 'four', 'the declaration is in the view');
    await ann.locator('.tc-decl li').first().waitFor();
  });

  await h.step('the whole deal is played through the table', async () => {
    for (let i = 0; i < 300; i++) {
      const [a, b] = [await h.state(ann), await h.state(bob)];
      if (a.over && b.over) break;
      const v = a.view;
      const personActs = (v.actors || []).some((s) => s === 0 || s === 1);
      // the first ordinary trick, Ann to lead under the ban: the General is dimmed, an illegal lead is refused
      if (!illegalDone && a.legal.some((x) => x.action.startsWith('lead ')) && v.trick && v.trick.kind === 'ordinary' && v.trick.ban) {
        await h.step('an illegal lead (the General under the first-trick ban) is explained and changes nothing', async () => {
          const rg = ann.locator('.tc-hand g.tc-card[data-card="rG"]');
          h.check((await rg.getAttribute('aria-disabled')) === 'true', 'the General cannot be tapped');
          await rg.click({ force: true });
          h.check((await ann.locator('.tc-hand .tc-selected').count()) === 0, 'tapping it selects nothing');
          await h.act(ann, 'lead rG');
          // told by the table next to the hand, in words (issue 31 §4: the room adds no note of its own)
          const err = ann.locator('.tc-refusal');
          await err.waitFor();
          const text = await err.textContent();
          h.check(text.length > 25 && !/rG|TC-R|illegal/.test(text), 'an explanation in words: ' + text);
          h.check((await ann.locator('.note.error').count()) === 0, 'no note of the room beside it');
          const after = await h.state(ann);
          h.check(after.seq === a.seq && JSON.stringify(after.view) === JSON.stringify(a.view), 'nothing changed');
        });
        illegalDone = true;
      }
      // a trick with face-down cards on the table: the spectator sees backs only
      if (!spectatorChecked && v.trick && (v.trick.lays || []).some((l) => l.state === 'down') && v.stage === 'reveal' && personActs) {
        await h.step('the spectator sees backs and no hidden face', async () => {
          await h.waitState(eve, (s, seq) => s.seq >= seq, a.seq);
          await eve.locator('[data-zone="trick-down"] [data-back]').first().waitFor();
          await spectatorCheck();
        });
        spectatorChecked = true;
      }
      if (!shotsTaken && v.stage === 'reveal' && v.last_trick && personActs) {
        await h.step('the table fits (phone, desktop, spectator) and screenshots', async () => {
          await h.waitState(bob, (s, seq) => s.seq >= seq, a.seq);
          await bob.waitForTimeout(100);
          h.expectLayout(await h.layout(ann, { root: '#table' }), 'desktop');
          h.expectLayout(await h.layout(bob), 'phone');
          h.expectLayout(await h.layout(eve), 'spectator phone');
          await h.shot(ann, 'desktop');
          await h.shot(bob, 'phone');
          await h.shot(eve, 'spectator-phone');
        });
        shotsTaken = true;
      }
      if (!reloaded && illegalDone && v.last_trick && v.trick && v.trick.kind === 'ordinary' && (v.hand || []).length <= 6) {
        await h.step('a reload in the middle rebuilds Bob’s table on his seat', async () => {
          const before = await h.state(bob);
          await bob.reload();
          const st = await h.waitState(bob, (s) => s.seat === 1);
          h.check(st.seq >= before.seq, 'the same game');
          await bob.locator('.tc-hand g.tc-card').first().waitFor();
          h.check((await bob.locator('.tc-hand g.tc-card').count()) === st.view.hand.length, 'the hand is drawn again');
          h.check((await bob.locator('#join-name').count()) === 0, 'no join form');
        });
        reloaded = true;
        continue;
      }
      if (a.legal.length && !a.over) await move(ann, 'Ann', ['reveal', 'lead rE', 'lead']);
      else if (b.legal.length && !b.over) await move(bob, 'Bob', ['reveal']);
      else await ann.waitForTimeout(50);
    }
    const st = await h.waitState(ann, (s) => s.over);
    h.check(illegalDone && reloaded && spectatorChecked && shotsTaken, `every check ran (illegal ${illegalDone}, reload ${reloaded}, spectator ${spectatorChecked}, shots ${shotsTaken})`);
    h.check(st.result && st.result.score.length === 4, 'a result with a score per seat');
    await ann.locator('.result-text').waitFor();
    const lines = await ann.locator('.tc-tricks li').allTextContents();
    h.check(lines.length === 5 && /Bob won the extra trick/.test(lines[0]), 'who won which trick (an extra trick and four): ' + lines.join(' | '));
    // the list is drawn from the `trick` events: each seat's listed cards are its won pile
    const listed = await ann.evaluate(() => [...document.querySelectorAll('.tc-tricks li')].map((li) => ({ winner: Number(li.dataset.winner), cards: [...li.querySelectorAll('[data-card]')].map((c) => c.dataset.card) })));
    const wonBy = st.view.won.map(() => []);
    for (const x of listed) wonBy[x.winner].push(...x.cards);
    for (let i = 0; i < 4; i++) h.check(wonBy[i].slice().sort().join() === st.view.won[i].slice().sort().join(), `seat ${i}: the tricks listed (${wonBy[i]}) are its won pile (${st.view.won[i]})`);
    // what the last action did, worded from its events: the last trick, the deal's scores, the end
    const told = await ann.locator('.tc-happened').textContent();
    h.check(/won the trick with .+\. Deal 1 scores: .*Ann \(you\) \d+ won, base [+-]?\d+, payments [+-]?\d+, deal [+-]?\d+.*The session is over/.test(told), 'Ann is told the last trick, the scores and the end: ' + told);
    await bob.locator('.tc-happened .tc-told').waitFor();
    const toldRu = await bob.locator('.tc-happened').textContent();
    h.check(/Взятку взял\(а\) .+\. Счёт сдачи 1: .*Игра окончена/.test(toldRu), 'Bob is told it in Russian: ' + toldRu);
    await h.waitState(eve, (s) => s.over);
    await eve.locator('.tc-tricks li').nth(4).waitFor();
    const spect = await eve.locator('.tc-tricks li').count();
    h.check(spect === 5, 'the spectator’s trick list (public trick events): ' + spect + ' lines');
    const total = await ann.locator('.tc-score-table tr[data-seat="0"] .tc-total').textContent();
    h.check(Number(total.replace('+', '')) === st.view.score[0], 'the session score on the table: ' + total);
  });

  await h.step('at the end: the spectator still sees no hidden face; the pages fit', async () => {
    await h.waitState(eve, (s) => s.over);
    await spectatorCheck();
    h.expectLayout(await h.layout(bob), 'over, phone');
    await h.shot(bob, 'over-phone');
  });
  console.log('# moves: ' + log.join('; '));
});
