// test_ru.mjs — issue 16, "every word of the interface in Russian": the
// lobby, the new-room form (every game), a room with its table, the replay
// page and karuta's practice page, walked in Russian; every visible text is
// searched for Latin-script words. Allowed: notation and the games' own
// terms (an allow-list below), names the test typed, text inside <code>, an
// element marked lang="en" (the server's quoted words) or lang="ja", and
// form values. The catalogues' completeness is test_i18n.mjs.

import { run } from './harness.mjs';

// words that are not English but notation, names or the games' own terms
const ALLOW = new Set(['Parlour', 'Ann', 'UR', 'CBW', 'TC', 'KA', 'JSON', 'QR', 'd4', 'bG', 'rG', 'bA', 'rA', 'bS', 'rS',
  'seed', 'alt', 'deck', 'deals', 'target', 'kyogi', 'uta', 'chirashi', 'poem', 'even', 'upper', 'lower', 'ms', 'card', 'poet',
  'touch', 'send', 'place', 'arrange', 'ROW', 'SLOT', 'MS', 'auto', 'on', 'v', 'H', 'N', 'P', 'k', 'g', 'a', 'e', 'bs', 'md', 'docs', 'notation', 'karuta', 'kết', 'Kết',
  'json', 'enter', 'Enter', 'MCTS', 'expectimax', 'perfect', 'FILE']); // .json files, ur's move notation and its Enter key, algorithm names

function latin(text) {
  return (text.match(/[A-Za-zÀ-ɏ]{2,}/gu) || []).filter((w) => !ALLOW.has(w));
}

async function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim()) continue;
      if (el.closest('code, script, style, [lang]:not([lang="ru"]), option[value=""]') ) continue;
      const r = el.getBoundingClientRect();
      const st = getComputedStyle(el);
      if (st.display === 'none' || st.visibility === 'hidden') continue;
      if (!el.closest('details:not([open]) > :not(summary)') && r.width === 0 && r.height === 0) continue;
      out.push(n.textContent.trim());
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]'))
      if (!el.closest('code, [lang]:not([lang="ru"])'))
        for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    return out;
  });
}

run('ru', async (h) => {
  const found = new Map();
  const look = async (page, where) => {
    for (const s of await visibleTexts(page)) for (const w of latin(s)) if (!found.has(w)) found.set(w, `${where}: ${s.slice(0, 80)}`);
  };
  await h.step('the lobby and every game\'s form', async () => {
    const page = await h.page('desktop', { lang: 'ru' });
    await page.goto(h.url('/'));
    await page.locator('#opt-rules').waitFor();
    for (const g of ['ur', 'cbw', 'tamcuc', 'karuta']) {
      await page.selectOption('#new-game', g);
      await page.locator('#create-form .opt').first().waitFor();
      await page.evaluate(() => document.querySelectorAll('#create-form details').forEach((d) => (d.open = true)));
      await look(page, 'lobby ' + g);
    }
    await page.context().close();
  });
  await h.step('a room with its table (ur against the computer)', async () => {
    const page = await h.page('desktop', { lang: 'ru' });
    await page.goto(h.url('/'));
    const { room } = await h.createRoom(page, { game: 'ur', seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] });
    await h.join(page, room, 'Ann');
    await h.waitState(page, (st) => st.seq >= 0);
    await page.locator('.table-root').waitFor();
    await look(page, 'room');
    await page.context().close();
  });
  for (const [hash, what] of [['#replay', 'replay'], ['#practice', 'practice']])
    await h.step(`the ${what} page`, async () => {
      const page = await h.page('desktop', { lang: 'ru' });
      await page.goto(h.url('/' + hash));
      await page.waitForTimeout(500);
      await look(page, what);
      await page.context().close();
    });
  await h.step('no Latin-script word outside notation, names and the games\' terms', async () => {
    h.check(found.size === 0, 'English left on the Russian pages:\n' + [...found].map(([w, s]) => `  ${w}  (${s})`).join('\n'));
  });
});
