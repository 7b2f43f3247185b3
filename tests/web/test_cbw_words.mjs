// test_cbw_words.mjs — City Behind Walls told from data, in node: the words
// of web/games/cbw.js (`tell`, `actionWords`, used by the room and the
// replay, web/js/events.js) for the events and fields the server sends
// (docs/web-views.md, cbw "Events", "Action fields"), in English and in
// Russian: a placement (without coordinates: with no table to name the card
// beside it, the card alone), a fixed wall, two captured groups in one sentence,
// the mover's own loss, a pass, the castles and the score at the end, the
// opening team; a legal placement with what it captures.

import { tell, actionWords } from '../../web/games/cbw.js';
import { setLang, t, has } from '../../web/js/i18n.js';

let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else failed++;
  console.log(`${cond ? 'ok' : 'not ok'} - cbw_words: ${what}`);
}
function same(got, want, what) {
  check(JSON.stringify(got) === JSON.stringify(want), `${what}: ${JSON.stringify(got)}`);
}

// seat 0's Q♥ at 1,2 fixes the walls and captures two Black groups (tests/test_rules_cbw_events.c)
const capture = {
  seq: 9, seat: 0, text: 'QH@1,2',
  events: [
    { card: 'QH', seat: 0, type: 'place', x: 1, y: 2 },
    { axis: 'y', edges: [0, 2], type: 'fix' },
    { by: 0, cards: [{ card: '9S', x: 1, y: 0 }], lost: 1, seat: 0, type: 'capture' },
    { by: 0, cards: [{ card: 'JC', x: 3, y: 0 }, { card: '10C', x: 3, y: 1 }], lost: 1, seat: 0, type: 'capture' },
  ],
};
const loss = {
  seq: 4, seat: 0, text: 'QD@1,2',
  events: [
    { card: 'QD', seat: 0, type: 'place', x: 1, y: 2 },
    { by: 1, cards: [{ card: '7H', x: 1, y: 0 }], lost: 0, seat: 0, type: 'capture' },
  ],
};
const end = {
  seq: 30, seat: 3, text: 'pass',
  events: [
    { passes: 4, seat: 3, type: 'pass' },
    { cells: [{ x: 1, y: 1 }], team: 0, type: 'castle' },
    { castles: [1, 0], prisoners: [0, 1], score: [1, 1], type: 'end', winner: null },
  ],
};
const ctx = (seat) => ({ t, has, lang: 'en', seat });

setLang('en');
same(tell(capture, ctx(1)), [
  'Seat 1 laid Q♥.',
  'The bottom and top walls stand now: the city is 3 cards high.',
  'Q♥ captured 9♠ and J♣ 10♣: 3 prisoners for Red.',
], 'a capture of two groups, told to another seat');
same(tell(capture, ctx(0)), ['You laid Q♥.', 'The bottom and top walls stand now: the city is 3 cards high.', 'Q♥ captured 9♠ and J♣ 10♣: 3 prisoners for Red.'], 'told to the mover');
same(tell(loss, ctx(-1)).slice(-1), ['Q♦ left its own 7♥ without liberty: 1 prisoner for Black.'], 'the mover’s own loss');
same(tell(end, ctx(0)), ['Seat 4 passed.', 'A castle of Red: 1 cell.', 'Game over: a draw, 1 : 1.'], 'the end: a pass, a castle, the score');
same(tell({ seq: 0, seat: -1, text: 'first black', events: [{ team: 1, type: 'first' }] }, ctx(0)), ['Black opens.'], 'the opening team');
same(tell({ seq: 1, seat: 0, text: 'x', events: [] }, ctx(0)), [], 'no events, nothing told');
same(actionWords({ action: 'QH@1,2', seat: 0, fields: { captures: 2, card: 'QH', loses: 0, move: 'place', x: 1, y: 2 } }, ctx(0)), 'Q♥, captures 2', 'a placement that captures (no table: no cell named)');
same(actionWords({ action: '7D@0,0', seat: 0, fields: { captures: 0, card: '7D', loses: 0, move: 'place', x: 0, y: 0 } }, ctx(0)), '7♦', 'a placement');
same(actionWords({ action: 'pass', seat: 0, fields: { move: 'pass' } }, ctx(0)), 'Pass', 'a pass');

setLang('ru');
const ru = tell(capture, ctx(1));
same(ru.slice(-1), ['Q♥ берёт в плен 9♠ и J♣ 10♣; пленных для команды «Красные»: 3.'], 'in Russian');
check(!ru.join(' ').match(/captured|prisoner|walls|placed/), 'no English in the Russian words');
same(tell(end, { t, has, lang: 'ru', seat: 0 }).slice(-1), ['Игра окончена: ничья, 1 : 1.'], 'the end in Russian');

// no coordinates, notation or rule ids in any of it, in either language
for (const lang of ['en', 'ru']) {
  setLang(lang);
  const all = [capture, loss, end].flatMap((e) => tell(e, { t, has, lang, seat: 0 })).join(' ');
  check(!/-?\d+,-?\d+|@|CBW-R/.test(all), `${lang}: no coordinates or notation: ${all}`);
}

console.log(`# cbw_words: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
