// test_karuta_a11y.mjs — karuta's table for the keyboard and the screen
// reader (issue 32 §2, §3; web/games/karuta.js): a person plays by keyboard
// alone (page.keyboard only) and decides what to press from the
// accessibility tree alone (ariaSnapshot, getByRole): the memorisation's
// Ready, touches by typing a card's label within the reading (as in the
// terminal) across several readings against a slow computer, a card sent by
// its label and Enter, to the end of the game; rearranging by labels; the
// poet named (uta answer=poet); the practice page. Checked on the way: the
// cards' names against the state the server sent, describe() against it,
// axe-core (no serious or critical violation) at the start, in the middle
// and at the end, at both sizes, in English and Japanese; text at 200 %;
// prefers-reduced-motion; the focus ring (screenshots).

import { run, sourceFile } from './harness.mjs';
import { describe as describeTable, announce, soundOf, cardLabels, lowerVerse } from '../../web/games/karuta.js';
import en from '../../web/i18n/en.js';
import ja from '../../web/i18n/ja.js';
import { CARDS } from '../../web/games/karuta-cards.js';

// the sound key of each poem (KA-K1), folded as the page's kana
function soundKeys() {
  const lines = sourceFile('data/hyakunin-isshu/data.csv').trim().split('\n');
  const head = lines[0].split(',');
  const col = (n) => head.indexOf(n);
  const out = {};
  for (const l of lines.slice(1)) {
    const c = l.split(',');
    out[Number(c[col('number')])] = fold([1, 2, 3].map((i) => c[col(`verse_${i}_hiragana_yomi`)]).join('').normalize('NFC'));
  }
  return out;
}
function fold(s) {
  return s.replace(/[ーｰ\s]/g, '').replace(/おう/g, 'おお');
}
const tOf = (cat) => (key, vars = {}) => {
  if (!(key in cat)) throw new Error('missing key ' + key);
  if (vars.n === 1 && key + '.one' in cat) key += '.one';
  return cat[key].replace(/\{(\w+)\}/g, (_, k) => {
    if (!(k in vars)) throw new Error(key + ': no {' + k + '}');
    return String(vars[k]);
  });
};

/** The cards of an aria snapshot: [{label, n, name}] from the buttons
 * named as the catalogue's karuta.a11y.card says ("A05: card 12, …"). */
function cardsOf(snap, cat = en) {
  const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const parts = cat['karuta.a11y.card'].split(/(\{\w+\})/);
  const order = [];
  const src = parts.map((p) => {
    const m = /^\{(\w+)\}$/.exec(p);
    if (!m) return esc(p);
    order.push(m[1]);
    return m[1] === 'label' ? '([A-FP]\\d\\d)' : m[1] === 'n' ? '(\\d+)' : '([\\u3040-\\u309f]+)';
  }).join('');
  const out = [];
  for (const m of snap.matchAll(new RegExp('button "' + src + '[^"]*"', 'g')))
    out.push({ label: m[1 + order.indexOf('label')], n: Number(m[1 + order.indexOf('n')]), name: m[0] });
  return out;
}

