// test_drill.mjs — karuta drills in the browser (issue 34 §4; web/js/drill.js),
// at phone (360×740) and desktop (1366×768) size, against `parlour serve
// --test-fast-hash`: the lobby's karuta entry opens /drill; a guest runs the
// kimariji drill (one answer with the keyboard), the listening drill and the
// card-flipping drill (kana, romaji, a wrong answer, a pass), with some
// answers wrong; the weakest list shows exactly the missed cards; a reload
// keeps the progress (localStorage). Then the guest signs up: the progress
// moves to the account (the guest's copy leaves the browser), and another
// browser context signed in to the same account sees it (from the server).
// A Japanese page shows no English. No missing words, axe clean, layout
// clean. The answers are the page's own question (its test hook
// window.__parlour.page.drill.asked()), never a time.

import { run } from './harness.mjs';
import en from '../../web/i18n/en.js';
import ja from '../../web/i18n/ja.js';
import * as S from '../../web/js/drill-sched.js';

const hook = (page, what) => page.evaluate((w) => {
  const d = window.__parlour && window.__parlour.page && window.__parlour.page.drill;
  return d ? (w === 'record' ? d.record() : d[w]()) : null;
}, what);

async function openDrill(page, h) {
  await page.goto(h.url('/drill'));
  await page.waitForFunction(() => {
    const d = window.__parlour && window.__parlour.page && window.__parlour.page.drill;
    return d && d.loaded();
  });
  await page.locator('#drill-setup').waitFor();
}

/** The card asked now (waits for one). */
async function asked(page) {
  const n = await page.waitForFunction(() => window.__parlour.page.drill.asked(), null, { polling: 50 });
  return n.jsonValue();
}

/** Answers the question: right (the asked card) or wrong (another field card); returns [asked, grade]. */
async function pickCard(page, right) {
  const n = await asked(page);
  const cards = await page.locator('#drill-field .drill-card').evaluateAll((els) => els.map((e) => Number(e.dataset.card)));
  const target = right ? n : cards.find((c) => c !== n);
  const before = await hook(page, 'record');
  await page.locator(`#drill-field .drill-card[data-card="${target}"]`).click();
  await page.waitForFunction((s) => window.__parlour.page.drill.record().step > s, before.step);
  return [n, await page.locator('#drill-feedback').getAttribute('data-grade')];
}

async function start(page, kind, size) {
  await page.locator('#drill-kind-' + kind).check();
  await page.selectOption('#drill-size', String(size));
  await page.locator('#drill-start').click();
  await page.locator(`#drill-session[data-kind="${kind}"]`).waitFor();
}

