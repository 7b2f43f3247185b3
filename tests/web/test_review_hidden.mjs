// test_review_hidden.mjs — the review of a finished Tam Cúc or City Behind Walls game in the
// replay page (issue 34 §5; web/js/review_hidden.js, docs/hints.md "Reviews of hidden-card
// games"): a game of four computers plays to the end; the room's Review link (Tam Cúc) opens the
// replay with the review asked at once, or /room/CODE#replay shows a "Review" button (City
// Behind Walls); asked, the server's worker answers with the decisions where the strongest player, from the
// decider's own view, would have chosen otherwise: the page says they are estimates from each
// player's own view, counts each seat's differing decisions and lists them in the game's words
// (no notation); a decision clicked steps the replay to it; Ur's panel stays hidden. Tam Cúc at
// 360x740 in Vietnamese, City Behind Walls at 1366x768 in English.

import { run } from './harness.mjs';

const AI = { kind: 'ai', level: 'easy' };
const CASES = [
  { game: 'tamcuc', size: 'phone', lang: 'vi', options: { players: '4' }, seats: [AI, AI, AI, AI], words: /Xem lại: những chỗ máy mạnh nhất sẽ chọn khác/, link: true },
  { game: 'cbw', size: 'desktop', lang: 'en', options: { w: '5', h: '5' }, seats: [AI, AI, AI, AI], words: /where the strongest player would have chosen otherwise/ },
];
// notation a player never reads: Tam Cúc's verbs and card codes, CBW's CARD@X,Y
const NOTATION = [/\b(lead|lay|nodeclare) [rb][A-Z]/, /\b[rb][GACHEN S]\b/, /[0-9JQKA][CDHS]@-?\d/, /reviewh?\./];

run('review_hidden', async (h) => {
  for (const c of CASES) {
    const where = `${c.game} ${c.size} ${c.lang}`;
    const page = await h.page(c.size, { lang: c.lang });
    let room;
    await h.step(`${where}: a game of four computers plays to the end`, async () => {
      await page.goto(h.url('/'));
      ({ room } = await h.createRoom(page, { game: c.game, options: c.options, seats: c.seats }));
      await page.goto(h.url('/room/' + room));
      await h.waitState(page, (st) => st.over, undefined, 180000);
    });
    await h.step(`${where}: the replay's review from each player's view`, async () => {
      if (c.link) { // the room's Review link: the review asked at once
        await page.click('#review-link');
      } else {
        await page.goto(h.url('/room/' + room + '#replay'));
        await page.locator('#reviewh-ask').waitFor({ timeout: 60000 });
        await page.click('#reviewh-ask');
      }
      await page.locator('#reviewh-seats').waitFor({ timeout: 120000 });
      h.check(await page.locator('#review').isHidden(), 'Ur\'s review panel is hidden');
      await page.locator('#reviewh-source').waitFor({ timeout: 120000 });
      const text = await page.locator('#review-hidden').innerText();
      h.check(c.words.test(text), `${where}: the title in the page's language: ${text.slice(0, 200)}`);
      const seats = await page.locator('#reviewh-seats li').allInnerTexts();
      h.check(seats.length === 4, `${where}: four seats counted: ${seats.join(' | ')}`);
      const moves = await page.locator('#reviewh-moves li').allInnerTexts();
      h.check(moves.length >= 1 && moves.every((m) => /\d+\.\d %/.test(m)), `${where}: decisions listed with estimates: ${moves.slice(0, 3).join(' | ')}`);
      const bad = NOTATION.filter((re) => re.test(text));
      h.check(!bad.length, `${where}: no notation (${bad.join(' ')}): ${text.slice(0, 600)}`);
      if (c.lang !== 'en') h.check(!/\b(played|strongest|decisions)\b/.test(text), `${where}: no English: ${text.slice(0, 300)}`);
      h.expectLayout(await h.layout(page), where);
      await h.shot(page, `${c.game}-${c.size}`);
    });
    await h.step(`${where}: a decision clicked steps the replay there`, async () => {
      await page.locator('#reviewh-moves li button').first().click();
      const want = await page.evaluate(() => document.querySelector('#reviewh-moves li.now') !== null);
      h.check(want, 'the decision is marked');
      const i = await page.evaluate(() => window.__parlour.page.replay.i);
      h.check(typeof i === 'number' && i > 0, `${where}: the replay stepped to the decision (${i})`);
    });
  }
});
