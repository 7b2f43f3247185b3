// test_review_upload.mjs — the review of a record the player uploads on the replay page
// (issue 34; /#replay, web/js/replay.js with js/review.js and js/review_hidden.js; the server's
// `replay_part` with `review: true`, docs/web-protocol.md "Reviews"): an Ur record (two pieces,
// tests/records) chosen as a file shows its steps, then the review button asks for its review,
// which the page shows as an estimate with each side's accuracy and the decisions in words; a
// decision clicked steps the replay there. A Tam Cúc record then gets the hidden-card review
// (from each player's own view), Ur's panel hidden. 1366x768 in English, 360x740 in Russian.
// City Behind Walls' moves are said whole: the card and where it went (issue 34).

import { run, config } from './harness.mjs';
import path from 'node:path';

const RECORDS = () => path.join(config.source, 'tests', 'records');
const CASES = [
  { size: 'desktop', lang: 'en', estimate: /estimate/i, hidden: /own view/i },
  { size: 'phone', lang: 'ru', estimate: /оценк/i, hidden: /карт/i },
];
// notation a player never reads
const NOTATION = [/\broll \d/, /Seat \d+:/, /\b[rb][GAERHCS]\b/, /reviewh?\./];

run('review_upload', async (h) => {
  for (const c of CASES) {
    const where = `${c.size} ${c.lang}`;
    const page = await h.page(c.size, { lang: c.lang });
    await h.step(`${where}: an uploaded Ur record is reviewed`, async () => {
      await page.goto(h.url('/#replay'));
      await page.setInputFiles('#replay-file', path.join(RECORDS(), 'ur_review_two_pieces.json'));
      await page.waitForFunction(() => window.__parlour.page.replay.views);
      await page.locator('#review-ask').waitFor({ timeout: 30000 });
      await page.click('#review-ask');
      await page.locator('#review-source').waitFor({ timeout: 180000 });
      const text = await page.locator('#review').innerText();
      h.check(c.estimate.test(await page.locator('#review-source').innerText()), `${where}: labelled an estimate`);
      const seats = await page.locator('#review-seats li').allInnerTexts();
      h.check(seats.length === 2 && seats.every((s) => /\d+\.\d/.test(s)), `${where}: both sides' accuracy: ${seats.join(' | ')}`);
      const moves = await page.locator('#review-moves li').count();
      h.check(moves === 33, `${where}: the record's 33 decisions listed (${moves})`);
      const bad = NOTATION.filter((re) => re.test(text));
      h.check(!bad.length, `${where}: no notation (${bad.join(' ')}): ${text.slice(0, 400)}`);
      h.check(await page.locator('#review-hidden').isHidden(), 'the hidden-card panel is hidden for Ur');
      h.expectLayout(await h.layout(page), where);
      await h.shot(page, `ur-${c.size}`);
    });
    await h.step(`${where}: a decision clicked steps the replay there`, async () => {
      await page.locator('#review-moves li button').nth(6).click();
      const i = await page.evaluate(() => window.__parlour.page.replay.i);
      h.check(typeof i === 'number' && i > 0, `${where}: the replay stepped to the decision (${i})`);
    });
    await h.step(`${where}: an uploaded Tam Cúc record gets the review from each player's view`, async () => {
      await page.reload(); // a fresh page for another game's record
      await page.locator('#replay-file').waitFor({ state: 'attached' });
      await page.setInputFiles('#replay-file', path.join(RECORDS(), 'tamcuc_review.json'));
      await page.waitForFunction(() => window.__parlour.page.replay.views && window.__parlour.page.replay.game === 'tamcuc');
      await page.locator('#reviewh-ask').waitFor({ timeout: 30000 });
      h.check(await page.locator('#review').isHidden(), 'Ur\'s panel is hidden for Tam Cúc');
      await page.click('#reviewh-ask');
      await page.locator('#reviewh-source').waitFor({ timeout: 300000 });
      h.check(c.hidden.test(await page.locator('#reviewh-source').innerText()), `${where}: from each player's view`);
      const seats = await page.locator('#reviewh-seats li').count();
      h.check(seats === 4, `${where}: four seats counted (${seats})`);
      const text = await page.locator('#review-hidden').innerText();
      const bad = NOTATION.filter((re) => re.test(text));
      h.check(!bad.length, `${where}: no notation (${bad.join(' ')}): ${text.slice(0, 400)}`);
      h.expectLayout(await h.layout(page), where + ' tamcuc');
      await h.shot(page, `tamcuc-${c.size}`);
    });
  }

  // City Behind Walls: each move said whole, the card and where it went beside the cards of
  // the position it was played in (not the step the replay shows): the first card "in the
  // middle of the empty table", every later one beside a card
  const page = await h.page('desktop', { lang: 'en' });
  await h.step('desktop en: an uploaded City Behind Walls record: the moves said whole', async () => {
    await page.goto(h.url('/#replay'));
    await page.setInputFiles('#replay-file', path.join(RECORDS(), 'cbw_review.json'));
    await page.waitForFunction(() => window.__parlour.page.replay.views && window.__parlour.page.replay.game === 'cbw');
    await page.locator('#reviewh-ask').waitFor({ timeout: 30000 });
    await page.click('#reviewh-ask');
    await page.locator('#reviewh-source').waitFor({ timeout: 300000 });
    const moves = await page.locator('#reviewh-moves li').allInnerTexts();
    h.check(moves.length >= 3, `decisions listed (${moves.length})`);
    const beside = /\b(left of|right of|above|below) (10|[2-9JQKA])[♠♥♦♣]/g;
    const first = moves.filter((m) => /^Action 2,/.test(m));
    h.check(first.every((m) => (m.match(/in the middle of the empty table/g) || []).length === 2), `the first card: ${first.join(' | ')}`);
    const later = moves.filter((m) => !/^Action 2,/.test(m));
    const bad = later.filter((m) => !/\bpass\b/i.test(m) && (m.match(beside) || []).length < 2);
    h.check(later.length > 0 && !bad.length, `every later move beside a card: ${bad.slice(0, 3).join(' | ')}`);
    h.check(!moves.some((m) => /@-?\d/.test(m)), 'no notation');
    await h.shot(page, 'cbw-desktop');
  });
});
