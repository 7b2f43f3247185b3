// test_karuta_fit.mjs — issue 31 for karuta's table (web/games/karuta.js):
// the table fits the window, the memorisation time is counted down with a
// Ready button, the status line says what is going on, uta's hands say whose
// they are and its end what the numbers count, and no engine word is shown.
//
// - A kyōgi room against the computer with the whole 50-card field (25 a
//   side) and memo_s=900, at 360×740 (phone), 740×360 (phone on its side)
//   and 1366×768 (desktop), in English and in Russian: during memorisation
//   the countdown, the Ready button, the status, the reading bar and the
//   whole field (the player's own bottom row included) are in view without
//   scrolling; Ready starts the first reading (not 900 s later); once it is
//   judged the reading bar, the whole field and the judgement are in view.
//   The size of a card and of its kana on the screen are measured and
//   printed (docs/web-ui.md quotes them), and must stay at least what the
//   window allows: on the desktop a card at least 40 px wide.
// - Two people: one is ready, the other is told whom the readings wait for;
//   a spectator is told the players memorise; the second Ready starts them.
// - status(view, ctx), exported for the room's status line: "Reading 12",
//   "Waiting for Yuki to send 1 card", the memorisation time, the cards
//   left at the end, in both languages.
// - Uta-karuta (four computers, watched): each hand is labelled by its seat
//   number and name; the end says the numbers are cards left.
// - No Latin-script word of the engine (option keys such as upper_ms,
//   "kyogi:", rule ids) on the Russian new-room form of karuta or its table.

import { run } from './harness.mjs';
import { status } from '../../web/games/karuta.js';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';

const DEAL = Array.from({ length: 25 }, (_, i) => i + 1).join(';') + '/' + Array.from({ length: 25 }, (_, i) => i + 26).join(';');
const FAST = { upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '0' };
const WHERE = [
  ['phone', 'en', null],
  ['phone', 'ru', null],
  ['phone', 'en', { width: 740, height: 360 }],
  ['phone', 'ru', { width: 740, height: 360 }],
  ['desktop', 'en', null],
  ['desktop', 'ru', null],
];

/** The size on the screen of a card of the field and of its kana (px). */
async function cardSize(page) {
  return page.evaluate(() => {
    const svg = document.querySelector('.kar-kyogi');
    const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const kh = svg.getBoundingClientRect().height / svg.viewBox.baseVal.height;
    const face = svg.querySelector('.kar-card .kar-face').getBoundingClientRect();
    // the kana's size on most cards (each card's kana are as large as its longest column allows)
    const fss = [...svg.querySelectorAll('.kar-kana')].map((e) => Number(e.getAttribute('font-size'))).sort((a, b) => a - b);
    const fs = fss[Math.floor(fss.length / 2)];
    return { w: +face.width.toFixed(1), h: +face.height.toFixed(1), kana: +(fs * Math.min(k, kh)).toFixed(1), smallest: +(fss[0] * Math.min(k, kh)).toFixed(1) };
  });
}

function tOf(cat) {
  return (key, vars = {}) => {
    if (!(key in cat)) throw new Error('missing key ' + key);
    if (vars.n === 1 && key + '.one' in cat) key += '.one'; // as js/i18n.js: "1 card", not "1 cards"
    return cat[key].replace(/\{(\w+)\}/g, (_, k) => {
      if (!(k in vars)) throw new Error(key + ': no {' + k + '}');
      return String(vars[k]);
    });
  };
}

// words of Latin script on a Russian page: none but the names typed here
function latin(text) {
  return (text.match(/[A-Za-z]{2,}/g) || []).filter((w) => !['Ann', 'Bob', 'Yuki'].includes(w));
}

