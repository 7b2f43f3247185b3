// record.js — the room's records (issue 31, §7): which button a player gets,
// and the file a `record` answer becomes, named for what it holds, with a
// line that says so. The server answers `record {who: "seat"}` with
// (docs/records.md, "A record from a room"):
//   - in a game that hides nothing (Ur), before the end: the whole record so
//     far (format "parlour-record", a fresh seed in place of the room's);
//   - in a game with hidden cards: the seat's own record ("parlour-record-view":
//     only its cards, and each move's events as it saw them);
// and `record {who: "referee"}`, once the game is over, with the whole record.
// The replay page (js/replay.js) and `parlour replay` open the whole record;
// the replay page also steps through a seat's own record, in words.

import { t } from './i18n.js';
import { h, download } from './dom.js';

/** What a record holds: 'full' (a finished game's whole record), 'sofar'
 * (the whole record of a game still being played) or 'own' (one seat's). */
export function recordKind(rec) {
  if (rec && rec.format === 'parlour-record-view') return 'own';
  return rec && rec.result ? 'full' : 'sofar';
}

/** The file name of record `rec` of room `code`: it says whose and what. */
export function recordFileName(rec, code, game) {
  const g = (rec && rec.game) || game || 'game';
  const room = code ? '-' + String(code).slice(0, 8) : '';
  const kind = recordKind(rec);
  if (kind === 'own') return `parlour-${g}${room}-your-record-seat${Number(rec.viewer) + 1}.json`;
  return `parlour-${g}${room}-${kind === 'full' ? 'full-record' : 'record-so-far'}.json`;
}

/** The sentence that tells a player what the file holds (a page's note). */
export function recordNote(rec) {
  const kind = recordKind(rec);
  if (kind === 'own') return t('record.own', { n: Number(rec.viewer) + 1 });
  return t(kind === 'full' ? 'record.full' : 'record.sofar');
}

/** Downloads the record of a `record` answer; returns the note to show. */
export function saveRecord(rec, code, game) {
  download(recordFileName(rec, code, game), JSON.stringify(rec, null, 1) + '\n');
  return recordNote(rec);
}

/** A refused `record` request in the page's words, or null for the room's
 * generic error words (the server's `error` codes, docs/web-protocol.md). */
export function recordError(m) {
  const key = { 'not-your-turn': 'record.error.reading', over: 'record.error.over', seat: 'record.error.seat' }[m && m.error];
  return key ? t(key) : null;
}

/** The room's record buttons: a seated player's "Download my record" while
 * the game goes on; once it is over, the whole record for everyone (a
 * seat's own record is then of no more use). `send` sends a message. */
export function recordButtons(seat, over, send) {
  if (over) return [h('button', { type: 'button', id: 'record-referee', onclick: () => send({ type: 'record', who: 'referee' }) }, t('record.button.full'))];
  if (seat === null || seat < 0) return [];
  return [h('button', { type: 'button', id: 'record-seat', title: t('record.button.mineAbout'), onclick: () => send({ type: 'record', who: 'seat' }) }, t('record.button.mine'))];
}
