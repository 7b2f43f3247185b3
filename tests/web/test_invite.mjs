// test_invite.mjs — the invitation reaches a friend (issue 31 §1): with
// `parlour serve --public-url https://games.example.org` (a site with nginx in
// front) the page, opened here at 127.0.0.1, offers the public address in the
// lobby's invitation and in the room's invite box — the link and its QR code —
// with no "this machine only" word, at phone and desktop size in English and
// Russian. (The server on 127.0.0.1 alone, and its plain word, is
// tests/web/test_lobby.mjs's; the address list itself tests/server/test_invite.py's.)
// Also, in node, which address the page picks (lobby.js inviteUrl) for a
// server on its network addresses, a public URL, this machine only.

import { run } from './harness.mjs';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';

const PUBLIC = 'https://games.example.org';

run('invite', async (h) => {
  const cats = { en, ru };
  // which address the page offers (lobby.js inviteUrl, run here in node)
  await h.step('the address offered: the page\'s own when others reach it, else the server\'s first', async () => {
    const { inviteUrl } = await import('../../web/js/lobby.js');
    const at = (o) => ({ origin: o, hostname: new URL(o).hostname });
    const lan = { urls: ['http://192.168.1.20:8080/', 'http://10.0.0.5:8080/'], local_only: false };
    const cases = [
      [lan, 'http://127.0.0.1:8080', 'http://192.168.1.20:8080/room/x', ['http://10.0.0.5:8080/room/x']],
      [lan, 'http://localhost:8080', 'http://192.168.1.20:8080/room/x', ['http://10.0.0.5:8080/room/x']],
      [lan, 'http://10.0.0.5:8080', 'http://10.0.0.5:8080/room/x', ['http://192.168.1.20:8080/room/x']],
      [lan, 'http://mybox.local:8080', 'http://mybox.local:8080/room/x', ['http://192.168.1.20:8080/room/x', 'http://10.0.0.5:8080/room/x']],
      [{ urls: ['https://games.example.org/parlour/'], local_only: false }, 'http://127.0.0.1:8080', 'https://games.example.org/parlour/room/x', []],
      [{ urls: [], local_only: true }, 'http://127.0.0.1:8080', 'http://127.0.0.1:8080/room/x', []],
      [null, 'http://127.0.0.1:8080', 'http://127.0.0.1:8080/room/x', []], // before the welcome
    ];
    for (const [inv, origin, url, others] of cases) {
      const got = inviteUrl('/room/x', inv, at(origin));
      h.check(got.url === url && got.others.join() === others.join() && got.localOnly === !!(inv && inv.local_only),
        `${JSON.stringify(inv)} at ${origin}: ${JSON.stringify(got)}`);
    }
  });
  for (const lang of ['en', 'ru'])
    for (const size of ['phone', 'desktop'])
      await h.step(`the invitation is the public address (${lang}, ${size})`, async () => {
        const page = await h.page(size, { lang });
        await page.goto(h.url('/'));
        await page.locator('#create').waitFor();
        await page.selectOption('#seat-1', 'person');
        await page.click('#create');
        const link = page.locator('.invite-link');
        await link.waitFor();
        const url = await link.inputValue();
        h.check(new RegExp('^' + PUBLIC + '/room/[0-9a-f]{32}$').test(url), 'the link is the public one: ' + url);
        await page.locator('svg.qr').waitFor();
        const same = await page.evaluate(async (u) => {
          const q = await import('/js/qr.js');
          return q.qrSvg(u, '').querySelector('path').getAttribute('d') === document.querySelector('svg.qr path').getAttribute('d');
        }, url);
        h.check(same, 'the QR code encodes the public link');
        h.check((await page.locator('#invite-local').count()) === 0, 'no "this machine only" word');
        h.check((await page.locator('.invite').innerText()).includes(cats[lang]['invite.text']), 'the lobby\'s words');
        await page.waitForFunction(() => {
          const r = document.getElementById('open-room').getBoundingClientRect();
          return r.bottom <= window.innerHeight && r.top >= 0;
        });
        await h.expectInView(page, { link: '.invite-link', open: '#open-room' }, `${lang} ${size}`, { keepScroll: true });
        h.expectLayout(await h.layout(page), 'after create');
        await h.shot(page, `public-${size}-${lang}`, { fullPage: false });
        // the room's own box: the same public link, its QR code, no "Open the room"
        const code = url.split('/room/')[1];
        await page.click('#open-room');
        await page.waitForURL(new RegExp('/room/' + code));
        await page.locator('.invite-box summary').click();
        await page.locator('.invite-box svg.qr').waitFor();
        h.check((await page.locator('.invite-box .invite-link').inputValue()) === url, 'the room offers the public link');
        h.check((await page.locator('.invite-box #open-room').count()) === 0, 'no "Open the room" inside the room');
        await page.locator('.invite-box').evaluate((e) => e.scrollIntoView({ block: 'start' }));
        await h.shot(page, `room-public-${size}-${lang}`, { fullPage: false });
        await page.context().close();
      });
}, { extra: ['--public-url', PUBLIC] });
