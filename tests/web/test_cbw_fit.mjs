// test_cbw_fit.mjs — City Behind Walls' table on one screen, told in words
// (issue 31 §2-§4), in a real browser: rooms of players=4, players=2 and
// players=6, each on a phone (360×740) and a desktop (1366×768), in English
// and in Russian. After a few moves played through the table: without
// scrolling, the teams, what just happened (the log), the field, the hand,
// Pass and the prompt are in view; the teams name their partners; the last
// card placed is ringed; the log tells the moves in words, where a card went
// by the card beside it, never by coordinates, notation or rule ids. Then a
// tap on a free cell the chosen card may not take: the reason, in the page's
// words, next to that cell and in view; the cell ringed; nothing played
// (players=2: a card of the pile whose turn it is not, told the same way).
// Screenshots cbw-fit-PLAYERS-SIZE-LANG and cbw-fit-refusal-SIZE-LANG.

import { run } from './harness.mjs';

// notation a player must never read: a placement, coordinates, a rule id
const NOTATION = /[0-9JQKA][SHDC]@|-?\d+,-?\d+|CBW-R\d|\bR1\d\b/;
const ENGLISH = /\b(laid|captured|prisoner|wall|cards|computer|pass|the|must|touch)\b/i;

function seatsOf(players) {
  if (players === 2) return [{ kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'partner', of: 0 }, { kind: 'ai', level: 'easy' }];
  return Array.from({ length: players }, (_, i) => (i ? { kind: 'ai', level: 'easy' } : { kind: 'person' }));
}

