// replay.js — a finished game stepped forward and back (buttons, the arrow
// keys, Home/End), from a room's history (/room/CODE#replay) or a record file
// dropped onto the page or chosen (/#replay). The views at each step come
// from the server (docs/web-protocol.md): {type: "replay", room, seat} for a
// room that is over, or the referee's record uploaded in parts
// ({type: "replay_part", data, last}); the answer `replay` carries steps
// [{seq, view, entry, legal}] drawn with the game's own table
// (web/games/GAME.js) as the chosen seat sees them, with each step's legal
// actions (and their exact winning chance when the server has a table). A
// server without `replay` answers an error: the page then steps through the
// record's actions in words (a room's record is fetched with `record`). A
// seat's own record (js/record.js: the hidden cards left out) cannot be
// replayed with views: the page says so and tells its moves from the events
// it carries, as that seat saw them.
//
// A finished Ur room also gets its review (js/review.js, issue 34 §1): asked
// with the page's button (at once from /room/CODE#replay-review, the room's
// "Review" link); a decision clicked shows its position with the best move
// (and the move played) and their chances on the board. An uploaded referee's
// record gets the same panels (Ur's, or Tam Cúc's and City Behind Walls'):
// the button sends the record up again, its last part with `review: true`,
// answered `review` with room null (a seat's record has no views, so no review).
//
// Every step is told in words (issue 31, §4): the game's tell (js/events.js)
// from the entry's events, with seats named; never the engine's notation.

import { t, lang, has } from './i18n.js';
import { h, clear, download } from './dom.js';
import { tellEntry, actionWords } from './events.js';
import { recordFileName, recordNote } from './record.js';
import { reviewPanel } from './review.js';
import { reviewHiddenPanel } from './review_hidden.js';

/** The steps of a `replay` answer: [{view, seat, entry, legal}], index 0 the start
 * (`entry`: the history entry, worded from its events by the game's module,
 * js/events.js; its notation is never shown). */
export function stepsOf(msg) {
  if (!Array.isArray(msg.steps)) return [];
  return msg.steps.map((s) => {
    const e = (s && s.entry) || {};
    return { view: s ? s.view : null, entry: s && s.entry ? s.entry : null, seat: e.seat, legal: s && Array.isArray(s.legal) ? s.legal : [] };
  });
}

/** The seat of a record's action: a number, or -1 for chance. */
function seatOf(a) {
  return typeof a.seat === 'number' ? a.seat : -1;
}

/** `text` cut into parts of at most `max` UTF-8 bytes, also once JSON-escaped. */
export function partsOf(text, max = 6000) {
  const enc = new TextEncoder();
  const size = (x) => Math.max(enc.encode(x).length, enc.encode(JSON.stringify(x)).length - 2);
  const parts = [];
  let i = 0;
  while (i < text.length) {
    let n = Math.min(max, text.length - i);
    let part = text.slice(i, i + n);
    while (size(part) > max) {
      n = Math.floor(n / 2);
      part = text.slice(i, i + n);
    }
    // never split a surrogate pair
    if (n > 1 && /[\ud800-\udbff]$/.test(part)) part = text.slice(i, i + --n);
    parts.push(part);
    i += n;
  }
  return parts;
}

/** Steps from the record alone (no views): the start, then one per action,
 * with the events a seat's own record carries (`history`, js/record.js). */
function textSteps(record) {
  const hist = Array.isArray(record.history) ? record.history : [];
  return [{ view: null, entry: null }].concat(
    record.actions.map((a, i) => ({ view: null, seat: seatOf(a), entry: { seq: i, seat: seatOf(a), events: hist[i] && Array.isArray(hist[i].events) ? hist[i].events : [] } })),
  );
}

