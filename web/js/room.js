// room.js — a room (/room/CODE): it watches the room at once (the table as a
// spectator sees it), offers the join form (display name, remembered; a seat
// or any), comes back with the stored token after a reload or a lost
// connection, and shows the seats (connected, computer covering), whose turn,
// the clocks, chat, the errors in plain words (a refused move in the
// player's words, never the engine's notation), a move the server played
// for the player (their only one), a takeback asked and answered, the
// result, rematch and the records. For a screen reader and the keyboard
// (issue 32): each new move is announced in a polite live region
// (#announce, from the table's `tell` or `announce`), "Describe the table"
// (Alt+Shift+D) reads the table's `describe(view, ctx)` into a focused
// region, and optional sounds (js/sound.js) mark a move, a capture (the
// table's `soundOf`), your turn and a karuta reading. The table is web/games/GAME.js (docs/web-ui.md, "The table
// contract"); when that module is missing or fails, a plain table shows the
// JSON view and the legal actions as buttons.
// A signed-in person (the server's `account` message) takes a seat under the
// account's name, never asked for one; after a rated game the room shows every
// seat's rating before and after (the `rated` message) and a link to one's
// own page (docs/ratings.md, "The room after a rated game").

import { t, lang, has, levelName } from './i18n.js';
import { h, clear } from './dom.js';
import { recordButtons, recordError, saveRecord } from './record.js';
import { rulesBox } from './rules.js';
import { getToken, setToken, clientMs } from './net.js';
import { inviteBox } from './lobby.js';
import { actionWords, refusalWords, forcedWords, tellEntry } from './events.js';
import * as sound from './sound.js';
import { poolWords } from './playnow.js';
import { hintTool } from './hint.js';

const NAME_KEY = 'parlour.name';
const ONLY_MOVE_MS = 1200; // how long a seat's only move waits before the page plays it

function storedName() {
  try {
    return localStorage.getItem(NAME_KEY) || '';
  } catch {
    return '';
  }
}

/** The words for a seat: its name, "open seat", or "computer (level)". */
export function seatName(s, i) {
  if (!s) return t('room.seat.n', { n: i + 1 });
  if (s.kind === 'open') return t('room.seat.open', { n: i + 1 });
  if (s.kind === 'ai') return t('room.seat.ai', { level: levelName(s.level) });
  if (s.kind === 'partner') return t('room.seat.partner', { n: i + 1, name: s.name || t('room.seat.n', { n: (s.of ?? 0) + 1 }) });
  return s.name || t('room.seat.n', { n: i + 1 });
}

/** seatName, with the seat's number for a computer ("computer 3 (easy)"):
 * where several computers play, the words tell which one. */
export function seatNameN(s, i) {
  return s && s.kind === 'ai' ? t('room.seat.aiN', { n: i + 1, level: levelName(s.level) }) : seatName(s, i);
}

/** A team's name as the game's table says it: the catalogue's `GAME.team.N`
 * (City Behind Walls: Red, Black), else "Team N+1" (karuta's uta teams). */
export function teamName(game, team) {
  return game && has(game + '.team.' + team) ? t(game + '.team.' + team) : t('room.team.n', { n: team + 1 });
}

/** A score as text: a negative number with U+2212 MINUS SIGN, which reads as
 * a minus beside words and dashes (a hyphen does not). */
export function scoreText(v) {
  return typeof v === 'number' && v < 0 ? '\u2212' + String(-v) : String(v);
}

/** The result in words: "Ann wins", "Red wins", "a draw", with the score
 * (for a team result, a score per team with its name). A game whose scores
 * count something else says what (`GAME.result.score.VARIANT`, with the
 * view's `variant`: karuta's uta and kyōgi count the cards left). */
export function resultText(result, seats, mySeat, teams, game, variant) {
  if (!result) return '';
  // each score beside its seat's (or team's) name, a negative one with a real
  // minus sign: "Ann 3, computer 2 (easy) −2", not "3 – -2" (issue 16)
  let score = Array.isArray(result.score)
    ? result.score.map((v, i) => t('room.result.one', { name: seatNameN(seats && seats[i], i), score: scoreText(v) })).join(', ')
    : '';
  let text;
  if (result.kind === 'team' && teams && Array.isArray(result.score)) {
    const first = []; // team → its first seat: every seat of a team has the team's score
    teams.forEach((tm, i) => {
      if (first[tm] === undefined) first[tm] = i;
    });
    score = first.map((i, tm) => (i === undefined ? null : t('room.result.one', { name: teamName(game, tm), score: scoreText(result.score[i]) }))).filter(Boolean).join(', ');
  }
  if (result.kind === 'draw' || result.winner === null || result.winner === undefined) text = t('room.result.draw');
  else if (result.kind === 'team') {
    const mine = teams && mySeat >= 0 && teams[mySeat] === result.winner;
    const names = (seats || [])
      .map((s, i) => ((teams ? teams[i] : i) === result.winner ? seatNameN(s, i) : null))
      .filter(Boolean)
      .join(', ');
    const team = teamName(game, result.winner);
    text = mine ? t('room.result.youTeam', { team, names }) : t('room.result.team', { team, names });
  } else if (result.winner === mySeat) text = t('room.result.you');
  else text = t('room.result.seat', { name: seatNameN(seats && seats[result.winner], result.winner) });
  const own = game && variant ? game + '.result.score.' + variant : null;
  return score ? t(own && has(own) ? own : 'room.result.score', { text, score }) : text;
}

