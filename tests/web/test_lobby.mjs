// test_lobby.mjs — the lobby in a real browser: it renders the four games in
// English and Russian at phone and desktop size with no layout fault and no
// missing word; a room with a computer seat is made from the form, its
// invitation link and QR code appear, and the room page opens from it.

import { run } from './harness.mjs';
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
        await h.shot(page, `${size}-${lang}`);
        await h.shot(page, `${size}-${lang}-screen`, { fullPage: false }); // docs/screenshots/
        await page.context().close();
      });
    }

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

  // issue 16 (every word in both languages): the form's option labels and
  // descriptions come from the catalogue (opt.GAME.KEY), not the server's English
  for (const lang of ['en', 'ru'])
    await h.step(`the new-room form's options are in ${lang} for every game`, async () => {
      const page = await h.page('desktop', { lang });
      await page.goto(h.url('/'));
      await page.locator('#opt-rules').waitFor();
      const games = await page.evaluate(() => new Promise((res) => {
        const p = window.__parlour;
        p.net.on('games', (m) => res(m.games));
        p.net.send({ type: 'games' });
      }));
      h.check(games.length === 4, 'the server lists four games');
      for (const g of games) {
        await page.selectOption('#new-game', g.id);
        const shown = g.options.filter((o) => !/\(tests\)\s*$/.test(o.about));
        await page.locator('#opt-' + shown[0].key).waitFor();
        const rows = await page.$$eval('#create-form .opt', (els) => els.map((e) => ({
          key: e.querySelector('[name]').name, label: e.querySelector('label').textContent, about: e.querySelector('.about').textContent,
          values: [...e.querySelectorAll('option')].map((o) => o.textContent) })));
        h.check(rows.length === shown.length, `${g.id}: every option is in the form (${rows.length}/${shown.length})`);
        for (const o of shown) {
          const r = rows.find((x) => x.key === o.key);
          if (!r) continue;
          if (lang === 'en') {
            // the catalogue's words (issue 31: karuta's are in player words, not the engine's); else the server's
            const cat = en[`opt.${g.id}.${o.key}.about`];
            h.check(r.about === (cat ?? o.about), `${g.id}.${o.key}: the English description is the catalogue's or the server's: ${r.about}`);
          } else {
            h.check(r.about !== o.about && /[а-яё]/i.test(r.about), `${g.id}.${o.key}: a Russian description, not the server's English: ${r.about}`);
            h.check(/[а-яё]/i.test(r.label), `${g.id}.${o.key}: a Russian label: ${r.label}`);
            for (const v of r.values)
              h.check(!/^[a-z]+(-[a-z]+)*$/.test(v) || ['d4'].includes(v) || !(o.values || []).includes(v),
                `${g.id}.${o.key}: the value ${v} is a word in Russian`);
          }
        }
      }
      await page.context().close();
    });

  await h.step('a room with a computer seat is made from the form', async () => {
    const page = await h.page('phone', { lang: 'en' });
    await page.goto(h.url('/'));
    await page.locator('#games .game').nth(3).waitFor();
    await page.locator('.game[data-game="ur"] button.new-game').click();
    await page.fill('#opt-pieces', '3');
    h.check((await page.locator('#seat-0 option').count()) >= 4, 'a seat offers a person and the levels');
    await page.selectOption('#seat-0', 'person');
    await page.selectOption('#seat-1', 'ai:easy');
    await page.click('#create');
    const link = page.locator('.invite-link');
    await link.waitFor();
    const url = await link.inputValue();
    h.check(/\/room\/[0-9a-f]{32}$/.test(url), 'an invitation link: ' + url);
    await page.locator('svg.qr').waitFor();
    h.expectLayout(await h.layout(page), 'after create');
    await h.shot(page, 'created-phone');
    await page.click('#open-room');
    await page.waitForURL(/\/room\//);
    await page.locator('#join-name').waitFor();
    const st = await h.state(page);
    h.check(st && st.seats.length === 2 && st.seats[1].kind === 'ai' && st.seats[1].level === 'easy', 'the room has the computer seat');
    h.check(st.view.options.pieces === 3, 'the option was taken: ' + JSON.stringify(st.view.options));
    // the public room is listed in the lobby
    await page.goto(h.url('/'));
    await page.locator('.room-item a').first().waitFor();
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