run('karuta_a11y', async (h) => {
  const keys = soundKeys();
  // KARUTA_ONLY=REGEX runs only the steps whose title matches (while working on one)
  const step = (title, fn) => (!process.env.KARUTA_ONLY || new RegExp(process.env.KARUTA_ONLY).test(title) ? h.step(title, fn) : null);

  await step('pure parts: labels as the terminal’s, describe / announce / soundOf in words (en, ja)', async () => {
    const view = { variant: 'kyogi', stage: 'touch', readings: 3, unread: [1, 2, 3, 40], pending: [0, 1], dead: [40, 41],
      territories: [{ count: 2, cards: [{ card: 1, row: 1, slot: 1, label: 'A01' }, { card: 2, row: 2, slot: 5, label: 'B05' }] },
        { count: 1, cards: [{ card: 3, row: 1, slot: 17, label: 'D17' }] }] };
    const l = cardLabels(view);
    h.check(l.get(1) === 'A01' && l.get(2) === 'B05' && l.get(3) === 'D17', 'kyōgi: the view’s slot labels');
    const uta = cardLabels({ variant: 'uta', hands: [{ cards: [{ card: 9 }, { card: 4 }] }, { cards: [{ card: 7 }] }, { cards: [] }, { cards: [] }], pool: [50] });
    h.check(uta.get(4) === 'A01' && uta.get(9) === 'A02' && uta.get(7) === 'B01' && uta.get(50) === 'P01', 'uta: hand letter, poem order');
    const chi = cardLabels({ variant: 'chirashi', field: Array.from({ length: 30 }, (_, i) => 30 - i) });
    h.check(chi.get(1) === 'A01' && chi.get(20) === 'A20' && chi.get(21) === 'B01', 'chirashi: A01–E20 in poem order');
    for (const [lang, cat] of [['en', en], ['ja', ja]]) {
      const t = tOf(cat);
      const said = describeTable(view, { t, lang, seat: 0, name: (i) => (i ? 'Bob' : 'Ann') });
      const all = said.join(' ');
      h.check(said.length >= 6 && all.includes('A01') && all.includes('D17') && all.includes(lowerVerse(3)), `${lang}: describe names every card with its label and verse: ${all}`);
      h.check(!/undefined|\{/.test(all), lang + ': no hole in the words');
    }
    const jd = describeTable(view, { t: tOf(ja), lang: 'ja', seat: 0, name: (i) => (i ? 'Bob' : 'Ann') }).join(' ');
    h.check(jd.includes('自陣') && jd.includes('の陣'), 'ja: the sides in Japanese: ' + jd);
    const entry = { events: [{ type: 'read', card: 3, n: 3, void: false }, { type: 'answer', seat: 1, touches: [], poet: null },
      { type: 'judgement', card: 3, taker: 0, void: false, fouls: [0, 0], responses: [], take_ms: 100, decide_ms: 50, owed: 1, sender: 0, receiver: 1, sent_cards: [] },
      { type: 'send', card: 2, seat: 0, to: 1, label: 'D05', row: 1, slot: 5 }] };
    const ann = announce(entry, { t: tOf(en), lang: 'en', seat: 0 });
    h.check(ann.length === 1 && /sent card 2/.test(ann[0]), 'announce: the send, not the judgement again (the table says it briefly): ' + ann);
    h.check(soundOf(entry) === 'capture' && soundOf({ events: [{ type: 'ready', seat: 0 }] }) === 'move', 'soundOf: a take is a capture');
  });

  // ---- helpers: the keyboard and the accessibility tree ----
  /** The name of the focused element (its aria-label, else its text). */
  const focusedName = (page) => page.evaluate(() => {
    const e = document.activeElement;
    if (!e) return '';
    const label = e.labels && e.labels[0] ? e.labels[0].textContent : '';
    return (e.getAttribute('aria-label') || label || e.textContent || '').trim();
  });
  /** Presses Tab (Shift+Tab with back) until the focused element's name matches `re`. */
  async function tabTo(page, re, back = false, max = 80) {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      if (re.test(await focusedName(page))) return;
    }
    throw new Error('Tab never reached ' + re);
  }
  /** The kana heard so far in the reading bar (its accessibility snapshot). */
  async function heard(page, barName) {
    const snap = await page.getByRole('group', { name: barName }).ariaSnapshot();
    const line = /- paragraph: "?([^"\n]*)/.exec(snap);
    return line ? fold((line[1].match(/[\u3040-\u309f]+/g) || []).join('')) : '';
  }
  /** Waits until the kana heard leave one poem of `open` (not yet read); its number, or null if the reading closes. */
  async function deciding(page, barName, open, n) {
    for (const until = Date.now() + 30000; Date.now() < until; ) {
      const st = await h.state(page);
      if (st.over || st.view.readings !== n || st.view.stage !== 'touch') return null;
      const got = await heard(page, barName);
      const c = [...open].filter((p) => keys[p].startsWith(got));
      if (got && c.length === 1) return c[0];
      await page.waitForTimeout(15);
    }
    throw new Error('no deciding kana in reading ' + n);
  }
  const judgedAfter = (page, n) => h.waitState(page, (s, n) => s.over || s.view.readings > n || (s.view.readings === n && s.view.stage !== 'touch'), n, 30000);
  /** Checks that every card's name in the snapshot has the label and the number the server's view gives it. */
  async function namesMatch(page, fieldName, what, cat = en) {
    const st = await h.state(page);
    const want = cardLabels(st.view);
    const got = cardsOf(await page.getByRole('group', { name: fieldName }).ariaSnapshot(), cat);
    h.check(got.length === want.size && got.every((c) => want.get(c.n) === c.label && c.name.includes(lowerVerse(c.n))),
      `${what}: the cards' names (${got.length}) are the view's labels and verses (${want.size})`);
    return got;
  }

  await step('kyōgi against a slow computer by keyboard alone (desktop, English): Ready, touches typed as labels over several readings, a send by label and Enter, to the end; axe at the start, middle and end', async () => {
    const page = await h.page('desktop', { lang: 'en' });
    await page.goto(h.url('/'));
    const t1 = Array.from({ length: 48 }, (_, i) => i + 3);
    const { room } = await h.createRoom(page, {
      game: 'karuta',
      options: { variant: 'kyogi', deal: '1;2/' + t1.join(';'), memo_s: '120', upper_ms: '2500', lower_ms: '1000', yoin_ms: '0', pause_ms: '0', send: 'manual' },
      seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }],
    });
    h.check((await h.join(page, room, 'Ann')) === 0, 'Ann has seat 0');
    const FIELD = 'The field: both territories';
    await page.getByRole('group', { name: FIELD }).waitFor();
    await h.waitState(page, (s) => !!s.memo);
    await h.expectAxeClean(page, 'kyōgi at the start (memorisation), desktop');
    await namesMatch(page, FIELD, 'the start');
    // the field is one Tab stop: the arrow keys move in it
    const stops = await page.evaluate(() => document.querySelectorAll('#kar-field [tabindex="0"]').length);
    h.check(stops === 1, `one Tab stop in the field (${stops})`);
    await tabTo(page, /^[A-F]\d\d: card/);
    const first = await focusedName(page);
    // (the opponent's slot 1 lies at the right end of his row, as it faces him)
    await page.keyboard.press('ArrowRight');
    if ((await focusedName(page)) === first) await page.keyboard.press('ArrowLeft');
    const second = await focusedName(page);
    h.check(first !== second && /^[A-F]\d\d: card/.test(second), `an arrow key moves to the next card: ${first} → ${second}`);
    await page.keyboard.press('ArrowDown');
    const third = await focusedName(page);
    h.check(third.slice(0, 1) !== second.slice(0, 1) && /^[A-F]\d\d: card/.test(third), `ArrowDown moves to the next row: ${second} → ${third}`);
    await h.shot(page, 'focus-desktop', { fullPage: false });
    // the memorisation's Ready, by Tab and Enter
    await tabTo(page, /^Ready: start the readings$/);
    await page.keyboard.press('Enter');
    let open = new Set(Array.from({ length: 100 }, (_, i) => i + 1));
    let took = 0;
    let sent = 0;
    let middle = false;
    let refused = false;
    for (const until = Date.now() + 240000; Date.now() < until; ) {
      const st = await h.state(page);
      if (st.over) break;
      const v = st.view;
      if (v.stage === 'touch' && v.pending.includes(0)) {
        const n = v.readings;
        if (!refused) {
          // a label where no card lies: refused in words, in the reading bar and the log
          refused = true;
          await page.keyboard.type('C17');
          const bar = await page.getByRole('group', { name: 'The reading' }).ariaSnapshot();
          h.check(bar.includes('No card at C17.'), 'a refused label is said: ' + bar);
        }
        const card = await deciding(page, 'The reading', open, n);
        const cards = cardsOf(await page.getByRole('group', { name: FIELD }).ariaSnapshot());
        const on = cards.find((c) => c.n === card);
        if (on) await page.keyboard.type(on.label);
        const after = await judgedAfter(page, n);
        const j = after.view.judgement;
        if (j) open.delete(j.card);
        if (on && j && j.card === card) {
          h.check(j.responses[0] && j.responses[0].touches.some((x) => x.card === card), `reading ${n}: typing ${on.label} touched card ${card}`);
          if (j.taker === 0) took++;
          // the live region said the reading, the touch and the judgement, briefly
          const who = j.taker === 0 ? 'Ann \\(you\\)' : 'computer 2 \\(easy\\)';
          const said = new RegExp(`Touched ${on.label} \\(card ${card}\\)\\.[\\s\\S]*${who} took card ${card} \\(${on.label}\\)\\.`);
          await page.waitForFunction(([src]) => new RegExp(src).test(document.getElementById('announce').textContent), [said.source]).catch(() => {});
          const log = await page.getByRole('log', { name: 'What happens' }).ariaSnapshot();
          h.check(said.test(log) && log.includes(`Reading ${n}`), `reading ${n}: the log says the reading, the touch and the take: ${log}`);
        }
        if (!middle && j) {
          middle = true;
          await h.expectAxeClean(page, 'kyōgi in the middle (a judgement shown), desktop');
          // "Describe the table" (Alt+Shift+D): every card by its label, number and verse, as the server's view has them
          await page.keyboard.press('Alt+Shift+D');
          const words = await page.getByRole('region', { name: 'The table in words' }).ariaSnapshot();
          const now = await h.state(page);
          const want = cardLabels(now.view);
          h.check(want.size > 0 && [...want].every(([c, l]) => words.includes(`${l}: card ${c}, ${lowerVerse(c)}`)), 'the description names every card: ' + words.slice(0, 400));
          h.check(words.includes(`Your side: ${now.view.territories[0].count} card`) && words.includes(`The side of computer 2 (easy): ${now.view.territories[1].count} cards`), 'and each side’s count: ' + words.slice(0, 300));
          await h.shot(page, 'described-desktop', { fullPage: false });
          await page.keyboard.press('Escape');
        }
      } else if (v.stage === 'send' && v.send && v.send.sender === 0) {
        // a card of Ann's by its label: the Send button takes the focus; Enter sends it
        const mine = cardsOf(await page.getByRole('group', { name: FIELD }).ariaSnapshot()).filter((c) => /your side/.test(c.name));
        await page.keyboard.type(mine[0].label);
        h.check(/^Send card \d+$/.test(await focusedName(page)), 'the Send button has the focus: ' + (await focusedName(page)));
        await page.keyboard.press('Enter');
        await h.waitState(page, (x, seq) => x.seq > seq, st.seq);
        sent++;
      } else await page.waitForTimeout(30);
    }
    const end = await h.waitState(page, (s) => s.over, null, 30000);
    console.log(`# kyōgi by keyboard: ${end.view.readings} readings, ${took} taken by typing, ${sent} sent`);
    h.check(took >= 2, `Ann took ${took} cards by typing their labels`);
    await page.getByRole('group', { name: FIELD }).waitFor();
    await h.expectAxeClean(page, 'kyōgi at the end, desktop');
  });

  await step('uta-karuta, answer=poet, on a phone in Japanese by keyboard alone: a card typed, its poet chosen with Tab and Enter, to the end; Escape clears a half-typed label; axe at the start, middle and end', async () => {
    const page = await h.page('phone', { lang: 'ja' });
    await page.goto(h.url('/'));
    // pool=auto: each hand's lowest card goes to the pool; Ann keeps card 6
    // owner_ms=0: anyone may answer at once; Ann's right answer on a computer's card gives him her
    // card (KA-U6): her hand empties, she wins
    const deal = ['5;6', '10;11;13;23;24;25', '14;15;16;26;27;28', '18;19;20;29;30;31'].join('/');
    const { room } = await h.createRoom(page, {
      game: 'karuta',
      options: { variant: 'uta', deal, answer: 'poet', pool: 'auto', owner_ms: '0', memo_s: '0', upper_ms: '3000', lower_ms: '1000', yoin_ms: '0', pause_ms: '0', wrong_answer: 'none' },
      seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }],
    });
    h.check((await h.join(page, room, 'Ann')) === 0, 'Ann has seat 0');
    const BAR = ja['karuta.a11y.readingBar'];
    await page.getByRole('group', { name: BAR }).waitFor();
    let st = await h.waitState(page, (s) => s.view.stage === 'touch' || s.view.stage === 'read');
    await h.expectAxeClean(page, 'uta at the start, phone, ja');
    // the focus ring on a card (Tab into the field), and the table described (Alt+Shift+D), on the phone
    await tabTo(page, /^[A-DP]\d\d：/);
    await h.shot(page, 'focus-phone-ja', { fullPage: false });
    await page.keyboard.press('Alt+Shift+D');
    const words = await page.getByRole('region', { name: ja['room.a11y.words'] }).ariaSnapshot();
    const now = await h.state(page);
    h.check([...cardLabels(now.view)].every(([c, l]) => words.includes(`${l}：${c}番の札、${lowerVerse(c)}`)), 'ja: the description names every card: ' + words.slice(0, 300));
    await h.shot(page, 'described-phone-ja', { fullPage: false });
    await page.keyboard.press('Escape');
    // Escape clears a half-typed label
    await page.keyboard.type('A0');
    h.check((await page.getByRole('group', { name: BAR }).ariaSnapshot()).includes(ja['karuta.a11y.typing'].replace('{label}', 'A0')), 'the half-typed label is shown');
    await page.keyboard.press('Escape');
    h.check(!(await page.getByRole('group', { name: BAR }).ariaSnapshot()).includes(ja['karuta.a11y.typing'].replace('{label}', 'A0')), 'Escape clears it');
    const open = new Set(Array.from({ length: 100 }, (_, i) => i + 1));
    let named = 0;
    let middle = false;
    for (const until = Date.now() + 240000; Date.now() < until; ) {
      st = await h.state(page);
      if (st.over) break;
      const v = st.view;
      if (!(v.stage === 'touch' && v.pending.includes(0))) {
        await page.waitForTimeout(30);
        continue;
      }
      const n = v.readings;

      const inPlay = new Set(cardsOf(await page.locator('#kar-field').ariaSnapshot(), ja).map((c) => c.n));
      const card = await deciding(page, BAR, new Set([...open].filter((c) => inPlay.has(c))), n);
      const on = cardsOf(await page.locator('#kar-field').ariaSnapshot(), ja).find((c) => c.n === card && !c.name.includes(ja['karuta.a11y.inPool']));
      if (on) {
        await page.keyboard.type(on.label);
        // the poets' panel has the focus: Tab to the card's poet, Enter
        const poet = CARDS[card][2];
        for (let k = 0; k < 8 && !(await focusedName(page)).includes(poet); k++) await page.keyboard.press('Tab');
        h.check((await focusedName(page)).includes(poet), `the poet ${poet} reached by Tab: ${await focusedName(page)}`);
        await page.keyboard.press('Enter');
        named++;
      }

      const after = await judgedAfter(page, n);
      const j = after.view.judgement;
      if (j) open.delete(j.card);
      if (on && j && j.card === card) h.check(j.responses[0] && j.responses[0].poet !== null && j.responses[0].touches.some((x) => x.card === card), `reading ${n}: ${on.label} touched and a poet named: ${j.text}`);
      if (!middle && j) {
        middle = true;
        await h.expectAxeClean(page, 'uta in the middle, phone, ja');
      }
    }
    st = await h.waitState(page, (s) => s.over, null, 30000);
    console.log(`# uta by keyboard: ${st.view.readings} readings, ${named} answers typed with the poet, winner ${st.result && st.result.winner}`);
    h.check(named >= 1 && st.result && st.result.winner === 0, `Ann answered ${named} by keyboard and won (her hand is empty)`);
    await h.expectAxeClean(page, 'uta at the end, phone, ja');
    await h.shot(page, 'uta-over-phone-ja', { fullPage: false });
  });

  await step('rearranging by keyboard (rearrange=on, phone, Japanese): a card chosen by its label, moved with an arrow key and Enter; Ready by Tab and Enter', async () => {
    const page = await h.page('phone', { lang: 'ja' });
    await page.goto(h.url('/'));
    const { room } = await h.createRoom(page, {
      game: 'karuta',
      options: { variant: 'kyogi', deal: '1;2;3/4;5;6', memo_s: '0', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '0', rearrange: 'on' },
      seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }],
    });
    h.check((await h.join(page, room, 'Ann')) === 0, 'Ann has seat 0');
    const arranging = (s) => s.view.stage === 'arrange' && s.view.pending.includes(0) && s.legal.some((e) => e.action.startsWith('arrange '));
    // the first time: Ready (nothing moved), by Tab and Enter
    let st = await h.waitState(page, arranging, null, 120000);
    const first = st.view.readings;
    await tabTo(page, new RegExp('^' + ja['karuta.do.ready'] + '$'));
    await page.keyboard.press('Enter');
    await h.waitState(page, (x, n) => x.view.readings > n || !x.view.pending.includes(0), first);
    // the next time: a card of Ann's by its label; the focus goes to an empty slot; an arrow key, Enter
    st = await h.waitState(page, (x, n) => x.view.readings > n && arranging(x), first, 120000);
    const FIELD = ja['karuta.field'];
    const cards = await namesMatch(page, FIELD, 'arrange', ja);
    const own = cards.find((c) => c.name.includes(ja['karuta.a11y.ownSide']));
    await page.keyboard.type(own.label);
    const slot1 = await focusedName(page);
    h.check(/[A-C]\d\d/.test(slot1), 'the choice moves the focus to an empty slot: ' + slot1);
    await h.shot(page, 'arrange-phone-ja', { fullPage: false });
    await page.keyboard.press('ArrowRight');
    const slot2 = await focusedName(page);
    const label = /([A-C]\d\d)/.exec(slot2)[1];
    await page.keyboard.press('Enter');
    // (other states may come first: the computer's)
    const after = await h.waitState(page, (x, o) => x.view.territories[0].cards.some((c) => c.card === o.n && c.label !== o.label) || x.view.readings > o.r, { n: own.n, label: own.label, r: st.view.readings });
    const moved = after.view.territories[0].cards.find((c) => c.card === own.n);
    h.check(moved && moved.label === label, `card ${own.n} moved from ${own.label} to ${label} (${moved && moved.label})`);
    await h.expectAxeClean(page, 'kyōgi rearranging, phone, ja');
  });

  await step('practice by keyboard (desktop): the level and the size chosen, Start, the name typed, a card touched by its label', async () => {
    const page = await h.page('desktop', { lang: 'en' });
    await page.goto(h.url('/#practice'));
    await page.getByRole('heading', { name: 'Practice against the computer' }).waitFor();
    await h.expectAxeClean(page, 'the practice page, desktop');
    await tabTo(page, /^Computer level/);
    await page.keyboard.press('Home'); // the first level: easy
    await tabTo(page, /^Cards a side/);
    await page.keyboard.press('Home'); // 5 cards
    await tabTo(page, /^Start$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/room\//);
    await tabTo(page, /^Your name/);
    await page.keyboard.type('Ann');
    await page.keyboard.press('Enter');
    const st = await h.waitState(page, (s) => s.seat === 0 && s.view && s.view.territories, null, 30000);
    h.check(st.seats[1].kind === 'ai' && st.seats[1].level === 'easy' && st.view.territories[0].count === 5, 'easy, 5 cards a side');
    const open = new Set(Array.from({ length: 100 }, (_, i) => i + 1));
    for (let guard = 0; guard < 40; guard++) {
      const s2 = await h.waitState(page, (s) => s.over || (s.view.stage === 'touch' && s.view.pending.includes(0)) || (s.view.stage === 'send' && s.view.send.sender === 0), null, 30000);
      if (s2.over) break;
      if (s2.view.stage === 'send') {
        // the computer fouled: Ann sends it a card of hers, by its label and Enter
        const mine = cardsOf(await page.getByRole('group', { name: 'The field: both territories' }).ariaSnapshot()).filter((c) => /your side/.test(c.name));
        await page.keyboard.type(mine[0].label);
        await page.keyboard.press('Enter');
        await h.waitState(page, (x, seq) => x.seq > seq, s2.seq);
        continue;
      }
      const n = s2.view.readings;
      const card = await deciding(page, 'The reading', open, n);
      const on = cardsOf(await page.getByRole('group', { name: 'The field: both territories' }).ariaSnapshot()).find((c) => c.n === card);
      if (on) await page.keyboard.type(on.label);
      const j = (await judgedAfter(page, n)).view.judgement;
      if (j) open.delete(j.card);
      if (on && j && j.card === card) {
        h.check(j.responses[0].touches.some((x) => x.card === card), `the practice: ${on.label} typed touched card ${card}`);
        return;
      }
    }
    throw new Error('no card of the practice game was read in 40 readings');
  });

  await step('comfort: text at 200 % (phone and desktop) holds the table; prefers-reduced-motion stops its transitions', async () => {
    for (const size of ['phone', 'desktop']) {
      const page = await h.page(size, { lang: 'en' });
      await page.goto(h.url('/'));
      const { room } = await h.createRoom(page, {
        game: 'karuta',
        options: { variant: 'kyogi', deal: '1;2;3;4;5/6;7;8;9;10', memo_s: '600', upper_ms: '1000', lower_ms: '1000' },
        seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }],
      });
      await h.join(page, room, 'Ann');
      await page.getByRole('button', { name: 'Ready: start the readings' }).waitFor();
      await page.keyboard.press('Tab'); // keyboard mode: the labels on the cards too
      await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
      await page.waitForTimeout(300);
      const parts = { status: '#kar-status', reading: '#kar-reading', field: '#kar-field svg', ready: '#kar-ready' };
      const boxes = await page.evaluate((parts) => {
        const out = {};
        for (const [k, sel] of Object.entries(parts)) {
          const r = document.querySelector(sel).getBoundingClientRect();
          out[k] = { l: r.left, r: r.right, t: r.top + scrollY, b: r.bottom + scrollY, w: r.width, h: r.height };
        }
        out.vw = document.documentElement.clientWidth;
        out.sw = document.documentElement.scrollWidth;
        out.fs = parseFloat(getComputedStyle(document.querySelector('#kar-status')).fontSize);
        return out;
      }, parts);
      h.check(boxes.fs >= 30, `${size}: the status's text is twice its size (${boxes.fs} px)`);
      h.check(boxes.sw <= boxes.vw + 1, `${size} 200 %: no horizontal scroll (${boxes.sw} in ${boxes.vw})`);
      const names = Object.keys(parts);
      for (const k of names) h.check(boxes[k].w > 20 && boxes[k].h > 10 && boxes[k].l >= -1 && boxes[k].r <= boxes.vw + 1, `${size} 200 %: ${k} shown inside the window: ${JSON.stringify(boxes[k])}`);
      for (let a = 0; a < names.length; a++)
        for (let b = a + 1; b < names.length; b++) {
          const A = boxes[names[a]], B = boxes[names[b]];
          const over = Math.min(A.r, B.r) - Math.max(A.l, B.l) > 1 && Math.min(A.b, B.b) - Math.max(A.t, B.t) > 1;
          h.check(!over, `${size} 200 %: ${names[a]} and ${names[b]} do not overlap`);
        }
      h.expectLayout(await h.layout(page, { root: '.kar-table', allowOverlap: '.kar-svg' }), size + ', 200 % text');
      await h.shot(page, 'text200-' + size, { fullPage: false });
      // reduced motion: the cards' highlight changes at once
      const dur = () => page.evaluate(() => getComputedStyle(document.querySelector('.kar-face')).transitionDuration);
      h.check((await dur()) !== '0s', `${size}: the cards' highlight is a short transition by default (${await dur()})`);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const all = await page.evaluate(() => [...document.querySelectorAll('.kar-table *')].filter((e) => {
        const cs = getComputedStyle(e);
        // (app.css's rule leaves 0.01 ms: none a person sees)
        const long = (v) => v.split(',').some((d) => parseFloat(d) * (d.trim().endsWith('ms') ? 0.001 : 1) > 0.001);
        return long(cs.transitionDuration) || (cs.animationName !== 'none' && long(cs.animationDuration));
      }).length);
      h.check(all === 0, `${size}, reduced motion: no transition or animation in the table (${all}; the cards' ${await dur()})`);
    }
  });
});