function formatClock(ms) {
  if (ms < 0) ms = 0;
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  return m + ':' + String(s % 60).padStart(2, '0');
}

/** The fallback table: the view as JSON and the legal actions as buttons. */
function plainTable(root, api) {
  const legal = h('div', { class: 'legal', role: 'group', 'aria-label': api.t('table.legal') });
  const pre = h('pre', { class: 'view-json' });
  root.append(h('p', { class: 'quiet' }, api.t('table.plain')), legal, h('details', {}, h('summary', {}, api.t('table.view')), pre));
  return {
    update(state) {
      pre.textContent = JSON.stringify(state.view, null, 1);
      clear(legal);
      for (const a of state.legal || [])
        legal.append(
          h('button', { type: 'button', class: 'act', dataset: { action: a.action, seat: a.seat ?? '' }, onclick: () => api.act(a.action, a.seat) },
            (a.seat !== undefined && a.seat !== api.seat ? api.t('room.seat.n', { n: a.seat + 1 }) + ': ' : '') + actionWords(null, '', a, api)),
        );
    },
    event() {},
    destroy() {},
  };
}

export function open(ctx, code) {
  const { net } = ctx;
  const root = ctx.root;
  const r = {
    code,
    lastSeq: undefined, // the newest history entry seen (the ones after it are announced)
    wasMyTurn: null, // the reader's turn at the last state (the 'turn' sound when it starts)
    seat: null, // null: not joined yet; -1: watching
    wantWatch: false,
    token: getToken(code),
    state: null,
    game: null,
    table: null,
    tableGame: null,
    loading: null,
    chat: [],
    notes: [], // [{kind: 'error'|'info', text, allowed, topic, lang}] (allowed: the legal actions' words, for an illegal act)
    error: null, // a fatal one: no such room
    history: [],
    rematchAsked: false,
    account: null, // the signed-in person's name (the `account` message), null a guest
    rated: null, // the `rated` message of this room's game: each seat's rating before and after
  };
  const els = {};
  const offs = [];
  const hint = hintTool({ t, send: (m) => net.send(m), table: () => els.table, words: (a) => actionWords(r.mod, r.tableGame || r.game, a, { t, lang, has, seat: r.seat }) }); // js/hint.js
  let tick = null;

  // ---- the protocol ----
  function hello() {
    if (r.token) net.send({ type: 'join', room: code, token: r.token });
    else net.send({ type: 'watch', room: code });
  }
  // A cluster (docs/cluster.md): `busy` — another server process still
  // holds the room (one that was killed, until its lease runs out): ask
  // again after 0.25 s, doubling to 4 s; `moved` — this process lost the
  // room: a new connection goes to the one that has it. No page reload.
  let busyWait = 250, busyTimer = null;
  function retryBusy() {
    clearTimeout(busyTimer);
    busyTimer = setTimeout(hello, busyWait * (0.75 + Math.random() / 2)); // ±25 % jitter
    busyWait = Math.min(busyWait * 2, 4000);
  }
  const offOpen = net.onOpen(hello);

  offs.push(
    net.on('joined', (m) => {
      if (m.room !== code) return;
      busyWait = 250;
      r.seat = m.seat;
      r.token = m.token;
      r.options = m.options; // for the rules box (js/rules.js)
      r.hints = m.hints === true; // a casual room gives hints (js/hint.js)
      setToken(code, m.token);
      renderJoin();
    }),
    net.on('state', (m) => {
      if (m.room !== code) return;
      const fresh = !r.state || m.history_from === 0;
      if (fresh) r.history = [];
      else r.history.length = Math.min(r.history.length, m.history_from);
      for (const e of m.history || []) r.history[e.seq] = e;
      const forced = fresh ? [] : (m.history || []).filter((e) => e.forced && ownSeat(m, e.seat));
      // what is new since the last state: announced and sounded (a first state or a takeback tells nothing)
      const last = fresh ? undefined : r.lastSeq;
      const told = last === undefined ? [] : (m.history || []).filter((e) => e && e.seq > last);
      r.lastSeq = r.history.length - 1;
      r.state = m;
      r.stateAt = performance.now(); // `memo.left_ms` counts from here
      if (m.seat >= 0) r.seat = m.seat;
      else if (r.seat === null || r.wantWatch) r.seat = -1;
      r.game = m.view && m.view.game;
      hint.reset(m);
      // the game's table tells the move itself (its log): the note says only that it was played for them
      for (const e of forced) note('info', r.mod ? t('room.forced') : forcedWords(r.mod, r.game, e, { t, lang, has, seat: r.seat }), null, 'forced');
      renderState();
      tellNew(told);
      const turn = myTurn(m);
      if (turn && r.wasMyTurn === false) sound.play('turn');
      r.wasMyTurn = turn;
      playOnlyMove();
    }),
    net.on('takeback', (m) => {
      const st = r.state;
      const name = (i) => (st && i !== null && i !== undefined && i >= 0 ? seatNameN(st.seats[i], i) : '');
      const mine = m.by === r.seat;
      if (m.result === 'accepted' || m.result === 'granted') {
        r.notes = r.notes.filter((n) => n.topic !== 'forced'); // those moves are taken back too
        note('info', mine ? t('room.takeback.done.you') : t('room.takeback.done.other', { name: name(m.by) }), null, 'takeback');
      } else if (m.result === 'declined') {
        if (mine && st) r.tbDeclined = st.seq; // the server takes no new request before the next move
        renderTools();
        note('info', mine ? t('room.takeback.declined.you', { name: name(m.seat) }) : t('room.takeback.declined.other', { name: name(m.seat) }), null, 'takeback');
      } else if (m.result === 'withdrawn' && r.seat >= 0) note('info', t('room.takeback.withdrawn'), null, 'takeback');
    }),
    net.on('account', (m) => {
      // held by the server before any answer to this page: known before the first state
      r.account = typeof m.name === 'string' && m.name ? m.name : null;
      renderJoin();
      renderOver();
    }),
    net.on('rated', (m) => {
      if (m.room !== code || !Array.isArray(m.seats)) return;
      r.rated = m;
      renderOver();
    }),
    net.on('hint', (m) => hint.show(m, r.state)),
    net.on('chat', (m) => {
      r.chat.push(m);
      renderChat();
    }),
    net.on('error', (m) => {
      if (m.request === 'join' && r.token && (m.error === 'seat' || m.error === 'room')) {
        // the token holds no seat here (any more): watch and offer the form
        r.token = null;
        try {
          localStorage.removeItem('parlour.token.' + code);
        } catch {}
        if (m.error === 'seat') {
          net.send({ type: 'watch', room: code });
          return;
        }
      }
      if (m.error === 'busy') {
        retryBusy();
        return;
      }
      if (m.error === 'moved') {
        if (m.request === 'act') note('error', errorText(m));
        else net.drop();
        return;
      }
      if ((m.request === 'watch' || m.request === 'join') && m.error === 'room') {
        r.error = t('room.noSuch');
        render();
        return;
      }
      if (m.request === 'record' && recordError(m)) return note('error', recordError(m)); // js/record.js
      if (m.request === 'hint') hint.failed();
      if (m.error === 'illegal' && m.request === 'act') refused(m);
      else note('error', errorText(m), allowedNow(m));
      if (r.table) r.table.event(m);
    }),
    net.on('rematch', (m) => {
      if (r.token) setToken(m.room, r.token);
      location.assign('/room/' + m.room);
    }),
    net.on('record', (m) => note('info', saveRecord(m.record || {}, code, r.game))), // js/record.js
    net.on('left', () => {
      if (r.leaving) location.assign('/');
      else note('info', t('room.takenOver')); // the seat's token came back on another connection
    }),
    net.on('*', (m) => {
      if (r.table && (m.type === 'reading' || m.type === 'kana')) r.table.event(m);
    }),
  );

  // An illegal act: the game's reason alone (`reason`, docs/web-protocol.md),
  // not the engine's whole list of legal actions that `message` goes on with.
  // The server's words are English free text, never translated by guess: on a
  // page in another language they follow the catalogue's lead-in as a
  // quotation marked lang="en" (issue 16), so the page is honest about them.
  function errorText(m) {
    const why = m.error === 'illegal' && typeof m.reason === 'string' && m.reason ? m.reason : m.message;
    const lead = has('error.' + m.error) ? t('error.' + m.error) : lang === 'en' ? null : t('error.other');
    if (lang !== 'en') return why ? [lead, ' ', h('q', { lang: 'en', class: 'server-words' }, why)] : lead;
    return lead ? lead + ' ' + why : why;
  }

  /** Whether seat i of state st is the reader's (its own, or a partner seat it plays). */
  function ownSeat(st, i) {
    const s = st && st.seats && st.seats[i];
    return r.seat !== null && r.seat >= 0 && (i === r.seat || (!!s && s.kind === 'partner' && s.of === r.seat));
  }

  /** An illegal act (issue 31 §4): the table's own `refused(err, ctx)` first
   * (a game table shows it beside the place tapped and returns true), else
   * the refusal in the player's words (events.js refusalWords), else a
   * plain sentence; with the moves allowed now under it. The server's
   * `reason` and `message` (the engine's notation) never reach the page. */
  function refused(m) {
    const c = { t, lang, has, seat: r.seat, root: els.table };
    for (const fn of [r.table && r.table.refused && r.table.refused.bind(r.table), r.mod && r.mod.refused]) {
      if (typeof fn !== 'function') continue;
      try {
        if (fn(m, c) === true) return;
      } catch (e) {
        console.error('refused', r.game, e);
      }
      break;
    }
    note('error', refusalWords(r.tableGame || r.game, m.refusal, c) || t('room.refused'), allowedNow(m), 'refused');
  }

  /** A seat's only legal move, played for the person after a moment, with a
   * note (issue 31 §5, as the terminal does). The server plays it itself in a
   * game without hidden cards (a history entry with `forced`); in one with
   * hidden cards it does not (every seat would see the move come at once, and
   * the entry's flag would tell that the hand allowed nothing else), so the
   * page plays it, as the person would, after ONLY_MOVE_MS. Not in karuta
   * (its touches are timed). */
  function playOnlyMove() {
    clearTimeout(r.onlyTimer);
    const st = r.state;
    if (!st || st.over || st.status !== 'playing' || r.game === 'karuta' || r.seat === null || r.seat < 0) return;
    const legal = st.legal || [];
    if (legal.length !== 1) return;
    const seq = st.seq, a = legal[0];
    r.onlyTimer = setTimeout(() => {
      if (!r.state || r.state.seq !== seq || r.state.over) return;
      const words = r.mod ? '' : actionWords(r.mod, r.tableGame || r.game, a, { t, lang, has, seat: r.seat });
      note('info', [t('room.forced'), words].filter(Boolean).join(' '), null, 'forced');
      sendAct(a.action, a.seat);
    }, ONLY_MOVE_MS);
  }

  /** Sends an action of this seat (or of a partner seat it plays). */
  function sendAct(text, seat) {
    // accepted_in_state: the answer rides in this seat's next state
    // (docs/web-protocol.md): the page reads only states, one message less.
    const msg = { type: 'act', action: text, accepted_in_state: true };
    if (r.state) msg.seq = r.state.seq;
    if (seat !== undefined && seat !== null && seat !== r.seat) msg.seat = seat; // a partner seat
    net.send(msg);
  }

  /** For an illegal act: what this seat may do now, in words (shown collapsed). */
  function allowedNow(m) {
    if (m.error !== 'illegal' || m.request !== 'act' || !r.state) return null;
    const ctx = { t, lang, has, seat: r.seat };
    const words = (r.state.legal || []).map((a) => actionWords(r.mod, r.tableGame, a, ctx));
    return words.length ? words : null;
  }

  /** Adds a note (the last four are shown); one of a `topic` ('forced',
   * 'takeback', 'refused') replaces the earlier note of that topic, so a run of moves
   * played for the player leaves one line, not a column of them. */
  function note(kind, text, allowed, topic) {
    if (topic) r.notes = r.notes.filter((n) => n.topic !== topic);
    r.notes.push({ kind, text, allowed, topic, lang }); // worded in this language
    if (r.notes.length > 4) r.notes.shift();
    renderNotes();
  }

  // ---- the page ----
  function render() {
    clear(root);
    if (r.table) {
      r.table.destroy();
      r.table = null;
      r.tableGame = null;
    }
    if (r.error) {
      root.append(h('section', { class: 'card' }, h('h1', {}, t('room.title')), h('p', { class: 'error', role: 'alert' }, r.error), h('p', {}, h('a', { href: '/' }, t('room.toLobby')))));
      return;
    }
    els.title = h('h1', { class: 'room-title' });
    els.turn = h('p', { class: 'turn', role: 'status', 'aria-live': 'polite' });
    els.join = h('div', { class: 'join' });
    els.seats = h('ol', { class: 'seats', 'aria-label': t('room.seats') });
    els.notes = h('div', { class: 'notes', 'aria-live': 'assertive' });
    els.ask = h('div', { class: 'ask', 'aria-live': 'polite' });
    els.table = h('div', { class: 'table', id: 'table' });
    els.over = h('div', { class: 'over' });
    els.announce = h('div', { id: 'announce', class: 'sr', role: 'log', 'aria-live': 'polite', 'aria-label': t('room.a11y.announcements') });
    els.words = h('section', { id: 'table-words', class: 'table-words card', role: 'region', tabindex: '-1', hidden: true, 'aria-label': t('room.a11y.words'),
      onkeydown: (ev) => {
        if (ev.key === 'Escape') {
          els.words.hidden = true;
          if (els.describe) els.describe.focus();
        }
      } });
    els.describe = h('button', { type: 'button', id: 'describe', 'aria-keyshortcuts': 'Alt+Shift+D', onclick: () => describeTable() }, t('room.a11y.describe'));
    const soundBox = h('input', { type: 'checkbox', id: 'sounds', checked: sound.enabled(), onchange: (ev) => sound.setEnabled(ev.target.checked) });
    els.a11y = h('div', { class: 'a11y-bar' }, els.describe, h('label', { class: 'sound-switch' }, soundBox, ' ', t('room.a11y.sounds')), hint.button); // js/hint.js
    els.chatList = h('ul', { class: 'chat-list', 'aria-live': 'polite' });
    els.chatText = h('input', { id: 'chat-text', maxlength: 500, autocomplete: 'off', placeholder: t('chat.placeholder'), 'aria-label': t('chat.label') });
    const chatForm = h(
      'form',
      {
        class: 'chat-form',
        onsubmit: (ev) => {
          ev.preventDefault();
          const text = els.chatText.value.trim();
          if (!text) return;
          net.send({ type: 'chat', text });
          els.chatText.value = '';
        },
      },
      els.chatText,
      h('button', { type: 'submit' }, t('chat.send')),
    );
    els.tools = h('div', { class: 'tools' });
    els.invite = h('details', { class: 'invite-box', ontoggle: (ev) => {
      const d = ev.target; // the link and its QR code (a 52 KB module) only once opened
      if (d.open && d.children.length === 1) d.append(inviteBox('/room/' + code));
    } }, h('summary', {}, t('room.invite')));
    root.append(
      h('section', { class: 'room' },
        h('div', { class: 'room-head' }, els.title, els.turn, hint.el),
        els.join,
        els.notes,
        els.ask,
        els.table,
        els.a11y,
        els.words,
        els.over,
        els.announce,
        h('div', { class: 'side' },
          h('section', { class: 'seats-box' }, h('h2', {}, t('room.seats')), els.seats),
          h('section', { class: 'chat' }, h('h2', {}, t('chat.title')), els.chatList, chatForm),
          els.tools,
          rulesBox(() => r.game, () => ({ ...(r.state && r.state.view && r.state.view.variant ? { variant: r.state.view.variant } : {}), ...(r.options || {}) })), // js/rules.js
          els.invite)));
    renderJoin();
    renderState();
    renderChat();
    renderNotes();
  }

  /** What the join box depends on: drawn again only when it changes (a
   * state per move must not wipe a name being typed). */
  function joinKey() {
    const st = r.state;
    return JSON.stringify([r.seat, !st, st && st.over, st && st.seats.map((s) => s.kind === 'open'), r.account]);
  }

  function renderJoin() {
    if (!els.join) return;
    const typed = els.join.querySelector('#join-name');
    const was = typed ? typed.value : null;
    r.joinKey = joinKey();
    clear(els.join);
    if (r.seat !== null && r.seat >= 0) return;
    const st = r.state;
    if (!st || st.over) return; // the state first; a finished room has nothing to take (issue 31 §5)
    const open = st ? st.seats.map((s, i) => (s.kind === 'open' ? i : -1)).filter((i) => i >= 0) : [];
    if (st && !open.length && r.seat === -1) {
      els.join.append(h('p', { class: 'quiet' }, t('room.watching')));
      return;
    }
    // a signed-in person sits under the account's name: no name to type (the server takes the account's)
    const name = r.account ? null : h('input', { id: 'join-name', maxlength: 40, required: true, autocomplete: 'nickname', value: was ?? storedName() });
    const seat = h('select', { id: 'join-seat' }, h('option', { value: '' }, t('room.join.any')), open.map((i) => h('option', { value: String(i) }, t('room.seat.n', { n: i + 1 }))));
    els.join.append(
      h('form', {
          class: 'join-form card',
          onsubmit: (ev) => {
            ev.preventDefault();
            const n = name ? name.value.trim() : r.account;
            if (!n) return;
            if (name)
              try {
                localStorage.setItem(NAME_KEY, n);
              } catch {}
            const msg = { type: 'join', room: code, name: n };
            if (seat.value !== '') msg.seat = Number(seat.value);
            r.wantWatch = false;
            net.send(msg);
          },
        },
        h('h2', {}, t('room.join.title')),
        name ? h('label', {}, t('room.join.name'), ' ', name) : h('p', { id: 'join-as' }, t('rated.joinAs', { name: r.account })),
        open.length > 1 ? h('label', {}, t('room.join.seat'), ' ', seat) : null,
        h('div', { class: 'row' },
          h('button', { type: 'submit', class: 'primary', id: 'join-button' }, t('room.join.button')),
          r.seat === -1 ? h('span', { class: 'quiet' }, t('room.watching')) : null)));
  }

  function renderSeats() {
    const st = r.state;
    clear(els.seats);
    if (!st) return;
    const actors = (st.view && st.view.actors) || [];
    st.seats.forEach((s, i) => {
      const bits = [];
      if (s.kind === 'person') bits.push(s.connected ? t('room.seat.online') : t('room.seat.offline'));
      const mine = i === r.seat || (s.kind === 'partner' && s.of === r.seat && r.seat >= 0);
      const who = { name: s.name || t('room.seat.n', { n: i + 1 }) };
      // a rated room's staller: the computer keeps the seat to the end, counted as leaving (docs/ratings.md, "Stalling")
      if (s.stalled) bits.push(mine ? t('room.seat.stalledYou') : t('room.seat.stalled', who));
      else if (s.covered) bits.push(t('room.seat.covered', who));
      els.seats.append(
        h('li', { class: 'seat' + (mine ? ' me' : '') + (actors.includes(i) ? ' acting' : ''), dataset: { seat: i, kind: s.kind, connected: String(!!s.connected) } },
          h('span', { class: 'dot ' + (s.kind === 'ai' || s.connected ? 'on' : 'off'), 'aria-hidden': 'true' }),
          h('span', { class: 'seat-num', 'aria-hidden': 'true' }, i + 1 + '.'),
          h('span', { class: 'seat-name' }, seatNameN(s, i), mine ? ' ' + t('room.seat.you') : ''),
          bits.length ? h('span', { class: 'seat-note' }, bits.join(' · ')) : null,
          h('span', { class: 'clock', dataset: { clockSeat: i } })));
    });
  }

  /** The context a table's tell/describe/announce gets. */
  function tableCtx() {
    const st = r.state;
    const seats = (st && st.seats) || [];
    const names = seats.map((s, i) => seatNameN(s, i));
    const you = r.game && has(r.game + '.ev.you') ? t(r.game + '.ev.you') : null;
    return { t, lang, has, seat: r.seat, seats, names, state: st,
      name: (i) => (i === r.seat && you) || names[i] || String(i + 1) };
  }

  /** Whether the reader has a move to make now (or a part in one). */
  function myTurn(st) {
    if (!st || st.over || st.status !== 'playing' || r.seat === null || r.seat < 0) return false;
    const mine = (i) => i === r.seat || (st.seats[i] && st.seats[i].kind === 'partner' && st.seats[i].of === r.seat);
    return ((st.view && st.view.actors) || []).some(mine) && !!(st.legal && st.legal.length);
  }

  /** Says `text` in the live region (#announce): the last few lines stay,
   * the newest last, so a screen reader reads each once. */
  function announce(text) {
    if (!text || !els.announce) return;
    els.announce.append(h('p', {}, text));
    while (els.announce.children.length > 6) els.announce.firstChild.remove();
  }

  /** The new history entries in words (the table's `announce`, else its
   * `tell`) and in sound (the table's `soundOf`, else a move's). */
  function tellNew(entries) {
    if (!entries.length) return;
    const ctx = tableCtx();
    let kind = null;
    for (const e of entries) {
      let lines = null;
      if (r.mod && typeof r.mod.announce === 'function') {
        try {
          lines = r.mod.announce(e, ctx);
        } catch (err) {
          console.error('announce', r.game, err);
        }
      }
      if (!Array.isArray(lines)) lines = tellEntry(r.mod, r.game, e, ctx);
      for (const l of lines) if (typeof l === 'string' && l) announce(l);
      let k = 'move';
      if (r.mod && typeof r.mod.soundOf === 'function') {
        try {
          k = r.mod.soundOf(e, ctx);
        } catch {}
      }
      if (k === 'capture' || (k && !kind)) kind = k;
    }
    if (kind) sound.play(kind);
  }

  /** "Describe the table": the table's `describe(view, ctx)` sentences in
   * the region under the table, which takes the focus (a screen reader
   * reads it at once); without a describing table, the turn's words. */
  function describeTable() {
    const st = r.state;
    if (!st || !els.words) return;
    let lines = [];
    if (r.mod && typeof r.mod.describe === 'function') {
      try {
        lines = (r.mod.describe(st.view, tableCtx()) || []).filter((l) => typeof l === 'string' && l);
      } catch (err) {
        console.error('describe', r.game, err);
      }
    }
    const turn = turnText();
    if (turn && !lines.includes(turn)) lines.push(turn);
    clear(els.words);
    els.words.append(h('h2', {}, t('room.a11y.words')), ...lines.map((l) => h('p', {}, l)));
    els.words.hidden = false;
    els.words.focus();
  }

  function turnText() {
    const st = r.state;
    if (!st) return t('room.loading');
    if (st.status === 'waiting') return t('room.turn.waiting');
    if (st.over) return t('room.turn.over');
    // a table that keeps its own status line in view (karuta's, sticky over the field): none twice
    if (r.mod && r.mod.drawsStatus) return '';
    if (r.mod && typeof r.mod.status === 'function') {
      // the table's own words for what is going on (karuta: "Reading 12")
      try {
        const names = st.seats.map((s, i) => seatNameN(s, i));
        const you = has(r.game + '.ev.you') ? t(r.game + '.ev.you') : null;
        const memo = st.memo ? { ...st.memo, left_ms: Math.max(0, st.memo.left_ms - (performance.now() - (r.stateAt || 0))) } : null;
        const s = r.mod.status(st.view, { t, lang, has, seat: r.seat, seats: st.seats, names, state: st, memo,
          name: (i) => (i === r.seat && you) || names[i] || String(i + 1) });
        if (typeof s === 'string' && s) return s;
      } catch (e) {
        console.error('status', r.game, e);
      }
    }
    const actors = (st.view && st.view.actors) || [];
    if (!actors.length) return t('room.turn.moment');
    const mine = (i) => i === r.seat || (st.seats[i] && st.seats[i].kind === 'partner' && st.seats[i].of === r.seat);
    if (actors.some(mine) && st.legal && st.legal.length) return actors.length > 1 && !actors.every(mine) ? t('room.turn.youAnd') : t('room.turn.you');
    return t('room.turn.other', { names: actors.map((i) => seatNameN(st.seats[i], i)).join(', ') });
  }

  function renderClocks() {
    const st = r.state;
    if (!st || !els.seats) return;
    const c = st.clock;
    const now = ctx.serverNow();
    const actors = (st.view && st.view.actors) || [];
    for (const el of els.seats.querySelectorAll('.clock')) {
      const i = Number(el.dataset.clockSeat);
      let ms = null;
      if (c && !st.over && st.status === 'playing') {
        if (c.total_s && Array.isArray(c.left_ms)) ms = c.left_ms[i] - (actors.includes(i) ? now - c.since_ms : 0);
        // the move clock runs for a person's decision: not while a computer keeps the seat, nor in a
        // karuta reading (its own window applies; a rated kyōgi room's clock runs at sends and placings)
        else if (c.move_s && actors.includes(i) && !(st.seats[i] && st.seats[i].covered) && !(r.game === 'karuta' && st.view && st.view.stage === 'touch'))
          ms = c.move_s * 1000 - (now - c.since_ms);
      }
      el.textContent = ms === null ? '' : formatClock(ms);
      el.setAttribute('aria-label', ms === null ? '' : t('room.clock', { time: formatClock(ms) }));
    }
  }

  function renderState() {
    const st = r.state;
    if (!els.title) return;
    els.title.textContent = !r.game ? t('room.title') : has('game.' + r.game + '.name') ? t('game.' + r.game + '.name') : ctx.gameName(r.game);
    els.turn.textContent = turnText();
    // while karuta's memorisation runs, the status line counts down each second
    if (st && st.memo && !r.memoTick) r.memoTick = setInterval(() => {
      if (!r.state || !r.state.memo) {
        clearInterval(r.memoTick);
        r.memoTick = null;
      }
      els.turn.textContent = turnText();
    }, 1000);
    if (r.joinKey !== joinKey()) renderJoin();
    renderSeats();
    renderClocks();
    renderTools();
    renderAsk();
    renderOver();
    if (!st) return;
    if (st.status === 'waiting' && r.seat >= 0 && !r.inviteShown) {
      r.inviteShown = true; // the others still have to come: the link and its QR code open
      r.inviteAuto = true;
      els.invite.open = true;
    } else if (st.status !== 'waiting' && r.inviteAuto) {
      r.inviteAuto = false; // everyone came: fold the QR code away (it filled a phone's screen)
      els.invite.open = false;
    }
    mountTable(st);
  }

  function mountTable(st) {
    const game = r.game;
    if (r.table && r.tableGame === game && r.tableSeat === st.seat) {
      r.table.update(st);
      return;
    }
    if (r.loading === game + '/' + st.seat) return; // the module is loading: update when it is in
    if (r.table) r.table.destroy();
    r.table = null;
    r.loading = game + '/' + st.seat;
    const api = {
      t: (key, vars) => t(key, vars),
      lang,
      seat: st.seat,
      act: (text, seat) => sendAct(text, seat),
      ready: () => net.send({ type: 'ready' }), // karuta: this person has memorised the field
      touch: (card, ms, poet) => net.send(Object.assign({ type: 'touch', card, client_ms: Math.round(ms ?? clientMs()) }, Number.isInteger(poet) ? { poet } : {})),
      say: (text) => note('info', text),
      announce: (text) => announce(text), // the live region (issue 32): what is not in the history
      sound: (kind) => sound.play(kind), // 'move' | 'capture' | 'turn' | 'reading', when the reader has sounds on
    };
    const start = (mod) => {
      if (r.loading !== game + '/' + st.seat) return;
      r.loading = null;
      clear(els.table);
      const box = h('div', { class: 'table-root', dataset: { game } });
      els.table.append(box);
      r.mod = mod && mod.mount ? mod : null; // it words the game's actions (js/events.js)
      try {
        r.table = (mod && mod.mount ? mod : { mount: plainTable }).mount(box, api);
        r.tableGame = game;
        r.tableSeat = st.seat;
        r.table.update(r.state);
        els.turn.textContent = turnText(); // the table's own status words, now that it is in
      } catch (e) {
        console.error('table', game, e);
        clear(els.table);
        const box2 = h('div', { class: 'table-root', dataset: { game, plain: 'true' } });
        els.table.append(box2);
        r.mod = null;
        r.table = plainTable(box2, api);
        r.tableGame = game;
        r.tableSeat = st.seat;
        r.table.update(r.state);
      }
    };
    // localStorage 'parlour.table' = 'plain': the plain table for every game (tests, debugging)
    let plain = false;
    try {
      plain = localStorage.getItem('parlour.table') === 'plain';
    } catch {}
    if (plain) start(null);
    else import('/games/' + game + '.js').then(start, () => start(null));
  }

  /** Whether the reader may ask for a takeback now (docs/web-protocol.md):
   * seated, the game on and not in real time (karuta), none asked, and a
   * move of their own (not one played for them) in the history. */
  function canAskTakeback(st) {
    if (!st || r.seat === null || r.seat < 0 || st.over || st.status !== 'playing' || st.takeback || r.game === 'karuta' || r.tbDeclined === st.seq) return false;
    return r.history.some((e) => e && e.seat >= 0 && !e.forced && ownSeat(st, e.seat));
  }

  /** A takeback asked (the state's `takeback`): the asker waits (and may
   * withdraw it); each other person accepts or declines; a spectator reads it. */
  function renderAsk() {
    if (!els.ask) return;
    clear(els.ask);
    const st = r.state;
    const tb = st && st.takeback;
    if (!tb) return;
    const answer = (accept) => net.send({ type: 'takeback_answer', accept });
    if (tb.by === r.seat) {
      els.ask.append(h('div', { class: 'note info takeback-box' }, h('span', {}, t('room.takeback.asked')), ' ',
        h('button', { type: 'button', id: 'takeback-withdraw', onclick: () => answer(false) }, t('room.takeback.withdraw'))));
      return;
    }
    const q = t('room.takeback.question', { name: seatNameN(st.seats[tb.by], tb.by) });
    const asked = r.seat !== null && r.seat >= 0 && !(tb.accepted || []).includes(r.seat);
    els.ask.append(h('div', { class: 'note info takeback-box', role: asked ? 'alert' : null }, h('span', {}, q),
      asked ? [' ', h('button', { type: 'button', class: 'primary', id: 'takeback-accept', onclick: () => answer(true) }, t('room.takeback.accept')),
        ' ', h('button', { type: 'button', id: 'takeback-decline', onclick: () => answer(false) }, t('room.takeback.decline'))] : null));
  }

  function renderTools() {
    clear(els.tools);
    const st = r.state;
    els.tools.append(...recordButtons(r.seat, !!(st && st.over), (m) => net.send(m))); // js/record.js
    hint.render(st, r.hints, myTurn(st)); // js/hint.js
    if (canAskTakeback(st))
      els.tools.append(h('button', { type: 'button', id: 'takeback', onclick: () => net.send({ type: 'takeback' }) }, t('room.takeback.ask')));
    if (r.seat !== null && r.seat >= 0) {
      els.tools.append(
        h('button', { type: 'button', id: 'leave', onclick: () => {
          r.leaving = true;
          net.send({ type: 'leave' });
        } }, t('room.leave')),
      );
    }
    if (st && st.over)
      els.tools.append(h('a', { class: 'button', href: '/room/' + code + '#replay', id: 'replay-link' }, t('room.replay')),
        st.view && ['ur', 'tamcuc', 'cbw'].includes(st.view.game) ? h('a', { class: 'button', href: '/room/' + code + '#replay-review', id: 'review-link' }, t('review.open')) : '');
  }

  function renderOver() {
    clear(els.over);
    const st = r.state;
    if (!st || !st.over) return;
    const teams = st.view && st.view.teams;
    els.over.append(
      h('div', { class: 'result card', role: 'status' },
        h('h2', {}, t('room.over')),
        h('p', { class: 'result-text' }, resultText(st.result || (st.view && st.view.outcome), st.seats, r.seat, teams, r.game, st.view && st.view.variant)),
        ratedBox(),
        r.seat >= 0
          ? h('button', { type: 'button', id: 'rematch', class: 'primary', disabled: r.rematchAsked, onclick: () => {
              r.rematchAsked = true;
              net.send({ type: 'rematch' });
              note('info', t('room.rematch.asked'));
              renderOver();
            } }, t('room.rematch'))
          : null));
  }

  /** A rating for people: a whole number. */
  function ratingText(v) {
    return String(Math.round(v));
  }

  /** After a rated game (the `rated` message): each seat's rating before and
   * after with the change, in words, the reader's own marked; a computer's
   * fixed rating; a link to the reader's own page when signed in. */
  function ratedBox() {
    const m = r.rated;
    const st = r.state;
    if (!m || !st) return null;
    const items = m.seats.map((x, i) => {
      const name = seatNameN(st.seats[i], i) + (i === r.seat ? ' ' + t('room.seat.you') : '');
      const before = ratingText(x.before), after = ratingText(x.after);
      const d = Math.round(x.after) - Math.round(x.before);
      const delta = d > 0 ? '+' + d : d < 0 ? '\u2212' + String(-d) : '±0';
      const text = !x.person ? t('rated.computer', { name, rating: before })
        : t(x.left ? 'rated.left' : 'rated.person', { name, before, after, delta });
      return h('li', { class: 'rated-seat' + (i === r.seat ? ' me' : ''), dataset: { seat: i, before, after, delta: d } }, text);
    });
    return h('section', { id: 'rated', class: 'rated', 'aria-labelledby': 'rated-h' },
      h('h3', { id: 'rated-h' }, t('rated.title', { pool: poolWords(m.pool) })),
      h('ul', {}, items),
      r.account ? h('p', {}, h('a', { id: 'rated-mine', href: '/player/' + encodeURIComponent(r.account) }, t('rated.mine'))) : null);
  }

  function renderChat() {
    if (!els.chatList) return;
    clear(els.chatList);
    for (const m of r.chat.slice(-50))
      els.chatList.append(h('li', {}, h('b', {}, m.seat >= 0 ? m.name : t('chat.spectator')), ': ', h('span', { class: 'chat-text' }, m.text)));
    els.chatList.scrollTop = els.chatList.scrollHeight;
  }

  function renderNotes() {
    if (!els.notes) return;
    clear(els.notes);
    r.notes = r.notes.filter((n) => n.lang === lang); // a notice worded in another language is gone
    for (const n of r.notes) {
      const allowed = n.allowed
        ? h('details', { class: 'allowed' }, h('summary', {}, t('room.allowed', { n: n.allowed.length })),
            h('ul', {}, n.allowed.slice(0, 60).map((w) => h('li', {}, w)), n.allowed.length > 60 ? h('li', {}, '…') : null))
        : null;
      els.notes.append(h('div', { class: 'note ' + n.kind, role: n.kind === 'error' ? 'alert' : null }, h('span', { class: 'note-text' }, n.text), allowed));
    }
  }

  tick = setInterval(renderClocks, 250);
  // Alt+Shift+D anywhere in the room: "Describe the table" (the button says so: aria-keyshortcuts)
  const onKey = (ev) => {
    if (ev.altKey && ev.shiftKey && !ev.ctrlKey && !ev.metaKey && ev.code === 'KeyD') {
      ev.preventDefault();
      describeTable();
    }
  };
  document.addEventListener('keydown', onKey);
  offs.push(() => document.removeEventListener('keydown', onKey));
  render();

  return {
    render,
    room: r,
    close() {
      clearInterval(tick);
      clearInterval(r.memoTick);
      clearTimeout(r.onlyTimer);
      clearTimeout(busyTimer);
      for (const off of offs) off();
      offOpen();
      if (r.table) r.table.destroy();
    },
  };
}