export function open(ctx, code) {
  const { net, root } = ctx;
  const R = { record: null, steps: null, views: false, i: 0, error: null, note: null, own: null, table: null, tableGame: null, wantRecord: false, seat: -1, seats: 0, game: null, mod: null, modGame: null, names: null };
  /** A seat in words: its player's name in a room, else "Player N". */
  const seatWho = (i) => (R.names && R.names[i] ? R.names[i] : t('replay.player', { n: i + 1 }));
  /** A step's sentences, in the page's language, from its entry's events
   * (the game's tell); without them, who moved or that chance decided. */
  const told = (step) => {
    if (!step || !step.entry) return [];
    const words = tellEntry(R.mod, R.game, step.entry, { t, lang, has, seat: R.seat, names: R.names });
    if (words.length) return words;
    const seat = typeof step.entry.seat === 'number' ? step.entry.seat : -1;
    if (seat >= 0) return [t('replay.moved', { who: seatWho(seat) })];
    return [has('replay.chance.' + R.game) ? t('replay.chance.' + R.game) : t('replay.chanceStep')]; // a throw, a deal, a draw
  };
  /** The game's table module, for its words (mount() loads it for the views too). */
  const loadMod = (game) => {
    if (!game || R.modGame === game) return;
    R.modGame = game;
    import('/games/' + game + '.js').then((mod) => {
      if (R.game !== game || R.mod === mod) return;
      R.mod = mod;
      renderHistory();
      renderStep();
    }, () => {});
  };
  const els = {};
  const offs = [];

  offs.push(
    net.on('record', (m) => {
      if (!R.wantRecord) return;
      R.wantRecord = false;
      load(m.record, true);
    }),
    net.on('state', (m) => {
      // a room's players, by name, for the steps' words
      if (!code || m.room !== code || !Array.isArray(m.seats)) return;
      R.names = m.seats.map((s, i) => (s && s.kind === 'person' && s.name ? s.name : s && s.kind === 'ai' ? t('replay.computer', { n: i + 1 }) : null));
      renderHistory();
      renderSaid();
    }),
    net.on('replay', (m) => {
      const steps = stepsOf(m);
      if (R.review && m.game === 'ur' && location.hash === '#replay-review' && !R.reviewAsked) {
        R.reviewAsked = true;
        R.review.ask();
      }
      if (R.reviewHidden && (m.game === 'tamcuc' || m.game === 'cbw') && location.hash === '#replay-review' && !R.reviewAsked) {
        R.reviewAsked = true; // js/review_hidden.js
        R.reviewHidden.ask();
      }
      if (!steps.length) return fallback();
      R.steps = steps;
      R.views = steps.some((s) => s.view);
      R.game = m.game || (steps[0].view && steps[0].view.game) || R.game;
      loadMod(R.game);
      R.seats = (steps[0].view && steps[0].view.seats) || R.seats;
      if (typeof m.seat === 'number') R.seat = m.seat;
      R.note = m.truncated ? t('replay.truncated', { n: steps.length - 1, all: m.actions ?? '?' }) : null;
      R.i = Math.min(R.i, steps.length - 1);
      R.error = null;
      renderAll();
    }),
    net.on('error', (m) => {
      if (m.request === 'replay' || m.request === 'replay_part') {
        R.sending = null;
        // a server without `replay` (error type): step through the record's actions
        if (m.error === 'type') {
          R.noReplay = true;
          if (R.record) fallback();
          return;
        }
        R.error = m.message;
        renderAll();
        return;
      }
      if (m.request !== 'record' && m.request !== 'watch') return;
      R.wantRecord = false;
      R.error = m.error === 'room' ? t('room.noSuch') : m.message;
      renderAll();
    }),
  );
  let offOpen = () => {};
  if (code)
    offOpen = net.onOpen(() => {
      if (R.steps && R.views) return;
      // the views from `replay`; the referee's record for its download (and for
      // the text steps when the server has no `replay`)
      R.wantRecord = !R.record;
      net.send({ type: 'watch', room: code });
      net.send({ type: 'replay', room: code, seat: R.seat });
      if (R.wantRecord) net.send({ type: 'record', who: 'referee' });
    });

  function fallback(message) {
    if (!R.record || R.views) return;
    R.steps = textSteps(R.record);
    R.views = false;
    R.i = 0;
    R.note = t('replay.noViews');
    if (message) console.info('replay:', message);
    renderAll();
  }

  /** A record from the room (`record` answer: text steps) or a file (uploaded for views). */
  function load(record, fromRoom) {
    R.error = null;
    R.note = null;
    if (!fromRoom) R.i = 0; // a room's record may come after its steps: stay where the reader is
    if (!record || typeof record !== 'object' || !Array.isArray(record.actions) || typeof record.game !== 'string') {
      R.error = t('replay.bad');
      R.record = null;
    } else if (record.format === 'parlour-record-view') {
      // one seat's record: its moves in words, no views (the hidden cards are not in it)
      R.record = record;
      R.game = record.game;
      R.own = Number(record.viewer);
      R.seat = R.own;
      R.steps = textSteps(record);
      R.views = false;
      R.sending = null;
      loadMod(R.game);
    } else {
      R.own = null;
      R.record = record;
      R.game = record.game;
      loadMod(R.game);
      if (fromRoom) {
        if (R.noReplay) fallback();
        else renderAll();
        return;
      }
      R.steps = null;
      if (R.review) R.review.reset(); // another record: its own review
      if (R.reviewHidden) R.reviewHidden.reset();
      upload(JSON.stringify(record));
    }
    renderAll();
  }

  // the record goes up in parts (each at most 6000 bytes), paced under the
  // server's rate limit (20 messages a second in bursts of 60)
  // (`review`: the last part asks for the record's review instead of its steps)
  function upload(text, seat = -1, review = false) {
    const parts = partsOf(text);
    const job = { parts, i: 0 };
    R.sending = job;
    const next = () => {
      if (R.sending !== job) return;
      const burst = job.i === 0 ? 30 : 1;
      for (let k = 0; k < burst && job.i < parts.length; k++, job.i++) {
        const msg = { type: 'replay_part', data: parts[job.i], last: job.i === parts.length - 1 };
        if (msg.last && review) msg.review = true; // the record's review (docs/web-protocol.md, "Reviews")
        else if (msg.last && seat !== -1) msg.seat = seat; // whose views (read on the last part)
        net.send(msg);
      }
      if (job.i < parts.length) setTimeout(next, 60);
      else R.sending = null;
    };
    next();
  }

  function readFile(file) {
    file.text().then((text) => {
      let rec = null;
      try {
        rec = JSON.parse(text);
      } catch {}
      load(rec);
    });
  }

  function render() {
    clear(root);
    if (R.table) R.table.destroy();
    R.table = null;
    R.tableGame = null;
    els.status = h('div', { class: 'replay-status', 'aria-live': 'polite' });
    els.controls = h('div', { class: 'replay-controls row' });
    els.table = h('div', { class: 'table', id: 'table' });
    els.told = h('div', { class: 'replay-said', 'aria-live': 'polite' });
    els.history = h('ol', { class: 'replay-history', start: 1 });
    // an uploaded record's review: the record goes up again with review: true
    const send = code ? null : () => R.record && upload(JSON.stringify(R.record), -1, true);
    // a reviewed move in words against the position it was played in (the replay's step
    // `index`: City Behind Walls says where the card went beside the cards there)
    const reviewWords = (a) => {
      const step = R.steps && typeof a.index === 'number' ? R.steps[a.index] : null; // step i: before action i
      return actionWords(R.mod, R.game, a, { t, lang, has, seat: R.seat, names: R.names, view: step ? step.view : null });
    };
    if (!R.review)
      R.review = reviewPanel({
        net, code, send,
        seatName: (i) => seatWho(i) + (has('ur.side.' + i) ? ' (' + t('ur.side.' + i) + ')' : ''),
        words: reviewWords,
        onPick: (m, exact) => {
          // the board's analysis says "exact": an estimate's chances stay in the review's words
          const mark = (action, fields, chance) => ({ action, fields, seat: m.seat, chance: exact ? chance : null });
          R.pick = { index: m.index, legal: [mark(m.best, m.best_fields, m.best_value)].concat(m.played === m.best ? [] : [mark(m.played, m.played_fields, m.played_value)]) };
          go(m.index);
          els.table.scrollIntoView({ block: 'nearest' });
        },
      });
    if (!R.reviewHidden) // Tam Cúc, City Behind Walls (js/review_hidden.js)
      R.reviewHidden = reviewHiddenPanel({ net, code, send, seatName: seatWho, words: reviewWords, onPick: (m) => go(m.index) });
    const file = h('input', { type: 'file', id: 'replay-file', accept: '.json,application/json', onchange: (ev) => ev.target.files[0] && readFile(ev.target.files[0]) });
    const drop = h('label', {
        class: 'drop', for: 'replay-file', id: 'replay-drop',
        ondragover: (ev) => {
          ev.preventDefault();
          ev.currentTarget.classList.add('over');
        },
        ondragleave: (ev) => ev.currentTarget.classList.remove('over'),
        ondrop: (ev) => {
          ev.preventDefault();
          ev.currentTarget.classList.remove('over');
          const f = ev.dataTransfer.files[0];
          if (f) readFile(f);
        },
      }, t('replay.drop'));
    root.append(
      h('section', { class: 'replay' },
        h('h1', {}, t('replay.title')),
        code ? null : h('div', { class: 'card' }, drop, file),
        els.status, els.controls, els.table, els.told,
        R.review ? R.review.el : null,
        R.reviewHidden ? R.reviewHidden.el : null,
        h('h2', { class: 'sr' }, t('replay.moves')), els.history,
        h('p', {}, h('a', { href: code ? '/room/' + code : '/' }, code ? t('replay.toRoom') : t('room.toLobby')))));
    renderAll();
  }

  function renderAll() {
    if (!els.status) return;
    clear(els.status);
    if (R.error) els.status.append(h('p', { class: 'note error', role: 'alert' }, R.error));
    if (R.own !== null && R.record) els.status.append(h('p', { class: 'note info', id: 'replay-own' }, recordNote(R.record)));
    if (R.note) els.status.append(h('p', { class: 'note info' }, R.note));
    if (R.views && R.seats) {
      const sel = h('select', { id: 'replay-seat', onchange: (ev) => {
          R.seat = Number(ev.target.value);
          if (code) net.send({ type: 'replay', room: code, seat: R.seat });
          else if (R.record) upload(JSON.stringify(R.record), R.seat);
        } },
        h('option', { value: '-1', selected: R.seat === -1 }, t('replay.asSpectator')),
        Array.from({ length: R.seats }, (_, i) => h('option', { value: String(i), selected: R.seat === i }, seatWho(i))));
      els.status.append(h('label', { class: 'field' }, t('replay.viewAs'), ' ', sel));
    }
    const g = R.game;
    if (R.review) R.review.el.hidden = g !== 'ur' || !R.views;
    if (R.reviewHidden) R.reviewHidden.el.hidden = (g !== 'tamcuc' && g !== 'cbw') || !R.views;
    if (g) {
      const head = h('p', {}, h('b', {}, has('game.' + g + '.name') ? t('game.' + g + '.name') : g));
      if (R.steps) head.append(' · ', t(R.steps.length === 2 ? 'replay.actions.one' : 'replay.actions', { n: R.steps.length - 1 }));
      if (R.record)
        head.append(' ', h('button', { type: 'button', id: 'replay-download', onclick: () => download(recordFileName(R.record, code, g), JSON.stringify(R.record, null, 1) + '\n') }, t('replay.download')));
      els.status.append(head);
    }
    if (!R.steps && !R.error && (R.record || code)) els.status.append(h('p', { class: 'quiet' }, t('replay.loading')));
    renderHistory();
    renderStep();
  }

  function go(i) {
    if (!R.steps) return;
    R.i = Math.max(0, Math.min(R.steps.length - 1, i));
    renderStep();
  }

  function renderHistory() {
    clear(els.history);
    if (!R.steps) return;
    R.steps.slice(1).forEach((s, k) =>
      els.history.append(h('li', { class: k + 1 === R.i ? 'now' : null },
        h('button', { type: 'button', class: 'linkish', onclick: () => go(k + 1) }, told(s).join(' ') || t('replay.step', { i: k + 1, n: R.steps.length - 1 })))));
  }

  function renderStep() {
    clear(els.controls);
    if (!R.steps) return;
    const n = R.steps.length - 1;
    els.controls.append(
      h('button', { type: 'button', id: 'replay-first', onclick: () => go(0), 'aria-label': t('replay.first') }, '«'),
      h('button', { type: 'button', id: 'replay-back', onclick: () => go(R.i - 1), 'aria-label': t('replay.back') }, '◀'),
      h('span', { class: 'step', id: 'replay-step', role: 'status' }, t('replay.step', { i: R.i, n })),
      h('button', { type: 'button', id: 'replay-forward', onclick: () => go(R.i + 1), 'aria-label': t('replay.forward') }, '▶'),
      h('button', { type: 'button', id: 'replay-last', onclick: () => go(n), 'aria-label': t('replay.last') }, '»'));
    [...els.history.children].forEach((li, k) => li.classList.toggle('now', k + 1 === R.i));
    const step = R.steps[R.i];
    if (step.view) mount(step.view, R.i === n);
    else {
      clear(els.table);
      els.table.append(h('p', { class: 'replay-text', id: 'replay-text' }, R.i === 0 ? t('replay.start') : told(step).join(' ')));
    }
    renderSaid();
  }

  /** What the step's action did and the legal actions there, in the page's words. */
  function renderSaid() {
    clear(els.told);
    if (!R.steps) return;
    const step = R.steps[R.i];
    const words = told(step);
    if (words.length) els.told.append(h('p', { class: 'said' }, words.join(' ')));
    if (step.legal && step.legal.length) {
      const pct = (c) => (typeof c === 'number' ? ' — ' + t('replay.chance', { p: (c * 100).toFixed(1) }) : '');
      els.told.append(h('details', { class: 'replay-legal' }, h('summary', {}, t('replay.legal', { n: step.legal.length })),
        h('ul', {}, step.legal.map((a) => h('li', {}, actionWords(R.mod, R.game, a, { t, lang, has, seat: R.seat, names: R.names }), pct(a.chance))))));
    }
  }

  // A step's legal actions reach the table only with their exact chances
  // (a server with a solved table, after the game): analysis, never moves.
  function mount(view, last) {
    const game = view.game;
    const picked = R.pick && R.pick.index === R.i; // a reviewed decision: its best and played moves as the analysis
    const legal = picked ? R.pick.legal : (R.steps[R.i].legal || []).filter((a) => typeof a.chance === 'number');
    const state = { type: 'state', room: code || '', seat: -1, seq: R.i, view, legal, replay: true, history: [], history_from: 0, seats: picked ? [] : (R.names || []).map((name) => (name ? { kind: 'person', name } : null)), clock: null, over: last, result: last ? view.outcome : null, status: last ? 'over' : 'playing' };
    if (R.table && R.tableGame === game) return R.table.update(state);
    R.tableGame = game;
    const api = { t, lang, seat: -1, act() {}, touch() {}, say() {} };
    const plainMount = (box) => {
      const pre = h('pre', { class: 'view-json' });
      box.append(pre);
      return { update: (s) => (pre.textContent = JSON.stringify(s.view, null, 1)), event() {}, destroy() {} };
    };
    const start = (mod) => {
      const had = R.mod;
      R.mod = mod;
      if (mod !== had) { // the steps' words come from the module: now they can be said
        renderHistory();
        renderSaid();
      }
      clear(els.table);
      const box = h('div', { class: 'table-root', dataset: { game } });
      els.table.append(box);
      try {
        R.table = mod && mod.mount ? mod.mount(box, api) : plainMount(box);
      } catch {
        clear(box);
        R.table = plainMount(box);
      }
      const st = R.steps[R.i];
      R.table.update({ ...state, seq: R.i, view: st.view });
    };
    import('/games/' + game + '.js').then(start, () => start(null));
  }

  function onKey(ev) {
    if (!R.steps || (ev.target.closest && ev.target.closest('input,select,textarea'))) return;
    const keys = { ArrowRight: R.i + 1, ArrowLeft: R.i - 1, Home: 0, End: R.steps.length - 1 };
    if (!(ev.key in keys)) return;
    ev.preventDefault();
    go(keys[ev.key]);
  }
  document.addEventListener('keydown', onKey);

  render();
  return {
    render,
    replay: R,
    close() {
      for (const off of offs) off();
      offOpen();
      if (R.review) R.review.close();
      if (R.reviewHidden) R.reviewHidden.close();
      document.removeEventListener('keydown', onKey);
      if (R.table) R.table.destroy();
    },
  };
}
