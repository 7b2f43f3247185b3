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
    // a hand of 20 on a 360 px phone: wrapped into lines of cards large enough to read and tap
    const widths = await ann.evaluate(() => [...document.querySelectorAll('svg[data-zone="hand1"] .kar-card')].map((g) => g.getBoundingClientRect().width));
    h.check(widths.length >= 19 && Math.min(...widths) >= 32, `the cards of a 20-card hand (19 once its pool card is chosen) are ≥ 32 px wide on the phone (${Math.round(Math.min(...widths))} px)`);
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

  await h.step('kyōgi, place=manual: a person (desktop) against the computer, received cards placed by drag and by tap, to the end', async () => {
    const ann = await h.page('desktop', { lang: 'en' });
    await ann.goto(h.url('/'));
    const t1 = Array.from({ length: 48 }, (_, i) => i + 3);
    const { room } = await h.createRoom(ann, {
      game: 'karuta',
      options: { variant: 'kyogi', deal: '1;2/' + t1.join(';'), place: 'manual', send: 'manual', ...fast },
      seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }],
    });
    h.check((await h.join(ann, room, 'Ann')) === 0, 'Ann has seat 0');
    let placedDrag = false;
    let placedTap = false;
    let fouls = 0;
    for (const until = Date.now() + 300000; Date.now() < until; ) {
      const st = await h.state(ann);
      if (st.over) break;
      const v = st.view;
      if (v.stage === 'touch' && v.pending.includes(0)) {
        const n = v.readings;
        const d = await decide(ann, n);
        if (d.timeout) throw new Error('no deciding kana in reading ' + n);
        const where = d.card === null ? -1 : v.territories.findIndex((t) => t.cards.some((c) => c.card === d.card));
        // until both received cards are placed Ann takes nothing (her territory must not empty first)
        if ((where < 0 && (d.card === null || fouls >= 2)) || (where >= 0 && !(placedDrag && placedTap))) {
          await judged(ann, n);
          continue;
        }
        if (where < 0) {
          // a dead card: a touch anywhere is a foul (KA-R8), and the computer sends Ann a card (KA-R9)
          const wrong = v.territories[1].cards.find((c) => c.row).card;
          await ann.locator(`.kar-card[data-card="${wrong}"]`).click();
          await ann.locator(`.kar-card.kar-touched[data-card="${wrong}"]`).waitFor();
        } else {
          await ann.waitForTimeout(FAST);
          await ann.locator(`.kar-card[data-card="${d.card}"]`).click();
        }
        const j = (await judged(ann, n)).view.judgement;
        const words = await ann.locator('#kar-judgement').textContent();
        if (j.fouls[0] > 0) {
          fouls++;
          h.check(/foul/.test(words) && /sends 1 card to Ann \(you\)/.test(words), 'the foul and the send, in words: ' + words);
        }
      } else if (v.stage === 'send' && v.send && v.send.sender === 0) {
        const own = v.territories[0].cards.filter((c) => c.row);
        await ann.locator(`.kar-card[data-card="${own[own.length - 1].card}"]`).click();
        await ann.locator('.kar-act.kar-main[data-action^="send "]').click();
        await h.waitState(ann, (x, seq) => x.seq > seq, st.seq);
      } else if (v.stage === 'place' && v.send && v.send.receiver === 0 && st.legal.some((e) => e.action.startsWith('place '))) {
        h.check(/Place the received card/.test(await ann.locator('#kar-status').textContent()), 'the table asks Ann to place the card');
        const m = /^place (\d+)@(\d+),(\d+)$/.exec(st.legal[st.legal.length - 1].action);
        const card = ann.locator(`svg[data-zone="place"] .kar-card[data-card="${m[1]}"]`);
        await card.waitFor();
        if (!placedDrag) {
          placedDrag = true;
          const box = await card.boundingBox();
          await ann.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          await ann.mouse.down();
          await ann.mouse.move(box.x + box.width / 2 + 12, box.y + box.height / 2 - 12, { steps: 3 });
          const slot = await ann.locator(`.kar-slot[data-target="slot"][data-slot="${m[2]},${m[3]}"]`).boundingBox();
          h.expectLayout(await h.layout(ann), 'kyōgi, placing a received card (desktop)');
          await h.shot(ann, 'place-desktop');
          await ann.mouse.move(slot.x + slot.width / 2, slot.y + slot.height / 2, { steps: 6 });
          await ann.mouse.up();
        } else {
          placedTap = true;
          await card.click();
          await ann.locator(`.kar-slot[data-target="slot"][data-slot="${m[2]},${m[3]}"]`).click();
        }
        const after = await h.waitState(ann, (x, seq) => x.seq > seq, st.seq);
        const c = after.view.territories[0].cards.find((x) => x.card === Number(m[1]));
        h.check(c && c.row === Number(m[2]) && c.slot === Number(m[3]), `card ${m[1]} placed at ${m[2]},${m[3]} by ${placedTap ? 'two clicks' : 'drag'}`);
      } else await ann.waitForTimeout(40);
    }
    const st = await h.waitState(ann, (s) => s.over, null, 30000);
    console.log(`# kyōgi place=manual: ${st.view.readings} readings, ${fouls} fouls`);
    h.check(placedDrag && placedTap, `placed by drag ${placedDrag}, by tap ${placedTap}`);
    h.check(st.result && st.result.winner === 0 && st.view.territories[0].count === 0, 'Ann won: her territory is empty');
    h.check(/won/.test(await ann.locator('#kar-status').textContent()), 'the table says who won');
  });

  await h.step('chirashi-dori: two people touch the shared field (desktop English, phone Russian): takes, a foul into the pot', async () => {
    const ann = await h.page('desktop', { lang: 'en' });
    const bob = await h.page('phone', { lang: 'ru' });
    await ann.goto(h.url('/'));
    const field = Array.from({ length: 40 }, (_, i) => i + 1).join(';');
    const { room } = await h.createRoom(ann, {
      game: 'karuta',
      options: { variant: 'chirashi', deal: field, foul: 'pot', ...fast },
      seats: [{ kind: 'person' }, { kind: 'person' }],
    });
    h.check((await h.join(ann, room, 'Ann')) === 0, 'Ann has seat 0');
    h.check((await h.join(bob, room, 'Bob')) === 1, 'Bob has seat 1');
    let annTook = 0;
    let bobTook = 0;
    let foul = false;
    for (let guard = 0; guard < 30 && !(annTook >= 2 && bobTook >= 1 && foul); guard++) {
      const st = await h.waitState(ann, (s) => s.view.stage === 'touch' && s.view.pending.length === 2, null, 30000);
      const n = st.view.readings;
      const [a, b] = await Promise.all([decide(ann, n), decide(bob, n)]);
      if (a.timeout || b.timeout) throw new Error('no deciding kana in reading ' + n);
      if (a.card === null || !st.view.field.includes(a.card)) {
        await judged(ann, n);
        continue;
      }
      // Bob takes the second card in play; Ann the others; once Ann (holding a card) first touches a wrong one
      const bobTurn = annTook >= 1 && bobTook === 0;
      const fouling = !bobTurn && annTook >= 1 && !foul;
      const [page, phone] = bobTurn ? [bob, true] : [ann, false];
      if (fouling) {
        const wrong = st.view.field.find((c) => c !== a.card);
        await ann.locator(`.kar-card[data-card="${wrong}"]`).click();
        await ann.locator(`.kar-card.kar-touched[data-card="${wrong}"]`).waitFor();
      } else await page.waitForTimeout(FAST);
      await tap(page, page.locator(`.kar-card[data-card="${a.card}"]`), phone);
      h.check((await (bobTurn ? ann : bob).locator('.kar-touched').count()) === 0, 'the other touched nothing');
      const j = (await judged(ann, n)).view.judgement;
      h.check(j.card === a.card && j.taker === (bobTurn ? 1 : 0), `reading ${n}: the first to touch took it (${j.text})`);
      const words = await ann.locator('#kar-judgement').textContent();
      await judged(bob, n);
      await bob.locator('#kar-judgement h3').waitFor();
      const bobWords = await bob.locator('#kar-judgement').textContent();
      if (bobTurn) {
        bobTook++;
        h.check(words.includes('Bob took it') && bobWords.includes('Bob (вы) взял(а) её'), `who took, in words: ${words} / ${bobWords}`);
      } else {
        annTook++;
        h.check(words.includes('Ann (you) took it'), 'who took, in words: ' + words);
      }
      if (fouling) {
        foul = true;
        h.check(j.fouls[0] === 1 && /foul/.test(words), 'Ann’s wrong touch is a foul: ' + words);
        const after = await h.state(ann);
        h.check(after.view.pot === 1, 'the foul put a taken card in the pot (KA-S3)');
        h.check(/pot: 1/.test(await ann.locator('#kar-counts').textContent()), 'the pot is shown: ' + (await ann.locator('#kar-counts').textContent()));
      }
    }
    h.check(annTook >= 2 && bobTook >= 1 && foul, `Ann took ${annTook}, Bob ${bobTook}, a foul ${foul}`);
    const counts = await bob.locator('#kar-counts').textContent();
    h.check(counts.includes('Bob (вы) взял(а) 1') && /в банке: \d/.test(counts), 'Bob’s page counts the takes and the pot: ' + counts);
    h.expectLayout(await h.layout(bob), 'chirashi, phone, after takes');
    await h.shot(bob, 'chirashi-play-phone');
  });
});
