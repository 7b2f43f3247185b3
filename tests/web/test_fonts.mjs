// test_fonts.mjs — issue 32 §1: fonts for all four scripts, served by
// `parlour serve` itself at /fonts/ (Debian's packages; css/fonts.css,
// src/server/net.c's list), each downloaded only when the page shows its
// characters (unicode-range). At both sizes:
//   - an English lobby loads Parlour Sans (DejaVu Sans) from /fonts/ and
//     never the Japanese files (its Tam Cúc and karuta pictures use the
//     device's CJK font first);
//   - a Japanese page loads Parlour JP (IPAex Gothic) from /fonts/;
//   - a karuta room loads Parlour JP Serif (IPAex Mincho) for its cards;
//   - a Vietnamese page draws ệ ữ ặ ỗ in Parlour Sans, marks stacked whole;
//   - the answers are fonts of the server with a long cache lifetime, a
//     font not on the list is a 404;
// and a server whose fonts folder is empty: 404s, the page in the device's
// fonts, nothing broken. Shots: SHOTS/fonts-*.png (looked at: karuta's
// vertical kana in the served serif, Vietnamese diacritics).
//
// The harness fails on any request that is not to the server.

import { run, startServer, SIZES, config } from './harness.mjs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The page's font faces: family (unquoted) → statuses of its faces. */
async function faces(page) {
  return page.evaluate(() => {
    const out = {};
    for (const f of document.fonts) (out[f.family.replace(/^"|"$/g, '')] ||= []).push(f.status);
    return out;
  });
}

/** Waits until a face of `family` is loaded (or every one failed); returns its statuses. */
async function loaded(page, family) {
  await page.waitForFunction((fam) => {
    const mine = [...document.fonts].filter((f) => f.family.replace(/^"|"$/g, '') === fam);
    return mine.some((f) => f.status === 'loaded') || (mine.length && mine.every((f) => f.status === 'error'));
  }, family);
  return (await faces(page))[family];
}

/** Records the page's font answers: [{name, status, cache}]. */
function fontLog(page) {
  const log = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/fonts/')) log.push({ name: u.pathname.slice(7), status: r.status(), cache: r.headers()['cache-control'] || '' });
  });
  return log;
}

const KARUTA = { variant: 'kyogi', deal: '1;2;3/4;5;6', memo_s: '0', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '500' };

