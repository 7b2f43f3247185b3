// test_comfort.mjs — the pages around the tables for every reader (issue 32
// §3): the lobby with every game's form opened and the replay page pass
// axe-core (no serious or critical violation) at both sizes in en and ru;
// at 200 % text the lobby still fits a phone's width (no sideways scroll,
// nothing past the edge — the header and the game list wrap); with
// prefers-reduced-motion the page's transitions and animations stop; the
// keyboard focus is drawn with a ring of at least 3:1 against the page.
// The tables' own checks are in test_GAME_a11y.mjs, the room's parts in
// test_room_a11y.mjs.

import { run } from './harness.mjs';

const GAMES = ['ur', 'cbw', 'tamcuc', 'karuta'];

/** Elements that reach past the window's sides, and the page's scroll width. */
async function overflow(page) {
  return page.evaluate(() => {
    const W = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width && (r.right > W + 1 || r.left < -1) && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr'))
        out.push((el.id ? '#' + el.id : el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '')) + ` ${Math.round(r.left)}–${Math.round(r.right)}`);
    }
    return { W, scroll: document.scrollingElement.scrollWidth, out };
  });
}

/** WCAG's contrast ratio of two 'rgb(r, g, b)' colours. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

run('comfort', async (h) => {
  for (const lang of ['en', 'ru']) {
    for (const size of ['phone', 'desktop']) {
      const tag = `${size} ${lang}`;
      const page = await h.page(size, { lang });
      await h.step(`${tag}: the lobby and every game's form pass axe`, async () => {
        await page.goto(h.url('/'));
        await page.locator('#new-game').waitFor();
        await h.expectAxeClean(page, `lobby ${tag}`);
        for (const game of GAMES) {
          await page.selectOption('#new-game', game);
          await page.evaluate(() => document.querySelectorAll('#new-room details').forEach((d) => (d.open = true)));
          await h.expectAxeClean(page, `new ${game} ${tag}`);
        }
      });
      await h.step(`${tag}: the replay page passes axe`, async () => {
        await page.goto(h.url('/#replay'));
        await page.locator('main#app *').first().waitFor();
        await h.expectAxeClean(page, `replay ${tag}`);
      });
      await h.step(`${tag}: the lobby at 200 % text fits the window's width`, async () => {
        await page.goto(h.url('/'));
        await page.locator('#new-game').waitFor();
        await page.evaluate(() => {
          document.documentElement.style.fontSize = '200%';
          document.querySelectorAll('#new-room details').forEach((d) => (d.open = true));
        });
        const o = await overflow(page);
        await h.shot(page, `lobby-200-${size}-${lang}`, { fullPage: false });
        h.check(o.scroll <= o.W && o.out.length === 0, `nothing past the edge at 200 % (width ${o.W}, scroll ${o.scroll}): ${o.out.slice(0, 8).join(', ')}`);
        const body = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
        h.check(body >= 31, 'the body text follows the root size: ' + body + ' px');
      });
    }
  }

  await h.step('reduced motion: no transition or animation runs', async () => {
    const page = await h.page('phone');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(h.url('/'));
    await page.locator('#new-game').waitFor();
    const long = await page.evaluate(() => {
      const secs = (v) => Math.max(...v.split(',').map((x) => parseFloat(x) * (x.trim().endsWith('ms') ? 0.001 : 1)));
      const out = [];
      for (const el of document.querySelectorAll('*')) {
        const cs = getComputedStyle(el);
        if (secs(cs.transitionDuration) > 0.01 || (cs.animationName !== 'none' && secs(cs.animationDuration) > 0.01)) out.push(el.tagName + '.' + el.className);
      }
      return out;
    });
    h.check(long.length === 0, 'moving elements: ' + long.slice(0, 5).join(', '));
  });

  await h.step('the keyboard focus ring: visible, 3:1 against the page', async () => {
    const page = await h.page('desktop');
    await page.goto(h.url('/'));
    await page.locator('#new-game').waitFor();
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const el = document.activeElement;
      const cs = getComputedStyle(el);
      return { tag: el.tagName, style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), color: cs.outlineColor, page: getComputedStyle(document.body).backgroundColor };
    });
    h.check(f.tag !== 'BODY' && f.style !== 'none' && f.width >= 2, 'a focus ring: ' + JSON.stringify(f));
    const c = contrast(f.color, f.page);
    h.check(c >= 3, `ring contrast ${c.toFixed(2)} ≥ 3 (${f.color} on ${f.page})`);
    await h.shot(page, 'focus-ring', { fullPage: false });
  });
});
