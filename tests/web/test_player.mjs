// test_player.mjs — a player's page in the browser (issue 33 §4; web/js/player.js),
// at phone (360×740) and desktop (1366×768) size, against `parlour serve
// --test-fast-hash`: a new account's menu links to its page, which says it has
// no ratings and no games yet; a page with ratings, a history and games (the
// server's answer replaced by a fixed one, so the drawing is what is tested)
// shows the pool in words, a chart with a point per game, each game's result in
// words and its replay link; an unknown name says so. No missing words, axe clean.
// Issue 33 §4, finished: one's own page has the switch that makes it private —
// once on, the page says so and another browser is told there is no such player;
// off, it sees it again; the win rates against each computer level in words; the
// older games come with "Older games" (?before=FINISHED_MS), the button gone
// after the last; karuta take times and fouls in words with a chart of each match's
// mean; the same full page in Russian without a missing word.

import { run } from './harness.mjs';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';

const FIXED = {
  name: 'Fixture',
  ratings: [{ pool: 'ur/skiryuk', rating: 1662.3, rd: 290.2, games: 2 }],
  history: { 'ur/skiryuk': [{ at_ms: 1764800000000, rating: 1600.1, rd: 300 }, { at_ms: 1764900000000, rating: 1662.3, rd: 290.2 }] },
  levels: [{ game: 'ur', level: 'easy', games: 4, wins: 3, draws: 0, rate: 0.75 }],
  karuta: { matches: 3, takes: 12, mean_ms: 812.5, median_ms: 790, fouls: 2, fouls_per_match: 2 / 3, recent: [
    { room: 'k1', finished_ms: 1764600000000, takes: 5, mean_ms: 900, median_ms: 880, fouls: 1 },
    { room: 'k2', finished_ms: 1764650000000, takes: 0, mean_ms: null, median_ms: null, fouls: 1 },
    { room: 'k3', finished_ms: 1764680000000, takes: 7, mean_ms: 750, median_ms: 700, fouls: 0 }] },
  games: [
    { room: 'abc123', game: 'ur', finished_ms: 1764900000000, result: 'won', rated: true, opponents: ['Bob'] },
    { room: 'def456', game: 'ur', finished_ms: 1764800000000, result: 'lost', rated: false, opponents: [] },
  ],
  more: true,
};
const OLDER = {
  name: 'Fixture',
  games: [{ room: 'ghi789', game: 'ur', finished_ms: 1764700000000, result: 'drew', rated: false, opponents: ['Cy'] }],
  more: false,
};

