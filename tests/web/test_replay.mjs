// test_replay.mjs — the replay page: a finished room (Ur, one piece each, two
// computers) replayed from /room/CODE#replay (its referee record) and from the
// same record chosen as a file on /#replay; the step counter and the table
// follow the arrow keys and Home/End; the page fits a phone; every step is
// told in words, never notation ("roll 1", "Seat 1: enter").
//
// Records (issue 31, §7; js/record.js): in each game's room a player's
// "Download my record" during the game gives, in Ur, the whole record so far,
// and with hidden cards (City Behind Walls, Tam Cúc; karuta too, whose deal
// comes from the seed) the seat's own record, named so (file and note); once
// the game is over "Download the record" gives the whole one. Each file is
// opened on the replay page and by `parlour replay --text` (which opens the
// whole records and says why it cannot replay a seat's own).

import { run, config } from './harness.mjs';
import { writeFileSync, mkdtempSync, readFileSync, copyFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** `parlour replay --text FILE`: {rc, out}. */
function cliReplay(file) {
  const r = spawnSync(config.parlour, ['replay', '--text', file], { encoding: 'utf8', timeout: 60000 });
  return { rc: r.status, out: (r.stdout || '') + (r.stderr || '') };
}

/** Notation the replay's words must never show (test_words.mjs has the full list). */
const NOTATION = [/\broll \d/, /Seat \d+:/, /\benter\b(?! )/, /\b[rb][GAERHCS]\b/, /\d+[SHDC]?@-?\d+,-?\d+/];

run('replay', async (h) => {
  const page = await h.page('phone', { lang: 'en' });
  let room, record;

  await h.step('a room of two computers plays to the end', async () => {
    await page.goto(h.url('/'));
    ({ room } = await h.createRoom(page, { game: 'ur', options: { pieces: '1' }, seats: [{ kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }] }));
    await page.goto(h.url('/room/' + room));
    await h.waitState(page, (st) => st.over, undefined, 60000);
  });

  const steps = async () => page.evaluate(() => {
    const R = window.__parlour.page.replay;
    const st = R.steps ? R.steps[R.i] : null;
    return { i: R.i, n: R.steps ? R.steps.length - 1 : null, views: R.views, text: document.getElementById('table').textContent, view: st ? JSON.stringify(st.view) : null };
  });

  for (const mode of ['room', 'file']) {
    await h.step(`replay from the ${mode}: arrows, Home and End step through every action`, async () => {
      if (mode === 'room') {
        await page.goto(h.url('/room/' + room + '#replay'));
      } else {
        const dir = mkdtempSync(path.join(tmpdir(), 'parlour-replay-'));
        const file = path.join(dir, 'record.json');
        writeFileSync(file, JSON.stringify(record));
        await page.goto(h.url('/#replay'));
        await page.setInputFiles('#replay-file', file);
      }
      await page.locator('#replay-step').waitFor();
      if (mode === 'room') {
        await page.waitForFunction(() => !!window.__parlour.page.replay.record); // fetched for its download
        record = await page.evaluate(() => window.__parlour.page.replay.record);
      }
      h.check(record && record.format === 'parlour-record' && record.actions.length > 3, 'the referee record');
      let s = await steps();
      h.check(s.i === 0 && s.n === record.actions.length, `step 0 of ${record.actions.length}: ${JSON.stringify(s)}`);
      const start = s;
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      s = await steps();
      h.check(s.i === 2, 'two steps on');
      h.check((await page.locator('#replay-step').textContent()) === `step 2 of ${s.n}`, 'the counter');
      await page.waitForFunction(() => !!window.__parlour.page.replay.mod); // the game's words
      const said = await page.locator('.replay-history').innerText();
      const bad = NOTATION.filter((re) => re.test(said));
      h.check(!bad.length && /threw|throw/i.test(said), `the moves in words, not notation (${bad.join(' ')}): ${said.slice(0, 300)}`);
      h.check(s.text !== start.text || s.view !== start.view, 'the table changed');
      await page.keyboard.press('ArrowLeft');
      h.check((await steps()).i === 1, 'one back');
      await page.keyboard.press('End');
      h.check((await steps()).i === s.n, 'End: the last step');
      await page.keyboard.press('ArrowRight');
      h.check((await steps()).i === s.n, 'not past the end');
      await page.keyboard.press('Home');
      h.check((await steps()).i === 0, 'Home: the start');
      await page.click('#replay-forward');
      h.check((await steps()).i === 1, 'the forward button');
      if (s.views) {
        // the server's views: seen by seat 1 instead of a spectator
        await page.selectOption('#replay-seat', '0');
        await page.waitForFunction(() => window.__parlour.page.replay.seat === 0 && window.__parlour.page.replay.steps);
        h.check((await steps()).n === s.n, 'the same steps seen by seat 1');
      }
      h.expectLayout(await h.layout(page), 'replay phone');
      await h.shot(page, mode + '-phone');
    });
  }

  await h.step('a file that is not a record is refused in words', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parlour-replay-'));
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, '{"hello": 1}');
    await page.goto(h.url('/#replay'));
    await page.setInputFiles('#replay-file', file);
    await page.locator('.note.error', { hasText: 'not a Parlour record' }).waitFor();
  });

  // ---- records (§7) ----
  const WORDS = {
    en: { own: 'Your record (seat 1): it shows only your cards; the full record is available when the game ends.', sofar: 'nothing in this game is hidden', full: 'full record', name: 'Ann', reading: 'Your record can be downloaded between readings' },
    ru: { own: 'Ваша запись (место 1): в ней видны только ваши карты; полная запись будет доступна, когда партия закончится.', sofar: 'в этой игре ничего не скрыто', full: 'Полная запись', name: 'Аня', reading: 'Свою запись можно скачать между чтениями' },
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'parlour-records-'));
  const GAMES = {
    ur: { options: { pieces: '3' }, seats: 2, own: false },
    cbw: { options: { w: '3', h: '2' }, seats: 4, own: true },
    tamcuc: { options: { players: '2' }, seats: 2, own: true },
    karuta: { options: { variant: 'kyogi', deal: '1;2;3/4;5;6', memo_s: '900', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '2000' }, seats: 2, own: null, noEnd: true },
  };

  /** Clicks `sel` in the room and saves the download; resolves to {file, name, rec, note}. */
  let W = null; // the words of the page's language (set below)
  async function download(page, sel, what) {
    let dl = null;
    // karuta: a seat's record waits while a reading is unanswered (the server says so): ask again
    for (let k = 0; !dl && k < 20; k++)
      [dl] = await Promise.all([page.waitForEvent('download', { timeout: 3000 }).catch(() => null), page.click(sel)]);
    h.check(dl, 'a download');
    // a refusal (karuta, during a reading) is said in the page's words, not the server's
    const refused = await page.locator('.notes .note.error').allInnerTexts();
    h.check(refused.every((x) => x.includes(W.reading)), 'the refusal in words: ' + refused.join(' | '));
    const file = path.join(dir, what + '-' + dl.suggestedFilename());
    copyFileSync(await dl.path(), file);
    const note = await page.locator('.notes .note.info').last().innerText();
    return { file, name: dl.suggestedFilename(), rec: JSON.parse(readFileSync(file, 'utf8')), note };
  }

  /** Opens `file` on /#replay; resolves to what the page shows. */
  async function openInReplay(page, file, views) {
    await page.goto(h.url('/#replay'));
    await page.setInputFiles('#replay-file', file);
    await page.locator('#replay-step').waitFor();
    if (views) await page.waitForFunction(() => window.__parlour.page.replay.views);
    await page.waitForFunction(() => !!window.__parlour.page.replay.mod);
    return page.evaluate(() => {
      const R = window.__parlour.page.replay;
      return { n: R.steps.length - 1, views: R.views, own: document.getElementById('replay-own')?.innerText || '', moves: document.querySelector('.replay-history').innerText };
    });
  }

  for (const [size, lang] of [['desktop', 'en'], ['phone', 'ru']]) {
  const desk = await h.page(size, { lang });
  W = WORDS[lang];
  for (const [game, g] of Object.entries(GAMES)) {
    await h.step(`${game}, ${size}, ${lang}: "Download my record" during the game, opened on the replay page and by parlour replay`, async () => {
      await desk.goto(h.url('/'));
      const seats = [{ kind: 'person' }].concat(Array.from({ length: g.seats - 1 }, () => ({ kind: 'ai', level: 'easy' })));
      const { room } = await h.createRoom(desk, { game, options: g.options, seats });
      h.check((await h.join(desk, room, W.name)) === 0, 'Ann at seat 1');
      await h.waitState(desk, (st) => st.status === 'playing');
      const d = await download(desk, '#record-seat', game + '-playing');
      const own = d.rec.format === 'parlour-record-view';
      if (g.own !== null) h.check(own === g.own, `${game}: ${g.own ? 'the seat\'s own record' : 'the whole record'} (${d.rec.format})`);
      if (own) {
        h.check(/your-record-seat1\.json$/.test(d.name), 'the file says whose: ' + d.name);
        h.check(d.note.includes(W.own), 'the note: ' + d.note);
        h.check(Array.isArray(d.rec.history) && d.rec.history.length === d.rec.actions.length, 'each move\'s events');
      } else {
        h.check(/record-so-far\.json$/.test(d.name), 'the file says what: ' + d.name);
        h.check(d.note.includes(W.sofar), 'the note: ' + d.note);
        h.check(d.rec.result === null && d.rec.actions.length > 0, 'the game so far');
      }
      const shown = await openInReplay(desk, d.file, !own);
      h.check(shown.n === d.rec.actions.length, `every action a step (${shown.n} of ${d.rec.actions.length})`);
      if (own) h.check(shown.own.includes(W.own) && !shown.views, 'the replay page names the seat\'s record: ' + shown.own);
      // karuta's own words still say "Seat 2: no touch." (its tell, karuta.ev.answer: the
      // karuta table's part; test_words.mjs lists it): that one pattern is not asked of it here
      const bad = NOTATION.filter((re) => re.test(shown.moves) && !(game === 'karuta' && String(re) === String(/Seat \d+:/)));
      h.check(!bad.length, `the moves in words (${bad.join(' ')}): ${shown.moves.slice(0, 300)}`);
      h.expectLayout(await h.layout(desk), `the replay of ${game}'s record, ${size}`);
      await h.shot(desk, `record-${game}-${own ? 'own' : 'so-far'}-${size}-${lang}`);
      const cli = cliReplay(d.file);
      if (own) h.check(cli.rc === 1 && /one seat's view/.test(cli.out), 'parlour replay says why not: ' + cli.out.slice(0, 200));
      else h.check(cli.rc === 0 && cli.out.includes('== '), 'parlour replay opens it: ' + cli.out.slice(0, 200));
    });
    if (g.noEnd) continue; // a karuta game to the end takes minutes of readings
    await h.step(`${game}, ${size}, ${lang}: after the end "Download the record" gives the whole record, opened on the replay page and by parlour replay`, async () => {
      const { room } = await h.createRoom(desk, { game, options: g.options, seats: Array.from({ length: g.seats }, () => ({ kind: 'ai', level: 'easy' })) });
      await desk.goto(h.url('/room/' + room));
      await h.waitState(desk, (st) => st.over, undefined, 120000);
      h.check((await desk.locator('#record-seat').count()) === 0, 'no seat\'s record for a spectator');
      const d = await download(desk, '#record-referee', game + '-over');
      h.check(d.rec.format === 'parlour-record' && d.rec.result, 'the whole record with its result');
      h.check(/full-record\.json$/.test(d.name) && d.note.includes(W.full), `named: ${d.name}; ${d.note}`);
      const shown = await openInReplay(desk, d.file, true);
      h.check(shown.n === d.rec.actions.length && shown.views, 'every step with its table');
      const bad = NOTATION.filter((re) => re.test(shown.moves));
      h.check(!bad.length, `the moves in words (${bad.join(' ')}): ${shown.moves.slice(0, 300)}`);
      await desk.keyboard.press('End');
      h.expectLayout(await h.layout(desk), `the replay of ${game}'s full record, ${size}`);
      await h.shot(desk, `record-${game}-full-${size}-${lang}`);
      const cli = cliReplay(d.file);
      h.check(cli.rc === 0 && cli.out.includes('== '), 'parlour replay opens it: ' + cli.out.slice(0, 200));
    });
  }
  }
});
