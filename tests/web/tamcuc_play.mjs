// tamcuc_play.mjs — a whole Tam Cúc game with fewer than four players, played
// through the table's UI (web/games/tamcuc.js), shared by test_tamcuc2.mjs and
// test_tamcuc3.mjs: Ann on a 360 px phone in Russian, Bob on a desktop in
// English, a computer seat (easy, the fastest level) for the rest. Each plays
// the first eight moves through the table (taps, buttons), the rest as the
// table's api.act sends them (keeps the 2-player game near a minute). On the way
// and at the end: the table laid out right on both (the harness's layout
// check), one score row and one won pile a seat, no word of the score table
// broken inside on the phone (TC-R8 scores: "Взято", not "Взят/о"), and
// screenshots `tamcuc{N}-phone`, `-desktop`, `-over-phone`, `-over-desktop`.

/** Words of `sel`'s text that the page breaks over two lines (runs in the page). */
function brokenWordsInPage(sel) {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const re = /\S+/g;
      for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const lines = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}

/** Plays one move of `page` through the table (taps and buttons), or with
 * `quick` as the table's api.act sends it; returns its action or null. */
async function move(h, page, quick = false) {
  const st = await h.state(page);
  if (!st || st.over || !st.legal.length) return null;
  const acts = st.legal.map((a) => a.action);
  const cardActs = acts.filter((a) => /^(lead|lay|pass) /.test(a));
  let pick;
  if (quick) {
    pick = cardActs.length ? (cardActs[0].startsWith('lead') ? cardActs[0] : cardActs[cardActs.length - 1]) : acts.find((a) => a.startsWith('reveal')) || acts[0];
    await h.act(page, pick);
  } else if (cardActs.length) {
    // a lead: the first listed; a lay or pass: the last listed (the weakest cards)
    pick = cardActs[0].startsWith('lead') ? cardActs[0] : cardActs[cardActs.length - 1];
    for (const c of pick.split(' ').slice(1)) await page.locator(`.tc-hand g.tc-card[data-card="${c}"]:not(.tc-selected)`).first().click();
    const play = page.locator('#tc-play');
    h.check(!(await play.isDisabled()), `the play button is enabled for ${pick}`);
    await play.click();
  } else {
    pick = acts.find((a) => a.startsWith('reveal')) || acts[0];
    await page.locator(`.tc-actions button[data-action="${pick}"]`).click();
  }
  await h.waitState(page, (s, seq) => s.seq !== seq || s.over, st.seq);
  return pick;
}

/** The whole game with `players` seats (2 or 3). */
export async function playWhole(h, players) {
  const name = 'tamcuc' + players;
  const ann = await h.page('phone', { lang: 'ru' });
  const bob = await h.page('desktop');
  const seats = [{ kind: 'person' }, { kind: 'person' }];
  if (players === 3) seats.push({ kind: 'ai', level: 'easy' });
  let moves = 0;

  const checkTables = async (what) => {
    await h.step(`the tables fit (${what}: phone in Russian, desktop)`, async () => {
      const [a, b] = [await h.state(ann), await h.state(bob)];
      for (const [page, st] of [[ann, a], [bob, b]]) {
        h.check((await page.locator('.tc-score-table tbody tr').count()) === players, `${players} score rows`);
        h.check(st.view.seats === players && st.view.score.length === players, `the view has ${players} seats`);
      }
      h.expectLayout(await h.layout(ann), what + ', phone');
      h.expectLayout(await h.layout(bob, { root: '#table' }), what + ', desktop');
      const broken = await ann.evaluate(brokenWordsInPage, '.tc-score-table');
      h.check(broken.length === 0, 'no word of the score table broken over two lines at 360 px: ' + broken.join(', '));
      const head = await ann.locator('.tc-score-table thead th').allTextContents();
      h.check(head.includes('Взято') && head.includes('Всего'), 'the Russian headings: ' + head.join(' | '));
      await h.shot(ann, (what === 'over' ? 'over-' : '') + 'phone');
      await h.shot(bob, (what === 'over' ? 'over-' : '') + 'desktop');
    });
  };

  await h.step(`a room of ${players}: Ann (phone, ru), Bob (desktop)${players === 3 ? ', a computer (easy)' : ''}`, async () => {
    await bob.goto(h.url('/'));
    const { room } = await h.createRoom(bob, { game: 'tamcuc', options: { players: String(players) }, seats });
    h.check((await h.join(ann, room, 'Ann')) === 0, 'Ann has seat 0');
    h.check((await h.join(bob, room, 'Bob')) === 1, 'Bob has seat 1');
    await h.waitState(ann, (st) => st.status === 'playing' && st.view && st.view.hand && st.view.hand.length > 0);
    await ann.locator('.tc-hand g.tc-card').first().waitFor();
    const st = await h.state(ann);
    h.check((await ann.locator('.tc-hand g.tc-card').count()) === st.view.hand.length, 'Ann’s hand drawn: ' + st.view.hand.length + ' cards');
  });

  let shotMid = false;
  let annMoves = 0, bobMoves = 0;
  await h.step('the whole game through the tables', async () => {
    for (let i = 0; i < 400; i++) {
      const [a, b] = [await h.state(ann), await h.state(bob)];
      if (a.over && b.over) break;
      if (!shotMid && a.view.last_trick && a.seq === b.seq) {
        await checkTables('mid-game');
        shotMid = true;
      }
      let did = null;
      // each through the table for the first eight moves, then as the
      // table's api.act sends them (a 2-player game is long)
      if (a.legal.length && !a.over) {
        did = await move(h, ann, annMoves >= 8);
        if (did) annMoves++;
      } else if (b.legal.length && !b.over) {
        did = await move(h, bob, bobMoves >= 8);
        if (did) bobMoves++;
      }
      if (did) moves++;
      else await ann.waitForTimeout(40);
    }
    const st = await h.waitState(ann, (s) => s.over);
    await h.waitState(bob, (s) => s.over);
    h.check(shotMid, 'the mid-game checks ran');
    h.check(st.result && st.result.score.length === players, 'a result with a score per seat');
    await ann.locator('.result-text').waitFor();
    await bob.locator('.result-text').waitFor();
    h.check((await bob.locator('.tc-hand g.tc-card').count()) === 0 || st.view.hand.length > 0, 'no hand left to play');
  });

  await checkTables('over');
  console.log(`# ${name}: ${moves} moves by the persons`);
}
