// test_replay.mjs — the replay page: a finished room (Ur, one piece each, two
// computers) replayed from /room/CODE#replay (its referee record) and from the
// same record chosen as a file on /#replay; the step counter and the table
// follow the arrow keys and Home/End; the page fits a phone.

import { run } from './harness.mjs';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
      if (mode === 'room') record = await page.evaluate(() => window.__parlour.page.replay.record);
      h.check(record && record.format === 'parlour-record' && record.actions.length > 3, 'the referee record');
      let s = await steps();
      h.check(s.i === 0 && s.n === record.actions.length, `step 0 of ${record.actions.length}: ${JSON.stringify(s)}`);
      const start = s;
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      s = await steps();
      h.check(s.i === 2, 'two steps on');
      h.check((await page.locator('#replay-step').textContent()) === `step 2 of ${s.n}`, 'the counter');
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
});