run('drill', async (h) => {
  for (const size of ['phone', 'desktop']) {
    const page = await h.page(size, { lang: 'en' });
    const missed = new Set();
    await h.step(`the lobby's karuta entry opens the drills, a guest's progress in this browser (${size})`, async () => {
      await page.goto(h.url('/'));
      await page.locator('#drill-link').click();
      await page.waitForURL('**/drill');
      await page.waitForFunction(() => window.__parlour.page.drill && window.__parlour.page.drill.loaded());
      await page.locator('#drill-setup').waitFor();
      h.check((await page.locator('#drill-where').innerText()) === en['drill.where.guest'], 'a guest\'s progress stays in the browser');
      h.check((await page.locator('#drill-weak-none').innerText()) === en['drill.weakNone'], 'no weak cards yet');
      h.expectLayout(await h.layout(page), 'the drills\' setup');
      await h.expectAxeClean(page, 'the drills\' setup');
      await h.shot(page, `setup-${size}`);
    });
    await h.step(`the kimariji drill: right, wrong, with the keyboard (${size})`, async () => {
      await start(page, 'kimariji', 6);
      // a new card shows its kimariji and three kana more
      const first = await asked(page);
      const kana = await page.locator('#drill-prompt').innerText();
      h.check(kana === S.prefix(first, S.shownKana(S.emptyRecord(), first)), `the first kana of card ${first}: ${kana}`);
      h.check((await page.locator('#drill-field .drill-card').count()) === 6, 'six cards on the field');
      for (const right of [true, false, true, false]) {
        const [n, g] = await pickCard(page, right);
        h.check(right ? g === 'good' || g === 'slow' : g === 'miss', `card ${n} answered ${right ? 'right' : 'wrong'}: ${g}`);
        if (!right) missed.add(n);
      }
      // the keyboard: Tab to the asked card, Enter
      const n = await asked(page);
      const step = (await hook(page, 'record')).step;
      await page.locator(`#drill-field .drill-card[data-card="${n}"]`).focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction((s) => window.__parlour.page.drill.record().step > s, step);
      h.check(['good', 'slow'].includes(await page.locator('#drill-feedback').getAttribute('data-grade')), 'a card chosen with Enter');
      h.check((await page.locator('#drill-feedback').innerText()).length > 0, 'the answer said in words');
      h.expectLayout(await h.layout(page, { allowOverlap: '#drill-field' }), 'the kimariji drill');
      await h.expectAxeClean(page, 'the kimariji drill');
      await h.shot(page, `kimariji-${size}`);
      await page.locator('#drill-stop').click();
    });
    await h.step(`the listening drill on a field laid out as a match (${size})`, async () => {
      await start(page, 'listen', 6);
      h.check((await page.locator('#drill-theirs .drill-card').count()) === 3 && (await page.locator('#drill-mine .drill-card').count()) === 3,
        'three cards a side');
      const [n1, g1] = await pickCard(page, true);
      h.check(g1 === 'good' || g1 === 'slow', `card ${n1} touched: ${g1}`);
      const [n2, g2] = await pickCard(page, false);
      h.check(g2 === 'miss', `a wrong card for ${n2}: ${g2}`);
      missed.add(n2);
      await h.expectAxeClean(page, 'the listening drill');
      await h.shot(page, `listen-${size}`);
      await page.locator('#drill-stop').click();
    });
    await h.step(`the card-flipping drill: kana, romaji, wrong, pass (${size})`, async () => {
      await start(page, 'flip', 6);
      const answers = [(n) => S.prefix(n, S.kimariji(n)), (n) => S.romaji(S.prefix(n, S.kimariji(n))).toUpperCase(), () => 'xyz', null];
      for (const ans of answers) {
        const n = await asked(page);
        h.check((await page.locator('#drill-flip-card .drill-card').getAttribute('data-card')) === String(n), 'the card shown alone');
        const stepNow = (await hook(page, 'record')).step;
        if (ans) {
          await page.locator('#drill-answer').fill(ans(n));
          await page.keyboard.press('Enter');
        } else await page.locator('#drill-pass').click();
        await page.waitForFunction((s) => window.__parlour.page.drill.record().step > s, stepNow);
        const g = await page.locator('#drill-feedback').getAttribute('data-grade');
        if (ans && ans(n) !== 'xyz') h.check(g === 'good' || g === 'slow', `card ${n}: ${ans(n)} is right (${g})`);
        else {
          h.check(g === 'miss', `card ${n}: a wrong answer or a pass is a miss (${g})`);
          missed.add(n);
        }
      }
      await h.expectAxeClean(page, 'the flipping drill');
      await h.shot(page, `flip-${size}`);
      await page.locator('#drill-stop').click();
    });
    await h.step(`dynamic kimariji after cards already read; a bad list said in words (${size})`, async () => {
      await page.locator('#drill-kind-kimariji').check();
      await page.locator('#drill-read').fill('1, 38, x');
      await page.locator('#drill-start').click();
      h.check((await page.locator('#drill-read-error').innerText()) === en['drill.readBad'], 'a bad list is refused in words');
      h.check((await page.locator('#drill-read').getAttribute('aria-invalid')) === 'true', 'the field marked invalid');
      const read = [1, 38, 75, 12, 49, 86, 23, 60, 97, 34, 71, 8, 45, 82, 19];
      await page.locator('#drill-read').fill(read.join(', '));
      await page.selectOption('#drill-size', '6');
      await page.locator('#drill-start').click();
      await page.locator('#drill-session[data-kind="kimariji"]').waitFor();
      const field = await page.locator('#drill-field .drill-card').evaluateAll((els) => els.map((e) => Number(e.dataset.card)));
      h.check(field.length === 6 && field.every((n) => !read.includes(n)), 'no read card on the field: ' + field);
      const n = await asked(page);
      const rec = await hook(page, 'record');
      const want = S.prefix(n, S.shownKana(rec, n, read));
      h.check((await page.locator('#drill-prompt').innerText()) === want, `card ${n}: the dynamic kimariji's kana ${want}`);
      await pickCard(page, true);
      await page.locator('#drill-stop').click();
      await page.locator('#drill-read').fill('');
    });
    let record;
    await h.step(`the weakest cards are the missed ones, and a reload keeps them (${size})`, async () => {
      record = await hook(page, 'record');
      const want = S.weakest(record).map(String);
      const shown = await page.locator('#drill-weak-list li').evaluateAll((els) => els.map((e) => e.dataset.card));
      h.check(JSON.stringify(shown) === JSON.stringify(want), `the weakest list ${shown} = ${want}`);
      for (const n of missed) h.check(shown.includes(String(n)), `missed card ${n} is listed`);
      await openDrill(page, h);
      const again = await page.locator('#drill-weak-list li').evaluateAll((els) => els.map((e) => e.dataset.card));
      h.check(JSON.stringify(again) === JSON.stringify(want), 'the same list after a reload: ' + again);
      h.check(JSON.stringify(await hook(page, 'record')) === JSON.stringify(record), 'the same record after a reload');
      h.check((await h.missingKeys(page)).length === 0, 'no missing words');
      await h.shot(page, `weakest-${size}`);
    });
    await h.step(`signed in, the progress moves to the account; another browser sees it (${size})`, async () => {
      const name = size === 'phone' ? 'Drill Phone' : 'Drill Desk';
      const st = await page.evaluate(async (n) => (await fetch('/api/account/signup', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
        body: JSON.stringify({ name: n, password: 'correct horse' }),
      })).status, name);
      h.check(st === 200, 'signed up: ' + st);
      await openDrill(page, h);
      h.check((await page.locator('#drill-where').innerText()) === en['drill.where.account'].replace('{name}', name), 'kept on the account');
      h.check(await hook(page, 'synced'), 'the merged record is saved');
      h.check(await page.evaluate(() => localStorage.getItem('parlour.drill') === null), 'the guest\'s copy left this browser');
      h.check(JSON.stringify(await hook(page, 'record')) === JSON.stringify(record), 'the guest\'s answers are the account\'s');
      // one more miss, saved on the server
      await start(page, 'kimariji', 6);
      const [n] = await pickCard(page, false);
      h.check(await hook(page, 'synced'), 'saved');
      record = await hook(page, 'record');
      const other = await h.page(size === 'phone' ? 'desktop' : 'phone', { lang: 'en' });
      await other.goto(h.url('/'));
      const si = await other.evaluate(async (nm) => (await fetch('/api/account/signin', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
        body: JSON.stringify({ name: nm, password: 'correct horse' }),
      })).status, name);
      h.check(si === 200, 'signed in elsewhere: ' + si);
      await openDrill(other, h);
      h.check(JSON.stringify(await hook(other, 'record')) === JSON.stringify(record), 'the other browser reads the same record');
      const list = await other.locator('#drill-weak-list li').evaluateAll((els) => els.map((e) => e.dataset.card));
      h.check(list.includes(String(n)) && JSON.stringify(list) === JSON.stringify(S.weakest(record).map(String)),
        `its weakest list: ${list}`);
      await h.expectAxeClean(other, 'a signed-in player\'s drills');
      await other.context().close();
    });
    await page.context().close();
  }
  await h.step('a Japanese page has no English (phone)', async () => {
    const page = await h.page('phone', { lang: 'ja' });
    await openDrill(page, h);
    h.check((await page.locator('h1').innerText()) === ja['drill.title'], 'the title in Japanese');
    await start(page, 'kimariji', 6);
    await pickCard(page, false);
    await pickCard(page, true);
    const text = await page.locator('#drill').innerText();
    const latin = text.match(/[A-Za-z]{2,}/g);
    h.check(!latin, 'no Latin words on the Japanese drills page: ' + latin);
    h.check((await h.missingKeys(page)).length === 0, 'no missing words');
    h.expectLayout(await h.layout(page, { allowOverlap: '#drill-field' }), 'the Japanese page');
    await h.shot(page, 'ja-phone');
    await page.context().close();
  });
}, { extra: ['--test-fast-hash'] });