run('fonts', async (h) => {
  let karutaRoom = null;
  for (const size of ['phone', 'desktop']) {
    await h.step(`${size}: an English lobby: Parlour Sans from /fonts/, no Japanese file`, async () => {
      const page = await h.page(size, { lang: 'en' });
      const log = fontLog(page);
      await page.goto(h.url('/'));
      await page.locator('#new-game').waitFor();
      const st = await loaded(page, 'Parlour Sans');
      h.check(st.includes('loaded'), `Parlour Sans loaded (${st})`);
      await page.evaluate(() => document.fonts.ready.then(() => 0));
      // the lobby shows the Tam Cúc and karuta pictures (CJK characters): the device's font draws them
      const cjk = await page.evaluate(() => [...document.querySelectorAll('.cjk')].map((e) => e.textContent).join(''));
      h.check(/[\u3040-\u30ff\u4e00-\u9fff]/.test(cjk), `the lobby shows CJK characters (${cjk.slice(0, 20)})`);
      const names = log.map((x) => x.name);
      h.check(names.includes('DejaVuSans.ttf'), `the lobby fetched /fonts/DejaVuSans.ttf (${names})`);
      h.check(!names.some((n) => /^ipaex/.test(n)), `the English lobby fetched no Japanese font (${names})`);
      for (const x of log) h.check(x.status === 200 && /max-age=31536000/.test(x.cache), `/fonts/${x.name}: 200, cached a year (${x.status} ${x.cache})`);
      const bad = await page.evaluate(() => fetch('/fonts/nope.ttf').then((r) => r.status));
      h.check(bad === 404, `a font not on the server's list: 404 (${bad})`);
      await page.context().close();
    });

    await h.step(`${size}: a Japanese page: Parlour JP from /fonts/`, async () => {
      const page = await h.page(size, { lang: 'ja' });
      const log = fontLog(page);
      await page.goto(h.url('/'));
      await page.locator('#new-game').waitFor();
      h.check((await page.evaluate(() => document.documentElement.lang)) === 'ja', 'the page speaks ja');
      const st = await loaded(page, 'Parlour JP');
      h.check(st.includes('loaded'), `Parlour JP loaded (${st})`);
      const names = log.map((x) => x.name);
      h.check(names.includes('ipaexg.ttf'), `fetched /fonts/ipaexg.ttf (${names})`);
      // the font the lobby's vertical karuta picture is drawn in: the served one first
      const fam = await page.evaluate(() => getComputedStyle(document.querySelector('.cjk')).fontFamily);
      h.check(/^"?Parlour JP"?,/.test(fam), `the pictures' CJK text asks for Parlour JP first (${fam})`);
      await page.evaluate(() => document.fonts.ready.then(() => 0));
      await h.shot(page, `lobby-${size}-ja`, { fullPage: false });
      await page.context().close();
    });

    await h.step(`${size}: a Vietnamese page: ệ ữ ặ ỗ in Parlour Sans, whole`, async () => {
      const page = await h.page(size, { lang: 'vi' });
      const log = fontLog(page);
      await page.goto(h.url('/'));
      await page.locator('#new-game').waitFor();
      // a sample of Vietnamese's stacked marks, in the page's own font
      await page.evaluate(() => {
        const p = document.createElement('p');
        p.id = 'vi-sample';
        p.style.fontSize = '40px';
        p.textContent = 'Tiếng Việt: ệ ữ ặ ỗ Ệ Ữ Ặ Ỗ';
        document.getElementById('app').prepend(p);
      });
      const st = await loaded(page, 'Parlour Sans');
      h.check(st.includes('loaded'), `Parlour Sans loaded (${st})`);
      h.check(log.some((x) => x.name === 'DejaVuSans.ttf' && x.status === 200), 'fetched /fonts/DejaVuSans.ttf');
      const m = await page.evaluate(() => {
        const c = document.createElement('canvas').getContext('2d');
        c.font = '40px "Parlour Sans"';
        const ink = (s) => {
          const x = c.measureText(s);
          return { up: x.actualBoundingBoxAscent, down: x.actualBoundingBoxDescent, w: x.width };
        };
        return {
          covered: document.fonts.check('40px "Parlour Sans"', 'ệữặỗ'),
          // [letter, its ink, the plain vowel's ink, the width of the letter without its marks]
          marks: [['ệ', 'e', 'e'], ['ữ', 'u', 'ư'], ['ặ', 'a', 'a'], ['ỗ', 'o', 'o']].map(([v, b, w]) => [v, ink(v), ink(b), ink(w).w]),
          hat: ink('ô').up,
        };
      });
      h.check(m.covered, 'Parlour Sans covers ệ ữ ặ ỗ');
      for (const [v, a, b, w] of m.marks) {
        // marks stacked over the letter in one glyph: the ink rises well above the plain vowel's, the
        // advance stays the letter's (no mark set beside it); ệ ặ also have a dot under it
        h.check(a.up > b.up * 1.25 && Math.abs(a.w - w) < 1, `${v}: marks stacked over the letter (ink ${a.up.toFixed(1)} above, plain ${b.up.toFixed(1)}; width ${a.w.toFixed(1)} = ${w.toFixed(1)})`);
        if (v === 'ỗ') h.check(a.up > m.hat + 2, `ỗ: the tilde over the circumflex (${a.up.toFixed(1)} above, ô ${m.hat.toFixed(1)})`);
        if (v === 'ệ' || v === 'ặ') h.check(a.down > b.down + 3, `${v}: the dot under the letter (${a.down.toFixed(1)} below, base ${b.down.toFixed(1)})`);
      }
      await page.evaluate(() => document.fonts.ready.then(() => 0));
      await page.locator('#vi-sample').screenshot({ path: path.join(config.shots, `fonts-vi-sample-${size}.png`) });
      await page.context().close();
    });

    await h.step(`${size}: a karuta room: the cards' kana in Parlour JP Serif from /fonts/`, async () => {
      const page = await h.page(size, { lang: 'en' });
      const log = fontLog(page);
      await page.goto(h.url('/'));
      if (!karutaRoom) karutaRoom = (await h.createRoom(page, { game: 'karuta', options: KARUTA, seats: [{ kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }] })).room;
      await page.goto(h.url('/room/' + karutaRoom));
      await page.locator('.kar-card .kar-kana').first().waitFor();
      const st = await loaded(page, 'Parlour JP Serif');
      h.check(st.includes('loaded'), `Parlour JP Serif loaded (${st})`);
      h.check(log.some((x) => x.name === 'ipaexm.ttf' && x.status === 200), `fetched /fonts/ipaexm.ttf (${log.map((x) => x.name)})`);
      const fam = await page.evaluate(() => getComputedStyle(document.querySelector('.kar-card .kar-kana')).fontFamily);
      h.check(/^"?Parlour JP Serif"?,/.test(fam), `the cards ask for Parlour JP Serif first (${fam})`);
      await page.evaluate(() => document.fonts.ready.then(() => 0));
      await h.shot(page, `karuta-${size}-en`, { fullPage: false });
      await page.locator('.kar-card:not([transform*=rotate])').first().screenshot({ path: path.join(config.shots, `fonts-karuta-card-${size}.png`) });
      await page.context().close();
    });
  }

  await h.step('a server whose fonts folder is empty: 404, the device\'s fonts, the page works', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'parlour-nofonts-'));
    const srv = await startServer({ extra: ['--fonts', empty] });
    try {
      // a context of its own (the harness's contexts allow only the main server)
      const ctx = await h.browser.newContext({ ...SIZES.phone, locale: 'vi-VN' });
      const page = await ctx.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const log = fontLog(page);
      await page.goto(srv.origin + '/');
      await page.locator('#new-game').waitFor();
      const st = await loaded(page, 'Parlour Sans');
      h.check(st.every((s) => s !== 'loaded'), `Parlour Sans not loaded (${st})`);
      h.check(log.length > 0 && log.every((x) => x.status === 404), `the font requests were 404s (${JSON.stringify(log)})`);
      const shown = await page.evaluate(() => document.querySelector('h1, h2').getBoundingClientRect().width);
      h.check(shown > 50 && errors.length === 0, `the page shows its text in the device's fonts, no error (${shown} px; ${errors})`);
      await h.shot(page, 'nofonts-phone-vi', { fullPage: false });
      await ctx.close();
    } finally {
      const rc = await srv.stop();
      h.check(rc === 0, `that server stops cleanly (${rc})`);
    }
  });
});
