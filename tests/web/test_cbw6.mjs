// test_cbw6.mjs — City Behind Walls with six seats (players=6, CBW-R1) in a
// real browser: Ann (seat 0, Red) on a 360 px phone in Russian, Bob (seat 1,
// Black) on a desktop, four computer seats (easy, the fastest level) for the
// rest. The whole game through the tables (a hand card tapped, then a lit
// cell; Pass when nothing can be placed); the six seats drawn with their
// teams, three a team; the layout checked on both pages in the middle and at
// the end (the board scrolls inside its own box, never the page);
// screenshots cbw6-phone, -desktop, -over-phone, -over-desktop.

import { run } from './harness.mjs';

run('cbw6', async (h) => {
  const ann = await h.page('phone', { lang: 'ru' });
  const bob = await h.page('desktop');
  const placed = [0, 0];

  const checkTables = async (what) => {
    await h.step(`the tables fit (${what}: phone in Russian, desktop)`, async () => {
      for (const page of [ann, bob]) {
        h.check((await page.locator('.cbw-seat').count()) === 6, 'six seats drawn');
        h.check((await page.locator('.cbw-seat.team0').count()) === 3 && (await page.locator('.cbw-seat.team1').count()) === 3, 'three seats a team');
      }
      h.check(!(await ann.locator('details.invite-box').evaluate((d) => d.open)), 'the invitation (opened while Ann waited) folded once everyone came');
      const st = await h.state(ann);
      h.check(JSON.stringify(st.view.teams) === JSON.stringify([0, 1, 0, 1, 0, 1]), 'the teams of the view: ' + JSON.stringify(st.view.teams));
      h.expectLayout(await h.layout(ann), what + ', phone');
      h.expectLayout(await h.layout(bob), what + ', desktop');
      const pre = what === 'over' ? 'over-' : '';
      await h.shot(ann, pre + 'phone');
      await h.shot(bob, pre + 'desktop');
    });
  };

  await h.step('a room of six: two persons, four computers (easy)', async () => {
    await bob.goto(h.url('/'));
    const seats = [{ kind: 'person' }, { kind: 'person' }];
    for (let i = 0; i < 4; i++) seats.push({ kind: 'ai', level: 'easy' });
    const { room } = await h.createRoom(bob, { game: 'cbw', options: { players: '6' }, seats });
    h.check((await h.join(ann, room, 'Ann')) === 0, 'Ann has seat 0');
    h.check((await h.join(bob, room, 'Bob')) === 1, 'Bob has seat 1');
    const st = await h.waitState(ann, (s) => s.status === 'playing' && s.view && Array.isArray(s.view.hand) && s.view.hand.length > 0);
    h.check(st.seats.length === 6, 'six seats in the room');
    await ann.locator('.cbw-hcard').first().waitFor();
    h.check((await ann.locator('.cbw-hcard').count()) === st.view.hand.length, 'Ann’s hand drawn: ' + st.view.hand.length + ' cards');
  });

  /** One move of a person through the table: a card on a lit cell, or Pass. */
  async function play(page, who, st) {
    // the legal placements from their fields (docs/web-views.md, cbw "Action fields")
    const moves = st.legal.filter((a) => a.fields && a.fields.move === 'place').map((a) => a.fields);
    if (moves.length) {
      const { card, x, y } = moves[(placed[who] * 7) % moves.length];
      await page.locator(`.cbw-hcard[data-card="${card}"]`).click();
      await page.locator(`.cbw-target[data-x="${x}"][data-y="${y}"]`).click();
      placed[who]++;
    } else await page.locator('button.cbw-pass').click();
    await h.waitState(page, (s, seq) => s.seq !== seq || s.over, st.seq);
  }

  let mid = false;
  await h.step('the whole game through the tables', async () => {
    for (let i = 0; i < 400; i++) {
      const [a, b] = [await h.state(ann), await h.state(bob)];
      if (a.over && b.over) break;
      if (!mid && a.view.table.length >= 8 && a.seq === b.seq) {
        await checkTables('mid-game');
        mid = true;
      }
      if (a.legal.length && !a.over) await play(ann, 0, a);
      else if (b.legal.length && !b.over) await play(bob, 1, b);
      else await ann.waitForTimeout(40);
    }
    const st = await h.waitState(ann, (s) => s.over);
    await h.waitState(bob, (s) => s.over);
    h.check(mid, 'the mid-game checks ran');
    h.check(placed[0] > 0 && placed[1] > 0, `both persons placed cards (${placed})`);
    h.check(st.result && st.result.score.length === 6, 'a result with a score by seat');
    const rt = await bob.locator('.result-text').textContent();
    h.check(st.result.winner === null || st.result.kind === 'draw' || new RegExp(['Red', 'Black'][st.result.winner]).test(rt), 'the result names the team: ' + rt);
    await ann.locator('.result-text').waitFor();
  });

  await checkTables('over');
  console.log(`# cards placed: Ann ${placed[0]}, Bob ${placed[1]}`);
});
