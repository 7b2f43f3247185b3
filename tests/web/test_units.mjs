// test_units.mjs — pure functions of the page, in node: the seats of a room
// by game and options (lobby.js seatCount), a record cut into upload parts
// (replay.js partsOf: each at most 6000 bytes, also JSON-escaped, joined back
// to the same text, no surrogate pair split), the steps of a `replay`
// answer (stepsOf), the result in words (room.js resultText), the WebSocket's
// path by page (net.js wsPath: a room's page names the room for nginx).

import { seatCount } from '../../web/js/lobby.js';
import { partsOf, stepsOf } from '../../web/js/replay.js';
import { resultText } from '../../web/js/room.js';
import { wsPath } from '../../web/js/net.js';
import { reviewError } from '../../web/js/review.js';
import { seekError } from '../../web/js/playnow.js';
import { setLang, t } from '../../web/js/i18n.js';

let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else failed++;
  console.log(`${cond ? 'ok' : 'not ok'} - units: ${what}`);
}

check(wsPath('/') === '/ws' && wsPath('/room/ab12cd') === '/ws?room=ab12cd' && wsPath('/room/ab12cd/') === '/ws?room=ab12cd' && wsPath('/replay') === '/ws' && wsPath('/room/a/b') === '/ws', 'wsPath: /ws?room=CODE on a room page, else /ws');
check(seatCount('ur', {}) === 2, 'ur: 2 seats');
check(seatCount('cbw', {}) === 4 && seatCount('cbw', { players: '2' }) === 4 && seatCount('cbw', { players: '6' }) === 6, 'cbw: 4, 4 for players=2, 6');
check(seatCount('tamcuc', { players: '3' }) === 3 && seatCount('tamcuc', {}) === 4, 'tamcuc: players');
check(seatCount('karuta', {}) === 2 && seatCount('karuta', { variant: 'uta' }) === 4 && seatCount('karuta', { variant: 'chirashi', players: '5' }) === 5, 'karuta: by variant and players');

const enc = new TextEncoder();
for (const [name, text] of [
  ['ascii', JSON.stringify({ actions: Array.from({ length: 3000 }, (_, i) => ({ seat: i % 2, action: 'touch ' + i + '@1234' })) })],
  ['quotes', '"'.repeat(20000)],
  ['control', '\u0001'.repeat(9000)],
  ['kana and emoji', 'かるた🎴'.repeat(4000)],
  ['empty', ''],
]) {
  const parts = partsOf(text);
  const ok =
    parts.join('') === text &&
    parts.every((p) => p.length > 0 && enc.encode(p).length <= 6000 && enc.encode(JSON.stringify(p)).length - 2 <= 6000 && !/[\ud800-\udbff]$/.test(p));
  check(ok, `partsOf ${name}: ${parts.length} parts, each ≤ 6000 bytes escaped, joined back`);
}

const steps = stepsOf({ type: 'replay', steps: [{ seq: 0, view: { game: 'ur' }, entry: null, legal: [] }, { seq: 1, view: { game: 'ur' }, entry: { seq: 0, seat: -1, text: 'roll 2', said: '' }, legal: [{ action: 'enter', long: 'enter', chance: 0.5 }] }, { seq: 2, view: { game: 'ur' }, entry: { seq: 1, seat: 1, text: 'enter', said: 'x' }, legal: [] }] });
check(steps.length === 3 && steps[1].seat === -1 && steps[1].legal[0].chance === 0.5 && steps[0].entry === null && steps[2].seat === 1 && steps[2].entry.seq === 1, 'stepsOf: entries (with their seat) and legal');
check(steps.every((s) => !('text' in s)), 'stepsOf: no notation to show (the steps are told from their events: issue 31, §4)');