/** The fixed answers: the first page, and the older one when ?before= is the last game's time. */
function fixture(asked) {
  return (r) => {
    const u = new URL(r.request().url());
    asked.push(u.search);
    const body = u.searchParams.get('before') === String(FIXED.games[1].finished_ms) ? OLDER : FIXED;
    return r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  };
}

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
      h.check((await page.locator('#player-export').count()) === 0, 'nothing to export yet');
      h.expectLayout(await h.layout(page), 'an empty page');
      await h.expectAxeClean(page, 'an empty page');
      h.check((await h.missingKeys(page)).length === 0, 'no missing words');
    });
    await h.step(`one's own page made private, and public again (${size})`, async () => {
      const sw = page.locator('#player-private');
      h.check(!(await sw.isChecked()), 'public by default');
      h.check(await page.locator('#player-private-note').isHidden(), 'no note while public');
      await sw.check();
      await page.locator('#player-private-note').waitFor();
      h.check((await page.locator('#player-private-note').innerText()) === en['player.private.note'], 'the note says so');
      h.check(await sw.isChecked() && await sw.evaluate((el) => el === document.activeElement), 'the switch stays on, focused');
      h.expectLayout(await h.layout(page), 'a private page');
      await h.expectAxeClean(page, 'a private page');
      await h.shot(page, `player-private-${size}`);
      const other = await h.page(size, { lang: 'en' });
      await other.goto(h.url('/player/' + encodeURIComponent(name)));
      await other.locator('#player-unknown').waitFor();
      h.check((await other.locator('#player-unknown').innerText()) === en['player.unknown'], 'another browser: no such player');
      await page.reload();
      await page.locator('#player-private-note').waitFor();
      h.check(await page.locator('#player-private').isChecked(), 'still private after a reload');
      await page.locator('#player-private').uncheck();
      await page.locator('#player-private-note').waitFor({ state: 'hidden' });
      await other.reload();
      await other.locator('#player-name').waitFor();
      h.check((await other.locator('#player-name').innerText()) === name, 'another browser sees it again');
      h.check((await other.locator('#player-private').count()) === 0, 'without the switch: not its page');
      await other.context().close();
    });
    await h.step(`ratings, a chart and games with replay links (${size})`, async () => {
      const asked = [];
      await page.route('**/api/player/**', fixture(asked));
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
      const lv = await page.locator('#player-levels li').innerText();
      h.check(lv === en['player.level'].replace('{game}', en['game.ur.name']).replace('{level}', en['level.easy'])
        .replace('{wins}', '3').replace('{n}', '4').replace('{rate}', '75'), 'the win rate in words: ' + lv);
      const kt = await page.locator('#player-karuta p').innerText();
      h.check(kt === en['player.karuta.summary'].replace('{n}', '3').replace('{takes}', '12').replace('{mean}', '0.81')
        .replace('{median}', '0.79').replace('{fouls}', '2').replace('{perMatch}', '0.7'), 'karuta in words: ' + kt);
      h.check((await page.locator('#player-karuta svg.player-chart circle').count()) === 2, 'a point per match with takes');
      h.check((await page.locator('#player-private').count()) === 0, "no switch on another's page");
      h.check((await page.locator('#player-export').count()) === 0, "no export of another's games");
      h.expectLayout(await h.layout(page), 'a full page');
      await h.expectAxeClean(page, 'a full page');
      await h.shot(page, `player-${size}`);
      await page.locator('#player-more').click();
      await page.locator('#player-games li[data-room="ghi789"]').waitFor();
      h.check((await games.count()) === 3 && (await games.nth(2).innerText()).includes(en['player.result.drew']), 'the older game after them');
      h.check((await page.locator('#player-more').count()) === 0, 'no button after the last');
      h.check(asked.length === 2 && asked[1] === '?before=' + FIXED.games[1].finished_ms, 'asked before the last game: ' + asked);
      h.expectLayout(await h.layout(page), 'older games');
      await h.expectAxeClean(page, 'older games');
      await page.unroute('**/api/player/**');
      await page.route('**/api/player/**', (r) => r.fulfill({ status: 200, contentType: 'application/json',
        body: JSON.stringify({ ...FIXED, own: true, private: false }) }));
      await page.goto(h.url('/player/Fixture'));
      await page.locator('#player-export').waitFor();
      h.check((await page.locator('#player-export').getAttribute('href')) === '/api/player/Fixture/records.zip' &&
        (await page.locator('#player-export').innerText()) === en['player.export'], 'one\'s own games to download');
      h.expectLayout(await h.layout(page), 'one\'s own full page');
      await h.expectAxeClean(page, 'one\'s own full page');
      await h.shot(page, `player-own-${size}`);
      await page.unroute('**/api/player/**');
    });
    await h.step(`the full page in Russian (${size})`, async () => {
      const rp = await h.page(size, { lang: 'ru' });
      await rp.route('**/api/player/**', fixture([]));
      await rp.goto(h.url('/player/Fixture'));
      await rp.locator('#player-levels li').waitFor();
      const text = await rp.locator('#player').innerText();
      for (const k of ['player.levels', 'player.more', 'player.ratings', 'player.karuta'])
        h.check(text.includes(ru[k]), `${k} in Russian`);
      h.check(!/Older games|Against the computer|\bwon\b/.test(text), 'no English: ' + text);
      h.check((await h.missingKeys(rp)).length === 0, 'no missing words');
      h.expectLayout(await h.layout(rp), 'a Russian page');
      await h.shot(rp, `player-ru-${size}`);
      await rp.context().close();
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
