// test_player.mjs — a player's page in the browser (issue 33 §4; web/js/player.js),
// at phone (360×740) and desktop (1366×768) size, against `parlour serve
// --test-fast-hash`: a new account's menu links to its page, which says it has
// no ratings and no games yet; a page with ratings, a history and games (the
// server's answer replaced by a fixed one, so the drawing is what is tested)
// shows the pool in words, a chart with a point per game, each game's result in
// words and its replay link; an unknown name says so. No missing words, axe clean.

import { run } from './harness.mjs';
import en from '../../web/i18n/en.js';

const FIXED = {
  name: 'Fixture',
  ratings: [{ pool: 'ur/skiryuk', rating: 1662.3, rd: 290.2, games: 2 }],
  history: { 'ur/skiryuk': [{ at_ms: 1764800000000, rating: 1600.1, rd: 300 }, { at_ms: 1764900000000, rating: 1662.3, rd: 290.2 }] },
  games: [
    { room: 'abc123', game: 'ur', finished_ms: 1764900000000, result: 'won', rated: true, opponents: ['Bob'] },
    { room: 'def456', game: 'ur', finished_ms: 1764800000000, result: 'lost', rated: false, opponents: [] },
  ],
};

run('player', async (h) => {
  for (const size of ['phone', 'desktop']) {
    const name = size === 'phone' ? 'Pat Phone' : 'Pat Desktop';
    const page = await h.page(size, { lang: 'en' });
    await h.step(`the menu links to one's own page, empty at first (${size})`, async () => {
      await page.goto(h.url('/'));
      const st = await page.evaluate(async (n) => (await fetch('/api/account/signup', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
        body: JSON.stringify({ name: n, password: 'correct horse' }),
      })).status, name);
      h.check(st === 200, 'signed up: ' + st);
      await page.reload();
      await page.locator('#acct-me').click();
      await page.locator('#acct-page').click();
      await page.waitForURL('**/player/' + encodeURIComponent(name));
      await page.locator('#player-name').waitFor();
      h.check((await page.locator('#player-name').innerText()) === name, 'the page names the player');
      await page.locator('#player-no-ratings').waitFor();
      await page.locator('#player-no-games').waitFor();
      h.expectLayout(await h.layout(page), 'an empty page');
      await h.expectAxeClean(page, 'an empty page');
      h.check((await h.missingKeys(page)).length === 0, 'no missing words');
    });
    await h.step(`ratings, a chart and games with replay links (${size})`, async () => {
      await page.route('**/api/player/**', (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(FIXED) }));
      await page.goto(h.url('/player/Fixture'));
      await page.locator('#player-ratings li').waitFor();
      const r = await page.locator('#player-ratings li').innerText();
      h.check(r.includes(en['playnow.pool.ur.skiryuk']) && r.includes('1662'), 'the pool in words and the rating: ' + r);
      h.check((await page.locator('#player-ratings svg.player-chart circle').count()) === 2, 'a point per game');
      h.check((await page.locator('#player-ratings svg.player-chart').getAttribute('role')) === 'img', 'the chart is an image');
      const games = page.locator('#player-games li');
      h.check((await games.count()) === 2, 'two games');
      const g0 = await games.nth(0).innerText(), g1 = await games.nth(1).innerText();
      h.check(g0.includes(en['player.result.won']) && g0.includes('Bob') && g0.includes(en['player.rated']), 'a rated win: ' + g0);
      h.check(g1.includes(en['player.result.lost']) && g1.includes(en['player.computer']), 'a loss to the computer: ' + g1);
      h.check((await games.nth(0).locator('a').getAttribute('href')) === '/room/abc123#replay', 'the replay link');
      h.expectLayout(await h.layout(page), 'a full page');
      await h.expectAxeClean(page, 'a full page');
      await h.shot(page, `player-${size}`);
      await page.unroute('**/api/player/**');
    });
    await h.step(`an unknown name (${size})`, async () => {
      await page.goto(h.url('/player/Nobody%20Here'));
      await page.locator('#player-unknown').waitFor();
      h.check((await page.locator('#player-unknown').innerText()) === en['player.unknown'], 'it says so');
      h.check((await h.missingKeys(page)).length === 0, 'no missing words');
    });
    await page.context().close();
  }
}, { extra: ['--test-fast-hash'] });
