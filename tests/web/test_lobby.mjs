// test_lobby.mjs — the lobby in a real browser: it renders the four games in
// English and Russian at phone and desktop size with no layout fault and no
// missing word; every option of every game and every computer level is told
// in a player's words (no engine notation); a room with a computer seat is
// made from the form, its invitation link, "Open the room" (in view without
// scrolling) and QR code appear, with the plain word that other devices
// cannot open a server of this machine only; a double tap makes one room; a
// room of one person against the computer is listed only when asked; the
// room's own invitation box does not offer "Open the room"; the practice box links the Ur
// puzzles (opening /#puzzles) and the karuta drills.

import { run } from './harness.mjs';

// engine notation and jargon a player must never read in the form: rule ids,
// option keys, the engines' words, card codes, value tokens
const NOTATION = /\b(UR|CBW|TC|KA)-[A-Z]?\d|\b[a-z]+_[a-z_]+\b|\bMCTS\b|expectimax|iterations|rollout|\b[rb][GAECNHS]\b|\b\d+lots\b|\bd4\b|\bauto\b|[:@]\d|perfect:|kimariji|\bupper_ms|\blower_ms|\bkyogi\b|\bskiryuk\b|\bfinkel\b|\bengine\b/;
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';

run('lobby', async (h) => {
  const cats = { en, ru };
  for (const lang of ['en', 'ru'])
    for (const size of ['phone', 'desktop']) {
      await h.step(`renders in ${lang} at ${size} size`, async () => {
        const page = await h.page(size, { lang });
        await page.goto(h.url('/'));
        await page.locator('#games .game').nth(3).waitFor();
        h.check((await page.locator('#games .game').count()) === 4, 'four games');
        const title = await page.locator('#games .game h3').first().textContent();
        h.check(title === cats[lang]['game.ur.name'], `the first game is named in ${lang}: ${title}`);
        await page.locator('#create').waitFor();
        await page.locator('#rooms #no-rooms').waitFor();
        h.expectLayout(await h.layout(page), `${lang} ${size}`);
        h.check((await h.missingKeys(page)).length === 0, 'no missing key');
        // practice alone (issue 34): the puzzles and the drills, in words, from the lobby
        const puzzles = page.locator('#practice a#lobby-puzzles');
        h.check(await puzzles.isVisible(), 'the puzzles entry is visible');
        h.check((await puzzles.textContent()) === cats[lang]['lobby.puzzles'], `the puzzles entry in ${lang}`);
        h.check((await page.locator('#practice a#lobby-drills').getAttribute('href')) === '/drill', 'the drills entry');
        await h.shot(page, `${size}-${lang}`);
        await h.shot(page, `${size}-${lang}-screen`, { fullPage: false }); // docs/screenshots/
        await page.context().close();
      });
    }

  await h.step('the lobby\'s puzzles entry opens the puzzles page', async () => {
    const page = await h.page('phone', { lang: 'en' });
    await page.goto(h.url('/'));
    await page.click('#lobby-puzzles');
    await page.waitForFunction(() => location.hash === '#puzzles');
    await page.locator('h1', { hasText: en['puzzles.title'] }).waitFor();
    await page.context().close();
  });

  await h.step('the language switch changes every word and is remembered', async () => {
    const page = await h.page('desktop', { lang: 'en' });
    await page.goto(h.url('/'));
    await page.locator('#games .game').nth(3).waitFor();
    await page.selectOption('#lang', 'ru');
    await page.locator('#games-h', { hasText: ru['lobby.games'] }).waitFor();
    await page.reload();
    await page.locator('#games-h', { hasText: ru['lobby.games'] }).waitFor();
    h.check((await page.locator('#create').textContent()) === ru['new.create'], 'the create button in Russian');
    await page.context().close();
  });

  // issue 16 (every word in both languages) and issue 31 §4 (words for people):
  // every option the server's `games` lists is in the form with the
  // catalogue's label, explanation and value words, none of it notation
  for (const lang of ['en', 'ru'])
    await h.step(`the new-room form's options are explained for players in ${lang} for every game`, async () => {
      const cat = cats[lang];
      const page = await h.page('desktop', { lang });
      await page.goto(h.url('/'));
      await page.locator('#opt-rules').waitFor();
      const games = await page.evaluate(() => new Promise((res) => {
        const p = window.__parlour;
        p.net.on('games', (m) => res(m.games));
        p.net.send({ type: 'games' });
      }));
      h.check(games.length === 4, 'the server lists four games');
      const bad = [];
      for (const g of games) {
        await page.selectOption('#new-game', g.id);
        const shown = g.options.filter((o) => !/\(tests\)\s*$/.test(o.about) && o.key !== 'deal');
        await page.locator('#opt-' + shown[0].key).waitFor();
        await page.locator('#create-form details').first().evaluate((d) => (d.open = true));
        const rows = await page.$$eval('#create-form .opt', (els) => els.map((e) => ({
          key: e.querySelector('[name]').name, label: e.querySelector('label').textContent, about: e.querySelector('.about').textContent,
          text: e.innerText, values: [...e.querySelectorAll('option')].map((o) => o.textContent) })));
        h.check(rows.length === shown.length, `${g.id}: every option is in the form (${rows.length}/${shown.length})`);
        for (const o of g.options) {
          const base = 'opt.' + g.id + '.' + o.key;
          if (/\(tests\)\s*$/.test(o.about)) continue;
          // the catalogue has a label, an explanation and every value's words
          for (const k of [base, base + '.about', ...(Array.isArray(o.values) ? o.values : []).filter((v) => !/^\d+$/.test(v) || g.id !== 'tamcuc').map((v) => base + '.v.' + v)])
            if (!(k in cat)) bad.push('missing ' + k);
          const r = rows.find((x) => x.key === o.key);
          if (!r) continue;
          if (r.about === o.about) bad.push(`${base}: the server's description, not a player's: ${r.about}`);
          if (NOTATION.test(r.text)) bad.push(`${base}: notation on the page: ${JSON.stringify(r.text.match(NOTATION)[0])} in ${JSON.stringify(r.text)}`);
          if (lang === 'ru') {
            if (/[A-Za-z]{2,}/.test(r.text.replace(/Kết/g, ''))) bad.push(`${base}: English on a Russian page: ${r.text}`);
            if (!/[а-яё]/i.test(r.label)) bad.push(`${base}: not a Russian label: ${r.label}`);
          }
        }
        // every computer level has a player's name and explanation
        for (const l of g.levels) {
          for (const k of ['level.' + l.name, 'level.' + g.id + '.' + l.name + '.about'])
            if (!(k in cat)) bad.push('missing ' + k);
          const about = cat['level.' + g.id + '.' + l.name + '.about'] || l.about;
          if (NOTATION.test(about)) bad.push(`level.${g.id}.${l.name}.about: notation: ${about}`);
        }
        const levels = await page.locator('#create-form .levels').innerText();
        const seats = (await page.locator('#seat-1 option').allTextContents()).join(' | ');
        if (NOTATION.test(levels) || NOTATION.test(seats)) bad.push(`${g.id}: notation in the levels: ${levels} ${seats}`);
        if (lang === 'ru' && /[A-Za-z]{2,}/.test(levels + seats)) bad.push(`${g.id}: English in the levels: ${levels} ${seats}`);
      }
      h.check(!bad.length, 'the form speaks to players:\n  ' + bad.join('\n  '));
      await page.selectOption('#new-game', 'tamcuc');
      await page.locator('#create-form details').first().evaluate((d) => (d.open = true));
      await h.shot(page, `options-tamcuc-desktop-${lang}`);
      await page.context().close();
    });

  // a session's length is told as "N deals" or "N points to reach", sent as the server's deals:N / target:N
  await h.step('Tam Cúc: the length of the game is a number and what it counts', async () => {
    const page = await h.page('desktop', { lang: 'en' });
    await page.goto(h.url('/'));
    await page.locator('#create').waitFor();
    await page.selectOption('#new-game', 'tamcuc');
    await page.locator('#create-form details').first().evaluate((d) => (d.open = true));
    await page.fill('#opt-session_end-n', '20');
    await page.selectOption('#opt-session_end-kind', 'target');
    h.check((await page.inputValue('#opt-session_end')) === 'target:20', 'the option is target:20');
    await page.click('#create');
    await page.locator('#open-room').click();
    await page.waitForURL(/\/room\//);
    const code = page.url().split('/room/')[1];
    const rooms = await page.evaluate(() => new Promise((res) => {
      const p = window.__parlour;
      const off = p.net.on('rooms', (m) => { off(); res(m.rooms); });
      p.net.send({ type: 'rooms' });
    }));
    const mine = rooms.find((r) => r.room === code);
    h.check(mine && mine.options.session_end === 'target:20', 'the room has it: ' + JSON.stringify(mine && mine.options));
    await page.context().close();
  });

  // issue 31 §1, §3, §5: after "Make the room" the link and "Open the room"
  // are in view without scrolling, the link is one this server gives (here
  // 127.0.0.1: it listens on this machine only, and the box says so plainly)
  let made = 0;
  for (const lang of ['en', 'ru'])
    for (const size of ['phone', 'desktop'])
      await h.step(`a room with a computer seat is made from the form (${lang}, ${size})`, async () => {
        const cat = cats[lang];
        const page = await h.page(size, { lang });
        await page.goto(h.url('/'));
        await page.locator('#games .game').nth(3).waitFor();
        await page.locator('.game[data-game="ur"] button.new-game').click();
        await page.fill('#opt-pieces', '3');
        h.check((await page.locator('#seat-0 option').count()) >= 4, 'a seat offers a person and the levels');
        await page.selectOption('#seat-0', 'person');
        await page.selectOption('#seat-1', 'ai:easy');
        await page.click('#create');
        made++;
        const link = page.locator('.invite-link');
        await link.waitFor();
        const url = await link.inputValue();
        h.check(url.startsWith(h.url('/room/')) && /\/room\/[0-9a-f]{32}$/.test(url), 'an invitation link: ' + url);
        await page.locator('svg.qr').waitFor();
        h.check(!/\bnull\b|undefined/.test(await page.locator('.invite').innerText()), 'no stray null in the box');
        const note = await page.locator('#invite-local').innerText();
        h.check(note.includes(cat['invite.localOnly']) && note.includes('--host 0.0.0.0'), 'this machine only, said plainly: ' + note);
        // the QR code is the link's
        const same = await page.evaluate(async (u) => {
          const q = await import('/js/qr.js');
          return q.qrSvg(u, '').querySelector('path').getAttribute('d') === document.querySelector('svg.qr path').getAttribute('d');
        }, url);
        h.check(same, 'the QR code encodes the link');
        await page.waitForFunction(() => {
          const r = document.getElementById('open-room').getBoundingClientRect();
          return r.bottom <= window.innerHeight && r.top >= 0;
        });
        await h.expectInView(page, { heading: '#created-h', link: '.invite-link', copy: '.invite .copy', open: '#open-room', note: '#invite-local' },
          `after create, ${lang} ${size}`, { keepScroll: true });
        h.check((await page.locator('#create').isDisabled()), 'the create button is off once the room is made');
        h.expectLayout(await h.layout(page), 'after create');
        await h.shot(page, `created-${size}-${lang}`, { fullPage: false });
        await page.click('#open-room');
        await page.waitForURL(/\/room\//);
        await page.locator('#join-name').waitFor();
        const st = await h.waitState(page, (st) => st.seats.length === 2);
        h.check(st.seats.length === 2 && st.seats[1].kind === 'ai' && st.seats[1].level === 'easy', 'the room has the computer seat');
        h.check(st.view.options.pieces === 3, 'the option was taken: ' + JSON.stringify(st.view.options));
        // the room's own invitation box: the link, no "Open the room"
        await page.locator('.invite-box summary').click();
        await page.locator('.invite-box .invite-link').waitFor();
        h.check((await page.locator('.invite-box .invite-link').inputValue()) === url, 'the room offers the same link');
        h.check((await page.locator('.invite-box #open-room').count()) === 0, 'no "Open the room" inside the room');
        h.check((await page.locator('.invite-box').innerText()).includes(cat['invite.text.room']), 'the room\'s words for the link');
        await page.locator('.invite-box').evaluate((e) => e.scrollIntoView({ block: 'start' }));
        await h.shot(page, `room-invite-${size}-${lang}`, { fullPage: false });
        await page.context().close();
      });

  await h.step('"Make the room" tapped twice makes one room', async () => {
    const page = await h.page('phone', { lang: 'en' });
    const created = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string' && f.payload.includes('"type":"created"')) created.push(f.payload);
    }));
    await page.goto(h.url('/'));
    await page.locator('#create').waitFor();
    await page.selectOption('#seat-1', 'person');
    await page.locator('#create').dblclick();
    await page.locator('.invite-link').waitFor();
    await page.locator('#create').click({ force: true }).catch(() => {}); // a third, late tap
    await page.evaluate(() => new Promise((res) => { // one round trip: any second `created` is here by then
      const p = window.__parlour;
      const off = p.net.on('rooms', () => { off(); res(); });
      p.net.send({ type: 'rooms' });
    }));
    h.check(created.length === 1, 'one room made: ' + created.length);
    // a changed form may make another room
    await page.fill('#opt-pieces', '2');
    h.check(!(await page.locator('#create').isDisabled()), 'the create button is on again after a change');
    await page.context().close();
  });

  await h.step('rooms of one person against the computer are listed only when asked', async () => {
    const page = await h.page('desktop', { lang: 'ru' });
    await page.goto(h.url('/'));
    await page.locator('#create').waitFor();
    await page.locator('#show-computer').waitFor();
    const listed = () => page.locator('.room-item').count();
    const rooms = await page.evaluate(() => new Promise((res) => {
      const p = window.__parlour;
      const off = p.net.on('rooms', (m) => { off(); res(m.rooms); });
      p.net.send({ type: 'rooms' });
    }));
    const vs = rooms.filter((r) => r.seats.filter((x) => x.kind !== 'ai').length <= 1).length;
    h.check(vs >= made && rooms.length > vs, `the server lists ${rooms.length} rooms, ${vs} against the computer (${made} made above)`);
    await page.waitForFunction((n) => document.querySelectorAll('.room-item').length === n, rooms.length - vs);
    const names = await page.locator('.room-item').allInnerTexts();
    h.check(!names.some((n) => /компьютер/.test(n)), 'no room against the computer by default: ' + names.join(' / '));
    await page.locator('#show-computer').check();
    await page.waitForFunction((n) => document.querySelectorAll('.room-item').length === n, rooms.length);
    h.check((await listed()) === rooms.length, 'asked: the rooms against the computer too');
    await h.shot(page, 'rooms-desktop-ru', { fullPage: false });
    await page.context().close();
  });

  await h.step('City Behind Walls for two: the partner seats are offered and made', async () => {
    const page = await h.page('desktop', { lang: 'en' });
    await page.goto(h.url('/'));
    await page.locator('#create').waitFor();
    await page.selectOption('#new-game', 'cbw');
    await page.selectOption('#opt-players', '2');
    h.check((await page.locator('.seat-choice').count()) === 4, 'four seats for players=2');
    h.check((await page.inputValue('#seat-2')) === 'partner:0' && (await page.inputValue('#seat-3')) === 'partner:1', 'seats 3 and 4 played by the persons of seats 1 and 2');
    await page.selectOption('#seat-1', 'ai:easy');
    // one player a team (the server refuses a person beside another person or a computer)
    const mate = await page.locator('#seat-3 option').evaluateAll((os) => os.map((o) => o.value));
    h.check((await page.inputValue('#seat-3')) === 'ai:easy' && !mate.includes('person') && !mate.some((v) => v.startsWith('partner')),
      'a computer at seat 2: its team mate is a computer too, nothing else offered: ' + mate);
    const first = await page.locator('#seat-2 option').evaluateAll((os) => os.map((o) => o.value));
    h.check(first.join() === 'partner:0', 'seat 3 is played by the person of seat 1, nothing else offered: ' + first);
    await page.click('#create');
    await page.locator('#open-room').click();
    await page.waitForURL(/\/room\//);
    const st = await h.waitState(page, (st) => st.seats.length === 4);
    h.check(st.seats.map((s) => s.kind).join() === 'open,ai,partner,ai', 'the seats: ' + JSON.stringify(st.seats));
    await page.context().close();
  });

  await h.step('the Rated box: create sends rated: true (a guest is refused, said in the form)', async () => {
    const page = await h.page('desktop', { lang: 'en' });
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => {
      if (typeof f.payload === 'string' && f.payload.includes('"type":"create"')) sent.push(JSON.parse(f.payload));
    }));
    await page.goto(h.url('/'));
    await page.locator('#create').waitFor();
    h.check(!(await page.locator('#new-rated').isChecked()), 'casual by default');
    await page.check('#new-rated');
    await page.click('#create');
    await page.locator('.created .error').waitFor();
    h.check(sent.length === 1 && sent[0].rated === true, 'create carries rated: ' + JSON.stringify(sent));
    h.check((await page.locator('.created .error').textContent()).includes('sign in'), 'the refusal is shown');
    await page.context().close();
  });

  await h.step('the harness catches a request outside the server (another loopback address)', async () => {
    const page = await h.page('desktop', { lang: 'en' });
    await page.goto(h.url('/'));
    const before = h.foreign.length;
    await page.evaluate(() => {
      const img = new Image();
      img.src = 'http://127.0.0.2:9/planted.png'; // loopback, not the server: must be caught
      document.body.append(img);
    });
    await page.waitForTimeout(300);
    const caught = h.foreign.slice(before);
    h.check(caught.some((u) => u.includes('127.0.0.2:9/planted.png')), 'the planted request is recorded: ' + caught.join(' '));
    h.foreign.splice(before); // planted on purpose: not a fault of the page
    await page.context().close();
  });
});