run('cbw_fit', async (h) => {
  const made = [];
  for (const players of [4, 2, 6])
    for (const size of ['phone', 'desktop'])
      for (const lang of ['en', 'ru']) made.push({ players, size, lang });

  for (const { players, size, lang } of made) {
    const where = `players=${players}, ${size}, ${lang}`;
    const page = await h.page(size, { lang });
    await h.step(`${where}: the table fits one screen`, async () => {
      await page.goto(h.url('/'));
      const { room } = await h.createRoom(page, { game: 'cbw', options: { players: String(players), first: 'red' }, seats: seatsOf(players) });
      h.check((await h.join(page, room, 'Ann')) === 0, 'Ann has seat 0');
      // three placements through the table (a card, then a lit cell)
      let st;
      for (let k = 0; k < 3; k++) {
        st = await h.waitState(page, (s) => s.legal.length > 0 && !s.over);
        const a = st.legal.find((x) => x.fields && x.fields.move === 'place');
        if (!a) break;
        await page.locator(`.cbw-hcard[data-card="${a.fields.card}"]`).click();
        await page.locator(`.cbw-target[data-x="${a.fields.x}"][data-y="${a.fields.y}"]`).click();
        await h.waitState(page, (s, seq) => s.seq !== seq, st.seq);
      }
      st = await h.waitState(page, (s) => s.legal.length > 0 && !s.over);
      await page.locator('.cbw-hint:not(:empty)').waitFor();
      await h.shot(page, `${players}-${size}-${lang}`, { fullPage: false }); // the first screen, as a player sees it
      await h.expectInView(page, {
        teams: '.cbw-teams',
        'what just happened': '.cbw-last',
        field: '.cbw-board',
        hand: '.cbw-pile:not(.idle) .cbw-hand',
        pass: 'button.cbw-pass',
        prompt: '.cbw-hint',
      }, where);
      // the whole field in its box (scaled to fit) unless its cards would be smaller than a finger
      const fits = await page.$eval('.cbw-board', (el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);
      const cardPx = await page.$eval('.cbw-board .cbw-on .cbw-paper', (el) => el.getBoundingClientRect().width);
      h.check(fits || cardPx >= 36, `the field fits its box, or its cards are a finger wide (${Math.round(cardPx)} px)`);
      // the teams say who plays with whom
      const team0 = await page.locator('.cbw-team.team0').getAttribute('aria-label');
      h.check((await page.locator('.cbw-team.team0 .cbw-seat').count()) === (players === 6 ? 3 : 2), 'the Red row lists its seats');
      h.check(team0.includes('Ann') && (players === 2 ? /2nd pile|вторая стопка/.test(team0) : /3/.test(team0)), 'Red names its partners: ' + team0);
      // the last placement ringed on the field
      const last = [...st.view.history].reverse().find((e) => e.move === 'place');
      if (last) h.check((await page.locator(`.cbw-lastcard[data-x="${last.x}"][data-y="${last.y}"]`).count()) === 1, 'the last card placed is ringed');
      // the log: moves in words, in the page's language, no notation
      const log = await page.locator('.cbw-news').textContent();
      const mine = (await page.locator('.cbw-news p').count());
      h.check(mine >= 2, `a log of the last moves (${mine} lines)`);
      h.check(!NOTATION.test(log), 'the log has no notation: ' + log);
      if (lang === 'ru') h.check(!ENGLISH.test(log), 'no English in the Russian log: ' + log);
      const table = await page.locator('.cbw').evaluate((el) => el.innerText);
      h.check(!NOTATION.test(table), 'the table shows no notation: ' + (table.match(NOTATION) || [''])[0]);
    });

    if (players === 2) {
      await h.step(`${where}: a card of the pile that does not act, told at the cell`, async () => {
        const st = await h.state(page);
        const acting = st.legal[0].seat;
        const idle = acting === st.view.partner_hand.seat ? st.view.hand : st.view.partner_hand.cards;
        await page.locator(`.cbw-pile.idle .cbw-hcard[data-card="${idle[0]}"]`).click();
        await page.locator('.cbw-free').first().click({ force: true }); // aria-disabled (it cannot be played), yet a tap says why
        const text = await page.locator('.cbw-refusal:not([hidden])').textContent();
        h.check(text.includes(idle[0].slice(0, -1)) && !NOTATION.test(text), 'the other pile named: ' + text);
        h.check((await h.state(page)).seq === st.seq, 'nothing sent, nothing played');
      });
    }
    if (players !== 4) {
      await page.context().close();
      continue;
    }
    await h.step(`${where}: a refused tap is told next to the cell`, async () => {
      const st = await h.state(page);
      const free = await page.$$eval('.cbw-free', (els) => els.map((e) => [Number(e.dataset.x), Number(e.dataset.y)]));
      let done = false;
      for (const card of st.view.hand) {
        const ok = new Set(st.legal.filter((a) => a.fields && a.fields.card === card).map((a) => a.fields.x + ',' + a.fields.y));
        const cell = free.find(([x, y]) => !ok.has(x + ',' + y));
        if (!cell) continue;
        await page.locator(`.cbw-hcard[data-card="${card}"]`).click();
        const at = page.locator(`.cbw-free[data-x="${cell[0]}"][data-y="${cell[1]}"]`);
        await at.click({ force: true }); // aria-disabled (it cannot be played), yet a tap says why
        const box = page.locator('.cbw-refusal:not([hidden])');
        await box.waitFor();
        const text = await box.textContent();
        h.check(!NOTATION.test(text) && text.length > 10, 'the reason in words: ' + text);
        if (lang === 'ru') h.check(/[а-я]/.test(text) && !ENGLISH.test(text), 'in Russian: ' + text);
        await h.expectInView(page, { reason: '.cbw-refusal', cell: '.cbw-refused' }, where + ', refused');
        const [r, c] = [await box.boundingBox(), await page.locator('.cbw-refused').boundingBox()];
        const gap = Math.max(0, r.x - (c.x + c.width), c.x - (r.x + r.width)) + Math.max(0, r.y - (c.y + c.height), c.y - (r.y + r.height));
        h.check(gap <= 12, `the reason beside the cell tapped (${Math.round(gap)} px away)`);
        h.check((await h.state(page)).seq === st.seq, 'nothing played');
        await h.shot(page, `refusal-${size}-${lang}`, { fullPage: false });
        // choosing a card again puts the reason away
        await page.locator(`.cbw-hcard[data-card="${card}"]`).click();
        h.check(await page.locator('.cbw-refusal').isHidden(), 'the reason goes with the next choice');
        done = true;
        break;
      }
      h.check(done, 'a card and a cell it may not take');
    });
    await page.context().close();
  }
});
