// test_room_a11y.mjs — the room's own parts for a screen reader and the
// keyboard (issue 32 §2, §3), whatever the game's table does: each new move
// is announced in the polite live region (role=log, #announce) in the page's
// words; "Describe the table" (a button, and Alt+Shift+D) fills a region
// that takes the focus and Escape closes it; the optional sounds are off
// until the reader turns them on, then a move and the reader's turn sound
// (js/sound.js records each in window.parlourSounds); the room's parts pass
// axe-core (no serious or critical violation) on a phone and a desktop.

import { run } from './harness.mjs';

run('room_a11y', async (h) => {
  for (const [size, lang] of [['desktop', 'en'], ['phone', 'ru']]) {
    const page = await h.page(size, { lang });
    let room;
    await h.step(`${size} ${lang}: a room against the computer`, async () => {
      await page.goto(h.url('/'));
      room = (await h.createRoom(page, { game: 'ur', options: { pieces: '3' }, seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] })).room;
      await h.join(page, room, 'Ann');
    });

    await h.step(`${size} ${lang}: sounds are off until turned on, then a move and your turn sound`, async () => {
      h.check(!(await page.locator('#sounds').isChecked()), 'sounds off at first');
      await page.getByRole('checkbox', { name: lang === 'en' ? 'Sounds' : 'Звуки' }).check();
      // play until the computer has moved and it is the reader's turn again
      for (let i = 0; i < 40; i++) {
        const st = await h.waitState(page, (st) => st.over || (st.legal && st.legal.length > 0));
        const sounds = await page.evaluate(() => window.parlourSounds || []);
        if (st.over || (sounds.includes('turn') && sounds.some((k) => k === 'move' || k === 'capture'))) break;
        await h.act(page, st.legal[0].action || st.legal[0]);
        await h.waitState(page, (s2, seq) => s2.seq > seq, st.seq);
      }
      const sounds = await page.evaluate(() => window.parlourSounds || []);
      h.check(sounds.includes('turn'), 'the turn sounded: ' + sounds.join(','));
      h.check(sounds.some((k) => k === 'move' || k === 'capture'), 'a move sounded: ' + sounds.join(','));
      await page.reload();
      await h.waitState(page, (st) => st.seat === 0);
      h.check(await page.locator('#sounds').isChecked(), 'the choice is kept');
    });

    await h.step(`${size} ${lang}: the moves are announced in a polite log, in the page's words`, async () => {
      const st = await h.waitState(page, (st) => st.over || (st.legal && st.legal.length > 0));
      const seq = st.seq;
      if (!st.over) await h.act(page, st.legal[0].action || st.legal[0]);
      await h.waitState(page, (s2, q) => s2.seq > q, seq);
      const log = page.getByRole('log');
      await log.locator('p').first().waitFor({ state: 'attached' });
      const lines = await log.locator('p').allTextContents();
      h.check(lines.length > 0 && lines.every((l) => l.trim() && !/⟦|\{\w+\}/.test(l)), 'announced: ' + JSON.stringify(lines));
      h.check((await log.getAttribute('aria-live')) === 'polite', 'polite');
      if (lang === 'ru') h.check(lines.every((l) => /[а-яё]/i.test(l)), 'in Russian: ' + JSON.stringify(lines));
    });

    await h.step(`${size} ${lang}: Alt+Shift+D describes the table; Escape closes it`, async () => {
      await page.keyboard.press('Alt+Shift+KeyD');
      const region = page.getByRole('region', { name: lang === 'en' ? 'The table in words' : 'Стол словами' });
      await region.waitFor();
      h.check(await region.evaluate((e) => e === document.activeElement), 'the region has the focus');
      const text = await region.innerText();
      h.check(text.split('\n').filter((l) => l.trim()).length >= 2, 'a heading and sentences: ' + text);
      await h.shot(page, `described-${size}-${lang}`);
      await page.keyboard.press('Escape');
      await region.waitFor({ state: 'hidden' });
      h.check(await page.evaluate(() => document.activeElement && document.activeElement.id === 'describe'), 'the focus back on the button');
      await page.getByRole('button', { name: lang === 'en' ? 'Describe the table' : 'Описать стол' }).press('Enter');
      await region.waitFor();
    });

    await h.step(`${size} ${lang}: the room's own parts pass axe`, async () => {
      await h.expectAxeClean(page, `room ${size} ${lang}`, { exclude: '#table' });
    });
  }
});