const seats = [{ kind: 'person', name: 'Ann' }, { kind: 'ai', level: 'easy' }];
check(resultText({ kind: 'seat', winner: 0, score: [7, 3] }, seats, 0) === 'You win! Score: Ann 7, computer 2 (easy) 3.', 'resultText: you win');
check(resultText({ kind: 'seat', winner: 0, score: [7, 3] }, seats, 1) === 'Ann wins. Score: Ann 7, computer 2 (easy) 3.', 'resultText: the other wins');
check(resultText({ kind: 'seat', winner: 2, score: [1, 0, 5] }, [seats[0], seats[1], seats[1]], 0) === 'computer 3 (easy) wins. Score: Ann 1, computer 2 (easy) 0, computer 3 (easy) 5.', 'resultText: which computer won, by its seat');
check(resultText({ kind: 'draw', winner: null, score: [1, 1] }, seats, -1) === 'A draw. Score: Ann 1, computer 2 (easy) 1.', 'resultText: a draw');
check(resultText({ kind: 'team', winner: 1, score: [1, 2, 1, 2] }, seats.concat(seats), 0, [0, 1, 0, 1]) === 'Team 2 wins (computer 2 (easy), computer 4 (easy)). Score: Team 1 1, Team 2 2.', 'resultText: a team of a game without team names');
// uta-karuta's numbers are the cards left: the result says so (issue 31 §6)
check(resultText({ kind: 'seat', winner: 0, score: [0, 3] }, seats, 1, null, 'karuta', 'uta') === 'Ann wins. Cards left (fewer is better): Ann 0, computer 2 (easy) 3.', 'resultText: uta counts cards left');
check(resultText({ kind: 'seat', winner: 0, score: [0, 3] }, seats, 1, null, 'karuta', 'chirashi').includes('Score:'), 'resultText: a variant without its own words keeps "Score"');
// one name for a team: the game's own (cbw: team 0 Red, team 1 Black, as its table says), in both languages
const six = [{ kind: 'person', name: 'Ann' }, { kind: 'person', name: 'Bob' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }];
check(resultText({ kind: 'team', winner: 1, score: [3, 9, 3, 9, 3, 9] }, six, 0, [0, 1, 0, 1, 0, 1], 'cbw') === 'Black wins (Bob, computer 4 (easy), computer 6 (easy)). Score: Red 3, Black 9.', 'resultText: cbw names Black, team 1');
check(resultText({ kind: 'team', winner: 0, score: [9, 3, 9, 3] }, six.slice(0, 4), 0, [0, 1, 0, 1], 'cbw') === 'Your team, Red, wins (Ann, computer 3 (easy))! Score: Red 9, Black 3.', 'resultText: cbw, my team Red');
check(t('cbw.cards', { n: 1 }) === '1 card' && t('cbw.cards', { n: 2 }) === '2 cards' && t('cbw.cards', { n: 0 }) === '0 cards', 't: the .one text for n = 1 only');
// issue 16: "Score: -2 – -1 – 3" named nobody and ran minus signs into dashes
const three = [{ kind: 'person', name: 'Ann' }, { kind: 'person', name: 'Bob' }, { kind: 'ai', level: 'easy' }];
const neg = { kind: 'seat', winner: 2, score: [-2, -1, 3] };
check(resultText(neg, three, 0) === 'computer 3 (easy) wins. Score: Ann \u22122, Bob \u22121, computer 3 (easy) 3.', 'resultText: negative scores with U+2212 and the seats\' names: ' + resultText(neg, three, 0));
check(!/-/.test(resultText(neg, three, 0)), 'resultText: no hyphen-minus for a negative score');
setLang('ru');
check(resultText(neg, three, 0) === 'Победитель: компьютер 3 (лёгкий). Счёт: Ann \u22122, Bob \u22121, компьютер 3 (лёгкий) 3.', 'resultText in Russian: negative scores with U+2212 and the seats\' names: ' + resultText(neg, three, 0));
check(resultText({ kind: 'team', winner: 1, score: [3, 9, 3, 9] }, six.slice(0, 4), -1, [0, 1, 0, 1], 'cbw') === 'Победа: Чёрные (Bob, компьютер 4 (лёгкий)). Счёт: Красные 3, Чёрные 9.', 'resultText: cbw in Russian: ' + resultText({ kind: 'team', winner: 1, score: [3, 9, 3, 9] }, six.slice(0, 4), -1, [0, 1, 0, 1], 'cbw'));
check(!/[Кк]оманда 2/.test(resultText({ kind: 'team', winner: 1, score: [3, 9, 3, 9] }, six.slice(0, 4), 0, [0, 1, 0, 1], 'cbw')), 'resultText: cbw in Russian names no "team 2"');
setLang('en');

// a refused or failed review in the catalogue's words, never the server's English message (wt-audit)
for (const lg of ['en', 'ru', 'ja', 'vi']) {
  setLang(lg);
  for (const error of ['room', 'game', 'rate', 'over', 'review', 'storage', 'shape']) {
    const said = reviewError({ type: 'error', error, request: 'review', message: 'no such room (server words)' });
    check(typeof said === 'string' && said && !said.includes('server words') && !said.includes('\u27e6'), `reviewError ${error} in ${lg}: ${said}`);
  }
}
check(reviewError({ error: 'room', message: 'x' }) !== reviewError({ error: 'review', message: 'x' }), 'reviewError: no such room is told apart');
for (const lg of ['en', 'ru', 'ja', 'vi']) {
  setLang(lg);
  for (const error of ['full', 'storage', 'rate', 'seek', 'options', 'shape']) {
    const said = t('playnow.error', { message: seekError({ type: 'error', error, request: 'seek', message: 'pool full (server words)' }) });
    check(!said.includes('server words') && !said.includes('\u27e6'), `seekError ${error} in ${lg}: ${said}`);
  }
}
setLang('en');

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
