// test_review.mjs — the review of an Ur game in the browser (issue 34 §1;
// web/js/review.js, docs/review.md). A two-piece game of two computers under
// a table the fixture solves (`parlour solve ur pieces=2 start=light --out`,
// served with `serve --table`): the room's "Review" link opens the replay
// with the review asked at once; it says "exact", draws the chart (SVG),
// lists each side's accuracy, luck and skill and every decision with its
// class; a decision clicked steps the replay to its position and shows the
// best move on the board with its chance. At 360x740 and 1366x768, in words
// (no notation). A seven-piece game (no table holds it) is reviewed as an
// estimate, said so, and in Russian with no English. The puzzles page
// (/#puzzles, from the review's link; web/puzzles/ur.json): a move played,
// the answer told with every move's chance.

import { run, config } from './harness.mjs';
import { mkdtempSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';

const table = path.join(mkdtempSync(path.join(tmpdir(), 'parlour-review-')), 's2.tbl');
const solved = spawnSync(config.parlour, ['solve', 'ur', 'pieces=2', 'start=light', '--quiet', '--out', table], { encoding: 'utf8', timeout: 300000 });
if (solved.status !== 0) throw new Error('parlour solve: ' + solved.stderr);

/** Notation the review's words must never show (the moves are the game's own words,
 * as the room's move list says them: squares by their names, A4 → B1). */
const NOTATION = [/\broll \d/, /Seat \d+:/, /\benter\b(?! )/, /review\./];
const AI = { kind: 'ai', level: 'easy' };

run('review', async (h) => {
  for (const size of ['phone', 'desktop']) {
    const page = await h.page(size, { lang: 'en' });
    let room;
    await h.step(`${size}: a two-piece game of two computers plays to the end`, async () => {
      await page.goto(h.url('/'));
      ({ room } = await h.createRoom(page, { game: 'ur', options: { pieces: '2', start: 'light' }, seats: [AI, AI] }));
      await page.goto(h.url('/room/' + room));
      await h.waitState(page, (st) => st.over, undefined, 120000);
    });
    await h.step(`${size}: the room's Review link opens the exact review`, async () => {
      await page.click('#review-link');
      await page.locator('#review-source').waitFor({ timeout: 120000 });
      const source = await page.locator('#review-source').innerText();
      h.check(/Exact chances/.test(source), 'exact: ' + source);
      h.check(await page.locator('#review-chart polyline').count() === 1, 'the chart');
      const seats = await page.locator('#review-seats li').allInnerTexts();
      h.check(seats.length === 2 && seats.every((s) => /accuracy [0-9.]+ %/.test(s) && /The throws gave/.test(s)), 'both sides: ' + seats.join(' | '));
      const moves = await page.locator('#review-moves li').allInnerTexts();
      h.check(moves.length > 3, 'the decisions: ' + moves.length);
      const text = await page.locator('#review').innerText();
      const bad = NOTATION.filter((re) => re.test(text));
      h.check(!bad.length, `no notation (${bad.join(' ')}): ${text.slice(0, 400)}`);
      h.expectLayout(await h.layout(page), 'review ' + size);
      await h.shot(page, 'exact-' + size);
    });
    await h.step(`${size}: a decision clicked shows its position with the best move`, async () => {
      const item = page.locator('#review-moves li:not([data-cls="best"]) button').first();
      const has = await item.count();
      const target = has ? item : page.locator('#review-moves li button').first();
      await target.click();
      const r = await page.evaluate(() => {
        const R = window.__parlour.page.replay;
        return { i: R.i, pick: R.pick };
      });
      h.check(r.pick && r.i === r.pick.index && r.pick.legal.length >= 1 && typeof r.pick.legal[0].chance === 'number', 'stepped to the decision: ' + JSON.stringify(r));
      await page.waitForFunction(() => /\d+(\.\d)? ?%/.test(document.getElementById('table').textContent), undefined, { timeout: 20000 });
      h.check(await page.locator('#review-moves li.now').count() === 1, 'the decision marked');
      await h.shot(page, 'pick-' + size);
    });
    await h.step(`${size}: a puzzle from the review's link: a move played, the answer told with the chances`, async () => {
      await page.click('#review-puzzles');
      await page.locator('#puzzles-ask').waitFor();
      const ask = await page.locator('#puzzles-ask').innerText();
      h.check(/to move, after a throw of \d/.test(ask), 'the question: ' + ask);
      const first = page.locator('#puzzles .ur-mv').first();
      await first.click();
      await first.click(); // chosen, then played
      await page.locator('#puzzles-result').waitFor();
      const res = await page.locator('#puzzles-result').innerText();
      h.check(/^(Right: .* is the best move \(\d+\.\d % to win\)\.|Not the best: .* gives \d+\.\d % to win; the best was .*)$/.test(res), 'the answer: ' + res);
      await page.waitForFunction(() => /\d+\.\d+ ?%/.test(document.getElementById('table').textContent), undefined, { timeout: 20000 });
      h.check(/of 1$/.test(await page.locator('#puzzles-count').innerText()), 'one done');
      h.expectLayout(await h.layout(page), 'puzzles ' + size);
      await h.shot(page, 'puzzle-' + size);
      await page.click('#puzzles-next');
      h.check(/^Puzzle 2 of \d+/.test(await page.locator('#puzzles-count').innerText()), 'the next puzzle');
    });
    h.check((await h.missingKeys(page)).length === 0, 'no missing keys');
  }

  const page = await h.page('desktop', { lang: 'ru' });
  await h.step('a seven-piece game is reviewed as an estimate, in Russian', async () => {
    await page.goto(h.url('/'));
    const { room } = await h.createRoom(page, { game: 'ur', seats: [AI, AI] });
    await page.goto(h.url('/room/' + room));
    await h.waitState(page, (st) => st.over, undefined, 300000);
    await page.goto(h.url('/room/' + room + '#replay-review'));
    await page.locator('#review-source').waitFor({ timeout: 300000 });
    const source = await page.locator('#review-source').innerText();
    h.check(/Оценка шансов/.test(source) && /1000/.test(source), 'an estimate: ' + source);
    const text = await page.locator('#review').innerText();
    h.check(!/\b(the|accuracy|Action|Best|throws)\b/.test(text), 'no English on a Russian page: ' + text.slice(0, 300));
    h.check(await page.locator('#review-moves li').count() > 10, 'the decisions of a whole game');
    await h.shot(page, 'estimate-ru-desktop');
  });
}, { extra: ['--table', table] });
