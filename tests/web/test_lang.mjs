// test_lang.mjs — issue 32 §1: which language a page speaks. On the first
// visit the first of the browser's languages (navigator.languages, in the
// reader's order) that Parlour has — ['fr-FR', 'vi-VN', 'en'] gives vi,
// ja-JP gives ja, 'pt' alone gives en —; the reader's choice in the picker is
// kept (localStorage) over the browser's preference on the next visit and in
// rooms and replays. The picker: reachable by keyboard, labelled in the
// page's language, each language named in itself (and marked with its lang).
// At both sizes; shots: SHOTS/lang-picker-SIZE-LANG.png.

import { run } from './harness.mjs';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';
import ja from '../../web/i18n/ja.js';
import vi from '../../web/i18n/vi.js';

/** A page whose browser prefers `langs` (navigator.languages and
 * navigator.language, set before any script of the page runs). */
async function pageWith(h, size, langs) {
  const ctx = await h.context(size, { lang: 'en' });
  await ctx.addInitScript((l) => {
    Object.defineProperty(Navigator.prototype, 'languages', { get: () => l.slice(), configurable: true });
    Object.defineProperty(Navigator.prototype, 'language', { get: () => l[0], configurable: true });
  }, langs);
  return ctx.newPage();
}

/** The language the page speaks: <html lang>, the picker's value, the label's words. */
async function spoken(page) {
  await page.locator('#lang option').first().waitFor({ state: 'attached' });
  return page.evaluate(() => ({
    html: document.documentElement.lang,
    picker: document.getElementById('lang').value,
    label: document.getElementById('lang-label').textContent,
  }));
}

/** The picker's label in each language (the catalogues' own words). */
const LABEL = Object.fromEntries(Object.entries({ en, ru, ja, vi }).map(([k, c]) => [k, c['app.language']]));

run('lang', async (h) => {
  for (const size of ['phone', 'desktop']) {
    await h.step(`${size}: the first visit follows the browser's languages in their order`, async () => {
      const cases = [
        [['fr-FR', 'vi-VN', 'en'], 'vi'],
        [['ja-JP'], 'ja'],
        [['ja'], 'ja'],
        [['pt'], 'en'],
        [['pt-BR', 'de'], 'en'],
        [['de-DE', 'RU-ru', 'ja'], 'ru'],
        [['en-GB', 'ja'], 'en'],
        [['zh-TW', 'ja-JP', 'vi'], 'ja'],
      ];
      for (const [langs, want] of cases) {
        const page = await pageWith(h, size, langs);
        await page.goto(h.url('/'));
        const s = await spoken(page);
        h.check(s.html === want && s.picker === want, `browser languages ${JSON.stringify(langs)}: the page speaks ${want} (html lang ${s.html}, picker ${s.picker})`);
        await page.context().close();
      }
      // Playwright's locale alone (navigator.languages from it), as test contexts make them
      for (const lang of ['ja', 'vi', 'ru', 'en']) {
        const page = await h.page(size, { lang });
        await page.goto(h.url('/'));
        const s = await spoken(page);
        h.check(s.html === lang && s.picker === lang, `a ${lang} browser: the page speaks ${lang} (${JSON.stringify(s)})`);
        await page.context().close();
      }
    });

    await h.step(`${size}: the picker: by keyboard, labelled, each language named in itself`, async () => {
      const page = await pageWith(h, size, ['fr-FR', 'vi-VN', 'en']);
      await page.goto(h.url('/'));
      await spoken(page);
      // Tab from the start of the page reaches it
      let reached = false;
      for (let i = 0; i < 12 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate(() => document.activeElement && document.activeElement.id === 'lang');
      }
      h.check(reached, 'Tab reaches the language picker');
      const a = await page.evaluate(() => {
        const sel = document.getElementById('lang');
        return {
          labels: [...sel.labels].map((l) => l.querySelector('#lang-label').textContent.trim()),
          options: [...sel.options].map((o) => [o.value, o.lang, o.textContent]),
          outline: getComputedStyle(sel).outlineStyle,
        };
      });
      h.check(a.labels.length === 1 && a.labels[0] === LABEL.vi, `its label is in the page's language: ${JSON.stringify(a.labels)}`);
      h.check(a.outline !== 'none', `it shows the focus (outline ${a.outline})`);
      h.check(JSON.stringify(a.options) === JSON.stringify([['en', 'en', 'English'], ['ru', 'ru', 'Русский'], ['ja', 'ja', '日本語'], ['vi', 'vi', 'Tiếng Việt']]),
        `each language named in itself and marked with its lang: ${JSON.stringify(a.options)}`);
      const snap = await page.locator('#lang').ariaSnapshot();
      h.check(snap.includes(LABEL.vi), `the accessibility tree names it: ${snap.split('\n')[0]}`);
      await h.shot(page, `picker-${size}-vi`, { fullPage: false });
      // the keyboard changes it: vi → ja (ArrowUp), at once
      await page.keyboard.press('ArrowUp');
      const s = await spoken(page);
      h.check(s.html === 'ja' && s.label === LABEL.ja, `ArrowUp on the picker: the page speaks ja (${JSON.stringify(s)})`);
      await h.shot(page, `picker-${size}-ja`, { fullPage: false });
      await page.context().close();
    });

    await h.step(`${size}: the reader's choice is kept over the browser's, in rooms and replays too`, async () => {
      const page = await pageWith(h, size, ['vi-VN', 'en']);
      await page.goto(h.url('/'));
      h.check((await spoken(page)).html === 'vi', 'first visit: vi (the browser)');
      await page.selectOption('#lang', 'ru');
      h.check((await spoken(page)).html === 'ru', 'the reader picks ru');
      await page.reload();
      const again = await spoken(page);
      h.check(again.html === 'ru' && again.label === LABEL.ru, `the next visit: ru, not the browser's vi (${JSON.stringify(again)})`);
      const { room } = await h.createRoom(page, { game: 'ur', seats: [{ kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }] });
      await page.goto(h.url('/room/' + room));
      h.check((await spoken(page)).html === 'ru', 'a room: ru');
      await page.goto(h.url('/room/' + room + '#replay'));
      h.check((await spoken(page)).html === 'ru', 'its replay: ru');
      await page.goto(h.url('/#replay'));
      h.check((await spoken(page)).html === 'ru', 'the replay page: ru');
      // a stored language Parlour does not have: the browser's again
      await page.evaluate(() => localStorage.setItem('parlour.lang', 'xx'));
      await page.goto(h.url('/'));
      h.check((await spoken(page)).html === 'vi', 'a stored language Parlour lacks: the browser\'s (vi)');
      await page.context().close();
    });
  }
});