run('karuta_fit', async (h) => {
  await h.step('status(view, ctx): what is going on, in words, in both languages', async () => {
    for (const [lang, cat] of [['en', en], ['ru', ru]]) {
      const t = tOf(cat);
      const name = (i) => ['Ann', 'Yuki'][i];
      const touch = status({ stage: 'touch', phase: 'move', readings: 12, pending: [0, 1] }, { t, seat: -1, name });
      const send = status({ stage: 'send', phase: 'move', readings: 3, send: { sender: 1, receiver: 0, owed: 1, sent: 0 } }, { t, seat: 0, name });
      const memo = status({ stage: 'read', phase: 'chance', readings: 0 }, { t, seat: 0, name, memo: { left_ms: 899001, ready: [false, true] } });
      const next = status({ stage: 'read', phase: 'chance', readings: 4 }, { t, seat: 0, name });
      const over = status({ stage: 'over', phase: 'over', variant: 'uta', outcome: { kind: 'seat', winner: 1 },
        hands: [{ count: 2, cards: [] }, { count: 0, cards: [] }] }, { t, seat: 0, name });
      console.log(`# ${lang}: ${touch} | ${send} | ${memo} | ${next} | ${over}`);
      h.check(touch.includes('12'), lang + ': a reading names its number: ' + touch);
      h.check(send.includes('Yuki') && send.includes('1'), lang + ': who is waited for: ' + send);
      h.check(memo.includes('15:00'), lang + ': the memorisation time left: ' + memo);
      h.check(next.includes('5'), lang + ': the next reading: ' + next);
      h.check(over.includes('Ann 2') && over.includes('Yuki 0'), lang + ': the cards left at the end: ' + over);
      if (lang === 'en') {
        h.check(touch === 'Reading 12' && send === 'Waiting for Yuki to send 1 card.', 'en words: ' + touch + ' / ' + send);
        h.check(/cards left/i.test(over), 'en: the numbers are cards left: ' + over);
      } else {
        for (const s of [touch, send, memo, next, over]) h.check(!latin(s).length, 'ru: Latin words in ' + s);
        h.check(/Осталось карт/.test(over), 'ru: the numbers are cards left: ' + over);
      }
    }
  });

  for (const [size, lang, viewport] of WHERE) {
    const where = `${viewport ? viewport.width + '×' + viewport.height : size === 'phone' ? '360×740' : '1366×768'} ${lang}`;
    const tag = `${viewport ? 'landscape' : size}-${lang}`;
    await h.step(`kyōgi, 50 cards, against the computer at ${where}: memorisation, Ready, a reading, all in view`, async () => {
      const page = await h.page(size, { lang });
      if (viewport) await page.setViewportSize(viewport);
      await page.goto(h.url('/'));
      const made = await h.createRoom(page, { game: 'karuta', options: { variant: 'kyogi', deal: DEAL, memo_s: '900', ...FAST },
        seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] });
      await h.join(page, made.room, 'Ann');
      await page.locator('#kar-ready').waitFor();
      await page.locator('.kar-kyogi .kar-card').nth(49).waitFor();
      const st = await h.state(page);
      h.check(st.memo && st.memo.total_ms === 900000 && st.view.readings === 0, 'the state says memorisation runs, no reading yet');
      const statusText = await page.locator('#kar-status').textContent();
      h.check(/1[45]:\d\d/.test(statusText), 'the status counts the memorisation time down: ' + statusText);
      await page.waitForTimeout(300); // the layout settles (fonts)
      const parts = { status: '#kar-status', 'reading bar': '#kar-reading', ready: '#kar-ready', field: '.kar-kyogi', 'own side': '.kar-side-own' };
      await h.shot(page, `memo-${tag}`, { fullPage: false });
      await h.expectInView(page, parts, where + ', memorising', { keepScroll: !!viewport });
      const size0 = await cardSize(page);
      console.log(`# ${where}: a card ${size0.w}×${size0.h} px, its kana ${size0.kana} px (the smallest ${size0.smallest} px); fit ${JSON.stringify(await page.evaluate(() => window.__karuta.fit))}`);
      if (size === 'desktop') h.check(size0.w >= 40, `desktop: a card ${size0.w} px wide`);
      else h.check(size0.w >= 18, `phone: a card ${size0.w} px wide`);
      if (lang === 'ru') {
        const words = latin(await page.locator('.kar-table').innerText());
        h.check(!words.length, 'Latin-script words on the Russian table: ' + words.join(' '));
      }
      await page.locator('#kar-ready').click();
      // the first reading: at once, not after 900 s
      await page.waitForFunction(() => window.__karuta && window.__karuta.reading && window.__karuta.reading.n >= 1, null, { timeout: 20000 });
      h.check(await page.locator('#kar-memo').isHidden(), 'the countdown is gone once the readings start');
      const judged = await h.waitState(page, (s) => s.view.judgement && s.view.stage !== 'touch', null, 30000);
      await page.locator('#kar-judgement h3').waitFor();
      await page.waitForTimeout(200);
      await h.shot(page, `judged-${tag}`, { fullPage: false });
      await h.expectInView(page, { status: '#kar-status', 'reading bar': '#kar-reading', field: '.kar-kyogi', judgement: '#kar-judgement' },
        where + ', judged', { keepScroll: !!viewport });
      const size1 = await cardSize(page);
      console.log(`# ${where}, judged: a card ${size1.w}×${size1.h} px, its kana ${size1.kana} px (the smallest ${size1.smallest} px)`);
      h.check(size1.w >= (size === 'desktop' ? 40 : 28), `a card ${size1.w} px wide once judged`);
      // and the reading bar stays in view when the page is scrolled to the table's end
      await page.evaluate(() => document.querySelector('#kar-counts').scrollIntoView({ block: 'end' }));
      await page.waitForTimeout(100);
      await h.expectInView(page, { 'reading bar': '#kar-reading' }, where + ', scrolled to the table’s end', { keepScroll: true });
      await page.evaluate(() => document.querySelector('.kar-table').scrollIntoView({ block: 'start' }));
      if (!viewport) await page.evaluate(() => window.scrollTo(0, 0));
      await h.shot(page, `judged-${tag}`, { fullPage: false });
      void judged;
      await page.context().close();
    });
  }

  await h.step('two people and a spectator: Ready waits for every person; the second Ready starts the readings', async () => {
    const ann = await h.page('desktop', { lang: 'en' });
    const bob = await h.page('phone', { lang: 'ru' });
    const eve = await h.page('phone', { lang: 'en' });
    await ann.goto(h.url('/'));
    const made = await h.createRoom(ann, { game: 'karuta', options: { variant: 'kyogi', deal: DEAL, memo_s: '900', ...FAST },
      seats: [{ kind: 'person' }, { kind: 'person' }] });
    await h.join(ann, made.room, 'Ann');
    await h.join(bob, made.room, 'Bob');
    await eve.goto(h.url('/room/' + made.room));
    await h.waitState(eve, (s) => s.seat === -1 && s.memo);
    await eve.locator('#kar-memo').waitFor();
    h.check((await eve.locator('#kar-ready').count()) === 0, 'a spectator has no Ready');
    h.check(/memorise/.test(await eve.locator('#kar-memo').textContent()), 'the spectator is told the players memorise');
    await ann.locator('#kar-ready').click();
    await h.waitState(bob, (s) => s.memo && s.memo.ready[0]);
    await ann.locator('#kar-memo', { hasText: 'waiting for Bob' }).waitFor();
    await bob.locator('#kar-ready').waitFor();
    const bobSays = await bob.locator('#kar-memo').textContent();
    h.check(bobSays.includes('Ann') === false && bobSays.includes('когда'), 'Bob is told the readings start when everyone is ready: ' + bobSays);
    h.check(!(await h.state(ann)).view.readings, 'no reading while Bob memorises');
    await h.shot(ann, 'waiting-desktop-en', { fullPage: false });
    await bob.locator('#kar-ready').click();
    for (const p of [ann, bob, eve]) await p.waitForFunction(() => window.__karuta && window.__karuta.reading && window.__karuta.reading.n >= 1, null, { timeout: 20000 });
    for (const p of [ann, bob, eve]) await p.context().close();
  });

  await h.step('uta-karuta: the hands say whose they are; the end says the numbers are cards left', async () => {
    for (const lang of ['en', 'ru']) {
      const eve = await h.page('phone', { lang });
      await eve.goto(h.url('/'));
      const made = await h.createRoom(eve, { game: 'karuta', options: { variant: 'uta', deal: '11;12;13/14;15;16/17;18;19/20;21;22', memo_s: '0', ...FAST },
        seats: Array.from({ length: 4 }, () => ({ kind: 'ai', level: 'easy' })) });
      await eve.goto(h.url('/room/' + made.room));
      await h.waitState(eve, (s) => s.seat === -1 && s.view.variant === 'uta');
      await eve.locator('.kar-card').first().waitFor();
      const labels = await eve.locator('.kar-side').allTextContents();
      const seatWord = lang === 'en' ? 'Seat' : 'Место';
      for (let i = 1; i <= 4; i++) h.check(labels.some((l) => l.startsWith(`${seatWord} ${i} — `)), `${lang}: hand ${i} labelled by seat and name: ${labels.join(' | ')}`);
      await h.expectInView(eve, { 'reading bar': '#kar-reading', status: '#kar-status' }, 'uta ' + lang);
      await h.shot(eve, `uta-phone-${lang}`, { fullPage: false });
      await h.waitState(eve, (s) => s.over, null, 120000);
      const said = await eve.locator('#kar-status').textContent();
      h.check(lang === 'en' ? /Cards left \(fewer is better\)/.test(said) : /Осталось карт/.test(said), `${lang}: the end says cards left: ${said}`);
      await h.shot(eve, `uta-over-phone-${lang}`);
      await eve.context().close();
    }
  });

  await h.step('the Russian new-room form of karuta: no option keys, rule ids or English words', async () => {
    const page = await h.page('desktop', { lang: 'ru' });
    await page.goto(h.url('/'));
    await page.locator('#new-game').waitFor();
    await page.selectOption('#new-game', 'karuta');
    await page.locator('#create-form .opt').first().waitFor();
    await page.evaluate(() => document.querySelectorAll('#create-form details').forEach((d) => (d.open = true)));
    const text = await page.locator('#create-form').innerText();
    const words = latin(text);
    h.check(!words.length, 'Latin-script words on the Russian form: ' + [...new Set(words)].join(' '));
    await h.shot(page, 'form-desktop-ru');
    await page.context().close();
  });
});
