// ur.js — the table of the Royal Game of Ur (docs/web-ui.md, "The table
// contract"). Drawn by hand in SVG from the seat's JSON view alone
// (docs/web-views.md, `ur`): the reconstructed board with each square's kind
// from view.squares (rosettes, lane and small-block eyes, the safe
// "four fives", the conversion "wavy fives", the finish square), the path of
// the side to move with its loop round the small block, stacks with their
// count and each piece's side (blank / marked), the reserve and the pieces
// borne off per player, and the lots of the throw (view.roll; the state
// keeps no lots, so they are drawn as one arrangement consistent with the
// roll: 3 lots, none marked = 4; Finkel's 4 dice; a d4 as a number).
//
// Moving: every legal action (state.legal: its notation, docs/notation-ur.md,
// `enter`, `B5`, `B7:2`, `pass`, and its `fields`, docs/web-views.md, `ur`,
// "Action fields") is mapped to its piece (a square, the K-th piece from the
// top of a stack, or the reserve) and its landing square from the fields
// alone ({from, depth, to, captures, flips, off, again}; {pass: true}).
// Those pieces are highlighted; a hover, focus or first tap
// shows where the piece lands; a second tap (on the piece or its target), the
// Move button or Enter plays it. Keys 1..n pick the n-th legal move as the
// list shows them. Chance (the throw) is played by the server: no roll button.
//
// The keyboard and a screen reader (issue 32; docs/web-ui.md, "The Royal Game of
// Ur: keyboard and screen reader"): the board is an ARIA grid with one Tab stop
// (a roving tabindex; arrow keys, Home, End, Enter / Space, Escape), each cell
// named in words of the page's language ("B4, rosette, your piece, can move"),
// aria-selected / aria-disabled; the moves a toolbar (one Tab stop, arrow keys,
// Enter twice plays); a focus ring drawn over the board. The room's "Describe
// the table", live region and sounds get `describe`, `announce` and `soundOf`.
//
// What happened: each history entry's `events` (docs/web-views.md, `ur`,
// "Events": throw, move, capture, flip, bear-off, again, pass, first) are
// worded in the page's language (`tell`, also used by the room and the
// replay, js/events.js) and the last few shown beside the board; the last
// throw (the opponent's too) is drawn from the throw event, the squares of
// the last move marked from the move event, a piece that turned marked from
// the flip event. The server's English (`said`, `long`) is never read.
//
// Analysis (the hook): each legal action's exact winning chance from the
// server's solved table (`parlour serve --table FILE`) comes as
// `legal[].chance` (0..1, null where the table does not cover it) in the
// server's `replay` steps. The table shows such chances only once the game is
// over or in a replay (a replay state names no seats): from `state.analysis`,
// `view.analysis`, a replay state's `legal`, or an event of type `analysis` /
// `replay` passed on by the page (readAnalysis reads them all). The room page
// passes no such message yet and the replay page lists the chances itself.

import { h, svg, clear } from '../js/dom.js';

const U = 48; // a square's side in SVG units
const M = 6; // margin
const STRIP = 46; // the reserve / borne-off strip above and below the board
const W = M * 2 + 8 * U;
const H = M * 2 + 3 * U + STRIP * 2;
const TOLD = 3; // the turns told beside the board, the latest first

let current = null; // the mounted table (refused() shows a refusal on it)
// The history entries the last table of this page held ({where: the page's path, hist}): a table
// mounted again in the same room (the language switched) gets only the latest state's entries,
// and tells what happened from these and them.
let kept = null;

let cssLinked = false;
function linkCss() {
  if (cssLinked || document.getElementById('ur-css')) return;
  cssLinked = true;
  document.head.append(h('link', { rel: 'stylesheet', href: '/games/ur.css', id: 'ur-css' }));
}

/** The path of `side` (0 Light, 1 Dark) as square names, under the view's options. */
export function pathOf(side, options) {
  const o = options || {};
  let p;
  if (o.rules === 'finkel') p = ['A4', 'A3', 'A2', 'A1', 'B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7', 'B8', 'A8', 'A7'];
  else {
    const loop = o.loop === 'opponent-first' ? ['C7', 'C8', 'B8', 'A8', 'A7'] : ['A7', 'A8', 'B8', 'C8', 'C7'];
    p = ['A4', 'A3', 'A2', 'A1', 'B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7', ...loop, 'B7', 'B6', 'B5', 'B4', 'B3', 'B2', 'B1'];
  }
  if (side === 1) p = p.map((s) => (s[0] === 'A' ? 'C' + s[1] : s[0] === 'C' ? 'A' + s[1] : s));
  return p;
}

/** The view's 20 squares in the notation's order (A1 … C8), each {square, kind, stack}: the view
 * names every square under its kind (`squares`) and gives the stacks of those that hold pieces
 * (`board`, bottom first). */
export function squaresOf(v) {
  const out = [];
  for (const [kind, list] of Object.entries((v && v.squares) || {}))
    for (const square of list) out.push({ square, kind, stack: (v.board && v.board[square]) || [] });
  return out.sort((a, b) => (a.square < b.square ? -1 : a.square > b.square ? 1 : 0));
}

/** One legal entry {action, fields} → {action, from: 'reserve'|square|null, depth (1 = top),
 * to: square|'off'|null, captures, flips, off, again, pass}: its fields (docs/web-views.md, `ur`,
 * "Action fields"); an entry without them moves nothing the table can show. */
export function moveOf(entry) {
  const f = (entry && entry.fields) || {};
  const sq = (x) => (typeof x === 'string' ? x : null);
  return {
    action: entry.action,
    from: sq(f.from),
    depth: Number.isInteger(f.depth) ? f.depth : 1,
    to: sq(f.to),
    captures: f.captures === true,
    flips: f.flips === true,
    off: f.off === true,
    again: f.again === true,
    pass: f.pass === true,
  };
}

/** A move in the page's language (`t` the catalogue), in words and the board's square names:
 * "B5 → B8, captures", "new piece → A3", "B2 → off the board", "B7 (piece 2 from the top) → C8";
 * a pass in words. No notation (`enter`, `B7:2`) reaches the page. */
export function moveWords(m, t) {
  if (m.pass) return t('ur.pass');
  if (!m.to || !m.from) return t('ur.move');
  const from = m.from === 'reserve' ? t('ur.enter') : m.depth > 1 ? t('ur.depth', { square: m.from, n: m.depth }) : m.from;
  const to = m.to === 'off' ? t('ur.to.off') : m.to;
  return `${from} → ${to}` + (m.captures ? t('ur.captures') : '') + (m.again ? t('ur.again') : '');
}

/** js/events.js: a legal action {action, fields, seat} in words. */
export function actionWords(a, ctx) {
  return moveWords(moveOf(a), ctx.t);
}

/** js/events.js: the sentences of a history entry {seq, seat, events} in the page's language
 * (ctx: {t, seat}: the reader's seat is "you"). Every event type of docs/web-views.md, `ur`. */
export function tell(entry, ctx) {
  const t = ctx.t;
  const side = (s) => (s === ctx.seat ? t('ur.you', { side: t('ur.side.' + s) }) : t('ur.side.' + s));
  const out = [];
  for (const e of (entry && Array.isArray(entry.events) ? entry.events : [])) {
    if (!e || (e.seat !== 0 && e.seat !== 1)) continue;
    const who = side(e.seat);
    if (e.type === 'first') out.push(t('ur.ev.first', { side: who }));
    else if (e.type === 'throw') {
      const lots = e.lots ? t('ur.lots', { marked: e.marked, total: e.lots }) : t('ur.lots.d4');
      out.push(t(e.opening ? 'ur.ev.throw.opening' : 'ur.ev.throw', { side: who, n: e.value, lots }));
    } else if (e.type === 'pass') out.push(t('ur.ev.pass', { side: who, n: e.roll }));
    else if (e.type === 'move') {
      if (e.from === 'reserve') out.push(t('ur.ev.move.enter', { side: who, to: e.to }));
      else if (e.to === 'off') out.push(t('ur.ev.move.off', { side: who, from: e.from }));
      else out.push(t('ur.ev.move', { side: who, from: e.from, to: e.to }));
    } else if (e.type === 'capture') out.push(t('ur.ev.capture', { side: who, owner: side(e.owner), square: e.square, n: e.count }));
    else if (e.type === 'flip') out.push(t('ur.ev.flip', { square: e.square }));
    else if (e.type === 'bear-off') out.push(t('ur.ev.bear-off', { side: who, n: e.count, of: e.of }));
    else if (e.type === 'again') out.push(t('ur.ev.again', { side: who, square: e.square }));
  }
  return out;
}

/** What happened, told by turns (the table's "What happened" list): each throw with what the
 * thrower then did, in one sentence of the page's language — "Dark threw 3: C2 → B1 and
 * captured your piece." — from the history entries' events (ctx: {t, seat}: the reader's seat
 * is "you"). `entries` in order; returns [{seq (the turn's last entry), seat, words}], oldest
 * first. A turn whose throw is not among the entries is told from its moves alone. */
export function turnLines(entries, ctx) {
  const t = ctx.t;
  const side = (s) => (s === ctx.seat ? t('ur.you', { side: t('ur.side.' + s) }) : t('ur.side.' + s));
  const out = [];
  let cur = null; // {seq, seat, thrown, parts}
  const close = () => {
    if (!cur) return;
    const who = side(cur.seat);
    let words;
    const and = (ps) => (ps.length < 2 ? ps.join('') : ps.slice(0, -1).join(', ') + t('ur.and') + ps[ps.length - 1]);
    if (cur.thrown === null) words = t('ur.turn.moved', { side: who, what: and(cur.parts) });
    else if (!cur.parts.length) words = t(cur.opening ? 'ur.turn.opening.waiting' : 'ur.turn.waiting', { side: who, n: cur.thrown });
    else words = t(cur.opening ? 'ur.turn.opening' : 'ur.turn', { side: who, n: cur.thrown, what: and(cur.parts) });
    out.push({ seq: cur.seq, seat: cur.seat, words });
    cur = null;
  };
  for (const entry of entries || []) {
    for (const e of entry && Array.isArray(entry.events) ? entry.events : []) {
      if (!e || (e.seat !== 0 && e.seat !== 1)) continue;
      if (e.type === 'first') {
        close();
        out.push({ seq: entry.seq, seat: e.seat, words: t('ur.ev.first', { side: side(e.seat) }) });
        continue;
      }
      if (e.type === 'throw') {
        close();
        cur = { seq: entry.seq, seat: e.seat, thrown: e.value, opening: !!e.opening, parts: [] };
        continue;
      }
      if (!cur || cur.seat !== e.seat || (e.type === 'move' && cur.parts.length && cur.moved)) {
        close();
        cur = { seq: entry.seq, seat: e.seat, thrown: null, opening: false, parts: [] };
      }
      cur.seq = entry.seq;
      if (e.type === 'pass') cur.parts.push(t('ur.do.pass'));
      else if (e.type === 'move') {
        cur.moved = true;
        if (e.from === 'reserve') cur.parts.push(t('ur.do.enter', { to: e.to }));
        else if (e.to === 'off') cur.parts.push(t('ur.do.off', { from: e.from }));
        else cur.parts.push(t('ur.do.move', { from: e.from, to: e.to }));
      } else if (e.type === 'capture')
        cur.parts.push(e.owner === ctx.seat ? t('ur.do.capture.you', { square: e.square }) : t('ur.do.capture', { owner: t('ur.side.gen.' + e.owner), square: e.square }));
      else if (e.type === 'flip') cur.parts.push(t('ur.do.flip'));
      else if (e.type === 'bear-off') cur.parts.push(t('ur.do.bear-off', { n: e.count, of: e.of }));
      else if (e.type === 'again') cur.parts.push(t('ur.do.again'));
    }
  }
  close();
  return out;
}

// The refusal words of docs/web-views.md, `ur`, "Refusals" (src/games/ur/ur.c): each has its
// `ur.refusal.WORD` in the catalogues.
const REFUSALS = new Set(['must-move', 'throw-zero', 'reserve-empty', 'no-square', 'no-piece', 'stack-short', 'not-top', 'not-yours', 'name-topmost',
  'overshoot', 'own-piece', 'rosette-taken', 'their-depot', 'depot-full', 'safe-full', 'finish-marked', 'other-side', 'not-a-move']);

/** The refusal of an illegal move ({why, from, to, ...}: docs/web-views.md, `ur`, "Refusals")
 * in words of the page's language (`t` the catalogue); null for a word it does not know. */
export function refusalWords(ref, t) {
  if (!ref || !REFUSALS.has(ref.why)) return null;
  const key = 'ur.refusal.' + ref.why;
  const vars = { ...ref };
  if (ref.owner === 0 || ref.owner === 1) vars.owner = t('ur.side.' + ref.owner);
  return t(key, vars);
}

/** Winning chances from an analysis message or a replay step, loosely:
 * {legal|moves|analysis|chances|steps[last]: [{action, fields?, chance|win|p|value}]}
 * (docs/web-protocol.md: each legal action's `chance`, the solved table's
 * P(the seat to act wins) after it; null where the table does not cover it)
 * → [{action, fields, p (0..1 or null)}], or null when no entry has a chance. */
export function readAnalysis(a) {
  if (!a || typeof a !== 'object') return null;
  let list = Array.isArray(a) ? a : a.legal || a.moves || a.analysis || a.chances;
  if (!list && Array.isArray(a.steps) && a.steps.length) list = a.steps[a.steps.length - 1].legal;
  if (!Array.isArray(list)) return null;
  const out = [];
  let any = false;
  for (const e of list) {
    if (!e || typeof e.action !== 'string') continue;
    let p = [e.chance, e.win, e.p, e.value, e.win_pct !== undefined && e.win_pct !== null ? e.win_pct / 100 : undefined].find((x) => typeof x === 'number');
    if (p === undefined) p = null;
    else {
      any = true;
      if (p > 1) p /= 100;
    }
    out.push({ action: e.action, fields: e.fields || {}, p });
  }
  return any ? out : null;
}

// ---- words for a screen reader (issue 32): the board's cells, the table described, what is
// announced after each history entry. No arrows ("→" is read out as "right arrow"), no notation.

/** One stack (bottom first, as the view gives it) in words, the top first: "your piece",
 * "Dark piece, marked side up", "2 pieces, from the top: Dark piece; your piece", "empty"
 * (ctx: {t, seat}: the reader's pieces are "your"). */
export function stackWords(stack, ctx) {
  const t = ctx.t;
  const one = (p) => {
    const w = p.owner === ctx.seat ? t('ur.a11y.piece.own') : t('ur.a11y.piece.of', { owner: t('ur.side.gen.' + p.owner) });
    return p.marked ? t('ur.a11y.piece.marked', { piece: w }) : w;
  };
  const list = Array.isArray(stack) ? stack : [];
  if (!list.length) return t('ur.a11y.empty');
  if (list.length === 1) return one(list[0]);
  return t('ur.a11y.stack', { n: list.length, list: list.slice().reverse().map(one).join(t('ur.a11y.list')) });
}

/** A square {square, kind, stack} (squaresOf) in words: "B5, rosette, your piece",
 * "A3, empty" (a plain square's kind is not said). */
export function squareWords(b, ctx) {
  const pieces = stackWords(b.stack, ctx);
  if (b.kind === 'plain') return ctx.t('ur.a11y.square.plain', { square: b.square, pieces });
  return ctx.t('ur.a11y.square', { square: b.square, kind: ctx.t('ur.a11y.kind.' + b.kind), pieces });
}

/** A move {from, to, depth, captures, again, pass} (moveOf) as it is said: "B5 to B8, captures",
 * "a new piece to A4", "B2 off the board", "pass"; the words of `t`. */
export function moveSpoken(m, t) {
  if (m.pass) return t('ur.pass');
  if (!m.to || !m.from) return t('ur.move');
  const from = m.depth > 1 ? t('ur.depth', { square: m.from, n: m.depth }) : m.from;
  const w = m.from === 'reserve' ? t('ur.a11y.mv.enter', { to: m.to }) : m.to === 'off' ? t('ur.a11y.mv.off', { from }) : t('ur.a11y.mv', { from, to: m.to });
  return w + (m.captures ? t('ur.captures') : '') + (m.again ? t('ur.again') : '');
}

/** The room's "Describe the table" (docs/web-ui.md): the position of view `view` in sentences of
 * the page's language. ctx: {t, seat, names?, state?} (the room's; names[i] the seats' names,
 * state.legal the reader's moves). Says whose turn and the throw, each side's pieces (reserve,
 * squares, borne off; the reader's first), the stacks of unlike pieces, what the reader may do,
 * and the other side's last turn as the table tells it. Never throws on a view it does not know: says less. */
export function describe(view, ctx) {
  const t = ctx.t;
  const v = view || {};
  const seat = ctx.seat;
  const out = [];
  const pieces = (v.options && v.options.pieces) || 7;
  const off = v.off || [0, 0];
  const res = v.reserve || [0, 0];
  const named = (s) => {
    const w = t('ur.side.' + s);
    if (s === seat) return t('ur.you', { side: w });
    const n = ctx.names && ctx.names[s];
    return n ? t('ur.a11y.d.named', { side: w, name: n }) : w;
  };
  if (v.stage === 'over') {
    const won = off[0] >= pieces ? 0 : off[1] >= pieces ? 1 : null;
    out.push(won === null ? t('ur.stage.over') : won === seat ? t('ur.a11y.d.won.you') : t('ur.a11y.d.won', { side: named(won) }));
  } else if (v.stage === 'first') out.push(t('ur.stage.first'));
  else if (v.stage === 'opening') out.push(t('ur.stage.opening', { side: named(v.turn) }));
  else if (v.stage === 'roll') out.push(v.turn === seat ? t('ur.a11y.d.throw.you') : t('ur.a11y.d.throw', { side: named(v.turn) }));
  else if (v.turn === 0 || v.turn === 1) out.push(v.turn === seat ? t('ur.a11y.d.move.you', { n: v.roll }) : t('ur.a11y.d.move', { side: named(v.turn), n: v.roll }));
  const cells = squaresOf(v);
  for (const s of seat === 1 ? [1, 0] : [0, 1]) {
    const where = [];
    for (const b of cells) {
      const mine = b.stack.filter((p) => p.owner === s);
      if (!mine.length) continue;
      const notes = [];
      if (b.kind !== 'plain') notes.push(t('ur.a11y.kind.' + b.kind));
      if (mine.length > 1) notes.push(t('ur.a11y.d.n', { n: mine.length }));
      const marked = mine.filter((p) => p.marked).length;
      if (marked) notes.push(mine.length === 1 ? t('ur.a11y.d.marked') : t('ur.a11y.d.nmarked', { n: marked }));
      where.push(notes.length ? t('ur.a11y.d.at', { square: b.square, notes: notes.join(t('ur.a11y.sep')) }) : b.square);
    }
    const vars = { side: named(s), reserve: res[s] ?? 0, off: off[s] ?? 0, of: pieces, board: where.length ? where.join(t('ur.a11y.sep')) : t('ur.a11y.d.none') };
    out.push(s === seat ? t('ur.a11y.d.pieces.you', { ...vars, side: t('ur.side.' + s) }) : t('ur.a11y.d.pieces', vars));
  }
  for (const b of cells)
    if (b.stack.length > 1 && new Set(b.stack.map((p) => p.owner)).size > 1) out.push(t('ur.a11y.d.stack', { square: b.square, pieces: stackWords(b.stack, ctx) }));
  const st = ctx.state || {};
  const mine = seat >= 0 && Array.isArray(st.legal) && v.stage !== 'over' ? st.legal.filter((e) => e.seat === undefined || e.seat === seat).map(moveOf) : [];
  if (mine.length) {
    out.push(t('ur.a11y.d.may', { moves: mine.map((m, i) => t('ur.a11y.d.nth', { n: i + 1, move: moveSpoken(m, t) })).join(t('ur.a11y.list')) }));
    out.push(t('ur.a11y.d.keys'));
  } else if (seat >= 0 && v.stage !== 'over' && (v.turn === 0 || v.turn === 1) && v.turn !== seat) out.push(t('ur.a11y.d.wait', { side: named(v.turn) }));
  const where = typeof location === 'undefined' ? '' : location.pathname;
  if (kept && kept.where === where) {
    // the other side's last turn (a player knows their own), else the last one
    const lines = turnLines(kept.hist, { t, seat });
    const theirs = seat >= 0 ? lines.filter((l) => l.seat !== seat) : lines;
    const line = theirs.length ? theirs[theirs.length - 1] : null;
    if (line) out.push(t(seat >= 0 && line.seat !== seat ? 'ur.a11y.d.last.other' : 'ur.a11y.d.last', { what: line.words }));
  }
  return out;
}

/** The room's announcement of a new history entry {seq, seat, events} (issue 32): short
 * sentences for a screen reader, shorter than `tell` and without arrows — the throw ("Dark threw
 * 3."), the move ("Dark: C2 to B1."), a capture ("Your piece on B1 is captured…"), a rosette's
 * throw again, a pass, a piece borne off, and the win with the last piece. ctx: {t, seat}. */
export function announce(entry, ctx) {
  const t = ctx.t;
  const who = (s) => (s === ctx.seat ? t('ur.a11y.say.you') : t('ur.side.' + s));
  const out = [];
  for (const e of entry && Array.isArray(entry.events) ? entry.events : []) {
    if (!e || (e.seat !== 0 && e.seat !== 1)) continue;
    const w = who(e.seat);
    if (e.type === 'first') out.push(t('ur.a11y.say.first', { who: w }));
    else if (e.type === 'throw') out.push(t('ur.a11y.say.throw', { who: w, n: e.value }));
    else if (e.type === 'pass') out.push(t('ur.a11y.say.pass', { who: w, n: e.roll }));
    else if (e.type === 'move') {
      if (e.from === 'reserve') out.push(t('ur.a11y.say.enter', { who: w, to: e.to }));
      else if (e.to === 'off') out.push(t('ur.a11y.say.off', { who: w, from: e.from }));
      else out.push(t('ur.a11y.say.move', { who: w, from: e.from, to: e.to }));
    } else if (e.type === 'capture')
      out.push(e.owner === ctx.seat ? t('ur.a11y.say.captured.you', { square: e.square }) : t('ur.a11y.say.capture', { who: w, owner: t('ur.side.gen.' + e.owner), square: e.square }));
    else if (e.type === 'flip') out.push(t('ur.a11y.say.flip', { square: e.square }));
    else if (e.type === 'bear-off') {
      if (e.count >= e.of) out.push(e.seat === ctx.seat ? t('ur.a11y.say.won.you') : t('ur.a11y.say.won', { side: t('ur.side.' + e.seat) }));
      else out.push(t('ur.a11y.say.borne', { who: w, n: e.count, of: e.of }));
    } else if (e.type === 'again') out.push(t('ur.a11y.say.again', { who: w }));
  }
  return out;
}

/** The room's sound for a history entry (issue 32): 'capture' when it took a piece, else 'move'. */
export function soundOf(entry) {
  const ev = entry && Array.isArray(entry.events) ? entry.events : [];
  return ev.some((e) => e && e.type === 'capture') ? 'capture' : 'move';
}

export function mount(root, api) {
  linkCss();
  const t = api.t;
  const S = {
    state: null,
    view: null,
    moves: [], // this seat's legal entries, as moveOf gives them
    sel: -1, // the selected move (index into moves)
    hover: -1, // the move previewed by hover / focus
    focusKey: null, // the board's one Tab stop: the key of the cell that has it (a square, reserveS, offS)
    listFocus: 0, // the moves' one Tab stop: the index of the move that has it
    pending: false, // an act is on its way
    rolls: new Map(), // seq → the throw event of that entry (the last throw when the view has none)
    analysis: null, // {seq, moves: [{action, fields, p}]}
    flipped: new Set(), // squares whose top piece has just turned marked (flip events; animated once)
    arrived: new Map(), // square → where its top piece has just come from (move events; slides in once)
    last: new Set(), // the squares the last turn's moves left and reached (its move events)
    lastMoves: [], // those moves' events {seat, from, to}: arrows on the board until the next turn's move
    captured: new Set(), // squares where the last turn captured
    hist: [], // the history's entries with events, by seq (what happened is told from them)
    told: [], // the last TOLD turns told: {seq, seat, words}
    refusal: null, // {key, words}: a refused move's words, shown by the square until the next state
  };
  const els = {};

  // ---- words ----
  const side = (s) => t('ur.side.' + s);
  const sideYou = (s) => (s === api.seat ? t('ur.you', { side: side(s) }) : side(s));
  const words = { t, seat: api.seat }; // the ctx of the words above (squareWords, moveSpoken)

  // A move in the interface's language: the notation's squares, the flags translated.
  const moveText = (m) => moveWords(m, t);

  // ---- geometry ----
  // The viewer's own row at the bottom (Light's row A for a spectator).
  const bottom = () => (api.seat === 1 ? 1 : 0);
  const rowY = (row) => {
    const order = bottom() === 0 ? ['C', 'B', 'A'] : ['A', 'B', 'C'];
    return M + STRIP + order.indexOf(row) * U;
  };
  const colX = (col) => M + (col - 1) * U;
  const centre = (sq) => [colX(Number(sq[1])) + U / 2, rowY(sq[0]) + U / 2];
  const stripY = (s) => (s === bottom() ? M + STRIP + 3 * U + 2 : M);

  // ---- the frame ----
  // The board is a grid for assistive technology (issue 32): its rows as the eye sees them (the
  // top player's reserve and borne-off box, the three rows of squares, the bottom player's), each
  // square and box a cell; one Tab stop (the roving tabindex, S.focusKey), arrow keys inside.
  const svgEl = svg('svg', {
    class: 'ur-board',
    viewBox: `0 0 ${W} ${H}`,
    role: 'grid',
    'aria-label': t('ur.board'),
  });
  els.info = h('div', { class: 'ur-info' });
  els.lots = h('div', { class: 'ur-lots' });
  els.line = h('p', { class: 'ur-line', 'aria-live': 'polite' });
  // not a live region: the room's announcer says each new entry (announce below)
  els.told = h('ol', { class: 'ur-told', id: 'ur-told', 'aria-label': t('ur.told') });
  els.refusal = h('p', { class: 'ur-refusal', id: 'ur-refusal', role: 'alert', hidden: true });
  els.moveBtn = h('button', { type: 'button', class: 'primary ur-play', id: 'ur-play', onclick: () => play() }, t('ur.move'));
  // the moves: one Tab stop, arrow keys inside (a toolbar with a roving tabindex)
  els.list = h('div', { class: 'ur-moves', role: 'toolbar', 'aria-label': t('ur.moves'), onkeydown: onListKey });
  els.analysis = h('div', { class: 'ur-analysis', hidden: true });
  root.append(h('div', { class: 'ur-box' },
    h('div', { class: 'ur-table' },
      h('div', { class: 'ur-board-box' }, svgEl, els.refusal),
      h('div', { class: 'ur-panel' }, h('div', { class: 'ur-throw' }, els.lots, els.info), els.told, els.line, h('div', { class: 'ur-act row' }, els.moveBtn), els.list, els.analysis))),
  );

  // ---- drawing the squares ----
  function drawKind(g, kind, x, y, sq) {
    const cx = x + U / 2;
    const cy = y + U / 2;
    const light = sq[0] === 'A' ? 0 : sq[0] === 'C' ? 1 : -1;
    g.append(svg('rect', { class: 'ur-sq ur-k-' + kind + (light >= 0 ? ' ur-lane' + light : ''), x: x + 1, y: y + 1, width: U - 2, height: U - 2, rx: 4 }));
    if (kind === 'rosette') {
      for (let i = 0; i < 8; i++)
        g.append(svg('ellipse', { class: 'ur-petal', cx, cy: cy - 10, rx: 4.2, ry: 10, transform: `rotate(${i * 45} ${cx} ${cy})` }));
      g.append(svg('circle', { class: 'ur-heart', cx, cy, r: 4.5 }));
    } else if (kind === 'lane-eyes' || kind === 'b7-eyes') {
      for (const [dx, dy] of [[-10, -9], [10, -9], [-10, 9], [10, 9]]) {
        g.append(svg('ellipse', { class: 'ur-eye', cx: cx + dx, cy: cy + dy, rx: 7, ry: 4.2 }));
        g.append(svg('circle', { class: 'ur-pupil', cx: cx + dx, cy: cy + dy, r: 2.2 }));
      }
    } else if (kind === 'safe') {
      // the "four fives": a quincunx in each quarter
      for (const [qx, qy] of [[-11, -11], [11, -11], [-11, 11], [11, 11]])
        for (const [dx, dy] of [[0, 0], [-5, -5], [5, -5], [-5, 5], [5, 5]])
          g.append(svg('circle', { class: 'ur-dot', cx: cx + qx + dx, cy: cy + qy + dy, r: 1.7 }));
    } else if (kind === 'conversion') {
      // the "wavy fives": waves, and the turn of the piece it stands for
      for (const dy of [-12, -4, 4, 12])
        g.append(svg('path', { class: 'ur-wave', d: `M${x + 7} ${cy + dy} q5 -5 8.5 0 t8.5 0 t8.5 0 t8.5 0` }));
    } else if (kind === 'finish') {
      g.append(svg('path', { class: 'ur-gate', d: `M${x + 10} ${y + 10} h${U - 20} v${U - 20} h${-(U - 20)} z M${cx} ${y + 10} v${U - 20}` }));
    } else {
      g.append(svg('circle', { class: 'ur-dot', cx, cy, r: 2 }));
    }
    g.append(svg('text', { class: 'ur-name', x: x + 4, y: y + U - 4 }, sq));
  }

  // A piece: Light a plain disc, Dark a disc with a small ring at its centre (the sides told by shape too, not
  // by colour alone); the marked side shows five pips.
  function drawPiece(g, p, cx, cy, r, extraClass) {
    const c = 'ur-piece ur-p' + p.owner + (p.marked ? ' ur-marked' : ' ur-blank') + (extraClass ? ' ' + extraClass : '');
    const pg = svg('g', { class: c });
    pg.append(svg('circle', { cx, cy, r }));
    if (p.owner === 1) pg.append(svg('circle', { class: 'ur-inring', cx, cy, r: r * 0.34 }));
    if (p.marked)
      for (const [dx, dy] of [[0, 0], [-0.45, -0.45], [0.45, -0.45], [-0.45, 0.45], [0.45, 0.45]])
        pg.append(svg('circle', { class: 'ur-pip', cx: cx + dx * r, cy: cy + dy * r, r: r * 0.14 }));
    g.append(pg);
    return pg;
  }

  // ---- the whole board, from the view ----
  function render() {
    const v = S.view;
    // the focus survives the redraw: it was on a cell, it goes to the cell of the same key
    const hadFocus = svgEl.contains(document.activeElement);
    clear(svgEl);
    if (!v) return;
    const defs = svg('defs', {},
      [0, 1].map((s) => svg('marker', { id: 'ur-arrow' + s, viewBox: '0 0 8 8', refX: 6, refY: 4, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
        svg('path', { class: 'ur-arrowhead ur-path' + s, d: 'M0 0 L8 4 L0 8 z' }))),
      svg('marker', { id: 'ur-lastarrow', viewBox: '0 0 8 8', refX: 5, refY: 4, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse' },
        svg('path', { class: 'ur-lastarrowhead', d: 'M0 0 L8 4 L0 8 z' })));
    svgEl.append(defs);
    svgEl.append(svg('g', { 'aria-hidden': 'true' },
      svg('rect', { class: 'ur-frame', x: M - 3, y: M + STRIP - 3, width: 4 * U + 6, height: 3 * U + 6, rx: 6 }),
      svg('rect', { class: 'ur-frame', x: M + 4 * U - 3, y: rowY('B') - 3, width: 2 * U + 6, height: U + 6, rx: 4 }),
      svg('rect', { class: 'ur-frame', x: M + 6 * U - 3, y: M + STRIP - 3, width: 2 * U + 6, height: 3 * U + 6, rx: 6 })));

    // the grid's rows, top to bottom as drawn: the top player's strip, rows C B A (or A B C), the bottom's
    const rows = [0, 1, 2, 3, 4].map(() => svg('g', { role: 'row' }));
    const rowOrder = bottom() === 0 ? ['C', 'B', 'A'] : ['A', 'B', 'C'];
    const pathG = svg('g', { class: 'ur-pathline', 'aria-hidden': 'true' });
    const pcG = svg('g', { class: 'ur-pieces', 'aria-hidden': 'true' });
    const labelsG = svg('g', { class: 'ur-labels', 'aria-hidden': 'true' });
    els.over = svg('g', { class: 'ur-overlay', 'aria-hidden': 'true' });
    els.sq = new Map();
    els.places = []; // every cell: {key, el, x, y (its centre), box: [x, y, w, h]}
    for (const b of squaresOf(v)) {
      const x = colX(Number(b.square[1]));
      const y = rowY(b.square[0]);
      const g = svg('g', { class: 'ur-square', tabindex: '-1', role: 'gridcell', dataset: { square: b.square, key: b.square, kind: b.kind } });
      drawKind(g, b.kind, x, y, b.square);
      g.append(svg('rect', { class: 'ur-hl', x: x + 2.5, y: y + 2.5, width: U - 5, height: U - 5, rx: 4 }));
      rows[1 + rowOrder.indexOf(b.square[0])].append(g);
      els.sq.set(b.square, { g, b });
      els.places.push({ key: b.square, el: g, x: x + U / 2, y: y + U / 2, box: [x, y, U, U] });
      // the stack: each piece a little higher than the one under it, the count when more than one
      const n = b.stack.length;
      const [cx, cy] = centre(b.square);
      const came = S.arrived.get(b.square);
      b.stack.forEach((p, i) => {
        const flip = i === n - 1 && p.marked && S.flipped.has(b.square);
        const slide = i === n - 1 && came && p.owner === came.seat;
        const pg = drawPiece(pcG, p, cx, cy + (n > 1 ? 6 - i * 4 : 0), 13, (i === n - 1 ? 'ur-top' : 'ur-under') + (slide ? ' ur-arrive' : flip ? ' ur-flip' : ''));
        if (slide) {
          // the piece slides in from where it left (a square, or its reserve), once
          const [fx, fy] = /^[A-C][1-8]$/.test(came.from) ? centre(came.from) : [M + 14, stripY(came.seat) + 29];
          pg.style.setProperty('--ur-dx', (fx - cx).toFixed(1) + 'px');
          pg.style.setProperty('--ur-dy', (fy - cy).toFixed(1) + 'px');
        }
        pg.dataset.square = b.square;
        pg.dataset.depth = String(n - i);
      });
      if (n > 1) {
        pcG.append(svg('circle', { class: 'ur-count-bg', cx: x + U - 9, cy: y + 9, r: 7.5 }));
        pcG.append(svg('text', { class: 'ur-count', x: x + U - 9, y: y + 12.5, 'text-anchor': 'middle' }, String(n)));
      }
    }
    // the path of the side to move (the viewer's own before the start)
    const who = v.stage === 'over' ? bottom() : v.turn === 0 || v.turn === 1 ? v.turn : bottom();
    const pts = [];
    const path = pathOf(who, v.options);
    const half = Math.ceil(path.length / 2);
    pts.push([centre(path[0])[0], who === bottom() ? stripY(who) + 4 : stripY(who) + STRIP - 4]);
    path.forEach((sq, i) => {
      let [x, y] = centre(sq);
      if (sq[0] === 'B' && v.options && v.options.rules !== 'finkel') y += i < half ? -U / 4 : U / 4;
      pts.push([x, y]);
    });
    const [lx, ly] = pts[pts.length - 1];
    pts.push([lx - U / 2 - 4, ly]);
    pathG.append(svg('polyline', { class: 'ur-path ur-path' + who, points: pts.map((p) => p.map((n) => n.toFixed(1)).join(',')).join(' '), 'marker-end': `url(#ur-arrow${who})` }));

    // reserve and borne off, per player (their words drawn beside the cells, aria-hidden: each
    // cell's name says them, with more)
    els.reserve = [];
    els.off = [];
    for (const s of [0, 1]) {
      const y = stripY(s);
      const nRes = (v.reserve || [0, 0])[s];
      const nOff = (v.off || [0, 0])[s];
      const res = svg('g', { class: 'ur-reserve ur-zone', tabindex: '-1', role: 'gridcell', dataset: { reserve: String(s), key: 'reserve' + s } });
      res.append(svg('rect', { class: 'ur-zone-bg', x: M, y, width: 4 * U - 4, height: STRIP - 4, rx: 6 }));
      labelsG.append(svg('text', { class: 'ur-label', x: M + 6, y: y + 13 }, `${sideYou(s)} · ${t('ur.reserve.short')} ${nRes}`));
      for (let i = 0; i < nRes; i++) drawPiece(res, { owner: s, marked: false }, M + 14 + i * 24, y + 29, 9.5, '');
      res.append(svg('rect', { class: 'ur-hl', x: M + 1.5, y: y + 1.5, width: 4 * U - 7, height: STRIP - 7, rx: 5 }));
      const off = svg('g', { class: 'ur-offzone ur-zone', role: 'gridcell', dataset: { off: String(s), key: 'off' + s }, tabindex: '-1' });
      off.append(svg('rect', { class: 'ur-zone-bg', x: M + 4 * U + 4, y, width: 4 * U - 4, height: STRIP - 4, rx: 6 }));
      labelsG.append(svg('text', { class: 'ur-label', x: M + 4 * U + 10, y: y + 13 }, `${t('ur.off.short')} ${nOff}`));
      for (let i = 0; i < nOff; i++) drawPiece(off, { owner: s, marked: true }, M + 4 * U + 18 + i * 24, y + 29, 9.5, '');
      off.append(svg('rect', { class: 'ur-hl', x: M + 4 * U + 5.5, y: y + 1.5, width: 4 * U - 7, height: STRIP - 7, rx: 5 }));
      const row = rows[s === bottom() ? 4 : 0];
      row.append(res, off);
      els.reserve[s] = res;
      els.off[s] = off;
      els.places.push({ key: 'reserve' + s, el: res, x: M + 2 * U - 2, y: y + (STRIP - 4) / 2, box: [M, y, 4 * U - 4, STRIP - 4] });
      els.places.push({ key: 'off' + s, el: off, x: M + 6 * U + 2, y: y + (STRIP - 4) / 2, box: [M + 4 * U + 4, y, 4 * U - 4, STRIP - 4] });
    }
    // the focus ring (issue 32): white round dark, seen on any colour of the board
    els.ring = svg('g', { class: 'ur-focusring', 'aria-hidden': 'true', visibility: 'hidden' },
      svg('rect', { class: 'ur-focus-out', rx: 6 }), svg('rect', { class: 'ur-focus-in', rx: 6 }));
    svgEl.append(...rows, labelsG, pathG, lastMovesG(), pcG, els.over, els.ring);
    for (const { el } of els.places) {
      el.addEventListener('click', onTap);
      el.addEventListener('mouseenter', onHover);
      el.addEventListener('mouseleave', onLeave);
      el.addEventListener('focus', onFocus);
      el.addEventListener('blur', onBlur);
      el.addEventListener('keydown', onPlaceKey);
    }
    renderMarks();
    if (hadFocus) {
      const p = placeOf(S.focusKey);
      if (p) p.el.focus();
    }
  }

  // ---- the keyboard on the board (issue 32) ----
  const placeOf = (key) => (els.places || []).find((p) => p.key === key) || null;

  // The cell the arrow key `dir` leads to from `key`: the nearest in that direction, in the same
  // row for left and right, in the nearest row for up and down (then the nearest column); Home and
  // End the first and last of the row. Null at an edge.
  function neighbour(key, dir) {
    const cur = placeOf(key);
    if (!cur) return null;
    const same = (p) => Math.abs(p.y - cur.y) < U / 2;
    const dx = (p) => p.x - cur.x;
    const dy = (p) => p.y - cur.y;
    let c = els.places.filter((p) => p !== cur);
    if (dir === 'left' || dir === 'right' || dir === 'home' || dir === 'end') {
      c = c.filter(same);
      if (dir === 'left') c = c.filter((p) => dx(p) < 0).sort((a, b) => dx(b) - dx(a));
      else if (dir === 'right') c = c.filter((p) => dx(p) > 0).sort((a, b) => dx(a) - dx(b));
      else if (dir === 'home') c = c.filter((p) => dx(p) < 0).sort((a, b) => dx(a) - dx(b));
      else c = c.filter((p) => dx(p) > 0).sort((a, b) => dx(b) - dx(a));
      return c[0] || null;
    }
    c = c.filter((p) => (dir === 'up' ? dy(p) < -U / 2 : dy(p) > U / 2));
    if (!c.length) return null;
    const near = Math.min(...c.map((p) => Math.abs(dy(p))));
    c = c.filter((p) => Math.abs(dy(p)) < near + U / 2).sort((a, b) => Math.abs(dx(a)) - Math.abs(dx(b)));
    return c[0];
  }

  const ARROWS = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', Home: 'home', End: 'end' };

  function onPlaceKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      ev.stopPropagation();
      tapKey(keyOf(ev.currentTarget));
    } else if (ARROWS[ev.key]) {
      ev.preventDefault();
      const to = neighbour(ev.currentTarget.dataset.key, ARROWS[ev.key]);
      if (to) to.el.focus();
    }
  }

  function onFocus(ev) {
    const el = ev.currentTarget;
    S.focusKey = el.dataset.key;
    for (const p of els.places) p.el.setAttribute('tabindex', p.el === el ? '0' : '-1');
    // the ring only for the keyboard's focus (a tap leaves none behind)
    const p = placeOf(S.focusKey);
    if (p && el.matches(':focus-visible')) {
      const [x, y, w, hh] = p.box;
      for (const r of els.ring.children) Object.entries({ x: x - 1.5, y: y - 1.5, width: w + 3, height: hh + 3 }).forEach(([k, n]) => r.setAttribute(k, n));
      els.ring.setAttribute('visibility', 'visible');
    }
    onHover(ev);
  }

  function onBlur(ev) {
    els.ring.setAttribute('visibility', 'hidden');
    onLeave(ev);
  }

  // The last turn's moves (the opponent's, until this seat's next move): an arrow from where each
  // piece left (a square, or its reserve) to where it went (a square, or its borne-off box), and
  // a burst on a square where a piece was captured.
  function lastMovesG() {
    const g = svg('g', { class: 'ur-lastmoves', 'aria-hidden': 'true' });
    const at = (place, s, isFrom) => {
      if (/^[A-C][1-8]$/.test(place)) return centre(place);
      const y = stripY(s) + (STRIP - 4) / 2;
      return place === 'reserve' ? [M + 2 * U, y] : [M + 6 * U, y];
    };
    for (const mv of S.lastMoves) {
      const [x1, y1] = at(mv.from, mv.seat, true);
      const [x2, y2] = at(mv.to, mv.seat, false);
      const d = Math.hypot(x2 - x1, y2 - y1) || 1;
      const k = Math.min(15, d / 3) / d; // stop short of the centres: the pieces stay visible
      g.append(svg('line', { class: 'ur-lastline ur-lastline' + mv.seat, x1: x1 + (x2 - x1) * k, y1: y1 + (y2 - y1) * k, x2: x2 - (x2 - x1) * k, y2: y2 - (y2 - y1) * k, 'marker-end': 'url(#ur-lastarrow)', dataset: { from: mv.from, to: mv.to } }));
    }
    for (const sq of S.captured) {
      if (!els.sq.has(sq)) continue;
      const [cx, cy] = centre(sq);
      g.append(svg('circle', { class: 'ur-burst', cx, cy, r: 19, dataset: { square: sq } }));
    }
    return g;
  }

  // ---- the marks that follow the selection: movable, selected, target ----
  const moveAt = (key) => {
    // the moves whose piece is on this square (or in this reserve)
    const out = [];
    S.moves.forEach((m, i) => {
      if ((m.from === 'reserve' && key === 'reserve' + S.view.turn) || m.from === key) out.push(i);
    });
    return out;
  };

  // The words a cell's name adds to what it holds: the last turn's marks and the selection, which
  // the board shows by colour and arrows (said too, issue 32 §3).
  function cellNotes(key, { can, sel, preview, target }) {
    const notes = [];
    if (S.lastMoves.some((m) => m.from === key || (key === 'reserve' + m.seat && m.from === 'reserve'))) notes.push(t('ur.a11y.last.from'));
    if (S.lastMoves.some((m) => m.to === key || (key === 'off' + m.seat && m.to === 'off'))) notes.push(t('ur.a11y.last.to'));
    if (S.captured.has(key)) notes.push(t('ur.a11y.captured'));
    if (sel) notes.push(t('ur.a11y.sel'));
    else if (can) notes.push(t('ur.a11y.can'));
    if (target) notes.push(t(preview ? 'ur.a11y.target.preview' : 'ur.a11y.target'));
    return notes;
  }

  // A cell's name, state and Tab stop: aria-selected on a piece that can be chosen (true when
  // chosen), aria-disabled on a cell that does nothing now.
  function markCell(el, key, base, st) {
    el.setAttribute('aria-label', [base, ...cellNotes(key, st)].join(t('ur.a11y.sep')));
    if (st.can || st.sel) el.setAttribute('aria-selected', String(!!st.sel));
    else el.removeAttribute('aria-selected');
    if (st.can || st.sel || (st.target && !st.preview)) el.removeAttribute('aria-disabled');
    else el.setAttribute('aria-disabled', 'true');
    el.setAttribute('tabindex', key === S.focusKey ? '0' : '-1');
  }

  function renderMarks() {
    const v = S.view;
    if (!v || !els.sq) return;
    clear(els.over);
    const shown = S.sel >= 0 ? S.sel : S.hover;
    const cur = shown >= 0 ? S.moves[shown] : null;
    const fromKey = (m) => (m.from === 'reserve' ? 'reserve' + v.turn : m.from);
    const movable = new Set(S.moves.filter((m) => m.from).map(fromKey));
    if (!placeOf(S.focusKey)) S.focusKey = S.moves.length && S.moves[0].from ? fromKey(S.moves[0]) : 'reserve' + bottom();
    const chosen = S.sel >= 0;
    for (const [sq, { g, b }] of els.sq) {
      const can = movable.has(sq);
      const isSel = cur && fromKey(cur) === sq;
      const isTarget = cur && cur.to === sq;
      g.classList.toggle('ur-can', can);
      g.classList.toggle('ur-sel', !!isSel && chosen);
      g.classList.toggle('ur-preview', !!isSel && !chosen);
      g.classList.toggle('ur-target', !!isTarget);
      g.classList.toggle('ur-last', S.last.has(sq));
      if (isTarget) g.dataset.target = '1';
      else delete g.dataset.target;
      markCell(g, sq, squareWords(b, words), { can, sel: !!isSel && chosen, preview: !chosen, target: !!isTarget });
    }
    for (const s of [0, 1]) {
      const res = els.reserve[s];
      const can = movable.has('reserve' + s);
      const isSel = cur && cur.from === 'reserve' && s === v.turn;
      res.classList.toggle('ur-can', can);
      res.classList.toggle('ur-sel', !!isSel && chosen);
      res.classList.toggle('ur-preview', !!isSel && !chosen);
      const offT = cur && cur.to === 'off' && s === v.turn;
      els.off[s].classList.toggle('ur-target', !!offT);
      if (offT) els.off[s].dataset.target = '1';
      else delete els.off[s].dataset.target;
      markCell(res, 'reserve' + s, t('ur.reserve', { side: sideYou(s), n: (v.reserve || [0, 0])[s] }), { can, sel: !!isSel && chosen, preview: !chosen });
      markCell(els.off[s], 'off' + s, t('ur.off', { side: sideYou(s), n: (v.off || [0, 0])[s] }), { target: !!offT, preview: !chosen });
    }
    // the piece that would move, drawn faintly where it lands
    if (cur && cur.to && cur.to !== 'off' && els.sq.has(cur.to)) {
      const mover = cur.from === 'reserve' ? { owner: v.turn, marked: false } : pieceOf(cur);
      if (mover) {
        const [cx, cy] = centre(cur.to);
        const marked = mover.marked || cur.flips; // the move's fields: it turns marked (UR-R8)
        drawPiece(els.over, { owner: mover.owner, marked }, cx, cy - 2, 13, 'ur-ghost');
      }
    }
    // the piece that would move, ringed
    if (cur && cur.from && cur.from !== 'reserve' && els.sq.has(cur.from)) {
      const n = els.sq.get(cur.from).b.stack.length;
      const [cx, cy] = centre(cur.from);
      const i = n - cur.depth;
      els.over.append(svg('circle', { class: 'ur-ring', cx, cy: cy + (n > 1 ? 6 - i * 4 : 0), r: 16 }));
    }
    renderPanel();
  }

  function pieceOf(m) {
    const e = els.sq.get(m.from);
    if (!e) return null;
    const st = e.b.stack;
    return st[st.length - m.depth] || st[st.length - 1] || null;
  }

  // ---- the panel: lots, whose turn, the selection, the moves ----
  // the last throw event of the history (the opponent's too), or null
  function lastThrow() {
    let best = -1;
    let ev = null;
    for (const [seq, e] of S.rolls) if (seq > best) [best, ev] = [seq, e];
    return ev;
  }

  function drawLots() {
    const v = S.view;
    clear(els.lots);
    const inMove = v.stage === 'move';
    const thrown = lastThrow();
    const roll = inMove ? v.roll : thrown ? thrown.value : null;
    const dice = (v.options && v.options.dice) || '3lots';
    const finkel = v.options && v.options.rules === 'finkel';
    const one = dice === 'd4' && !finkel;
    const box = svg('svg', { class: 'ur-lots-svg' + (one ? ' ur-lots-one' : '') + (inMove ? '' : ' ur-old'), viewBox: one ? '0 0 38 40' : '0 0 136 40', role: 'img' });
    let label;
    if (roll === null || roll === undefined) {
      label = t('ur.throw.none');
      const n = one ? 1 : finkel ? 4 : 3;
      for (let i = 0; i < n; i++) box.append(pyramid(4 + i * (finkel ? 33 : 42), false, true));
    } else if (dice === 'd4' && !finkel) {
      label = t(inMove ? 'ur.throw' : 'ur.throw.last', { n: roll }) + ' (' + t('ur.lots.d4') + ')';
      if (thrown) label = t('ur.throw.by', { side: sideYou(thrown.seat), n: roll }) + ' (' + t('ur.lots.d4') + ')';
      box.append(pyramid(4, false, false));
      box.append(svg('text', { class: 'ur-lot-n', x: 19, y: 33, 'text-anchor': 'middle' }, String(roll)));
    } else {
      const total = finkel ? 4 : 3;
      const marked = finkel ? roll : roll === 4 ? 0 : roll;
      const start = (S.state ? S.state.seq : 0) % total; // which lots show the mark: one arrangement, varied
      const step = finkel ? 33 : 42;
      for (let i = 0; i < total; i++) box.append(pyramid(4 + i * step, (i - start + total) % total < marked, false));
      label = (thrown ? t('ur.throw.by', { side: sideYou(thrown.seat), n: roll }) : t(inMove ? 'ur.throw' : 'ur.throw.last', { n: roll })) + ' (' + t('ur.lots', { marked, total }) + ')';
    }
    box.setAttribute('aria-label', label);
    box.append(svg('title', {}, label));
    const by = !thrown || roll === null || roll === undefined ? '' : thrown.seat === api.seat ? t('ur.threw.you') : t('ur.threw', { side: t('ur.side.gen.' + thrown.seat) });
    els.lots.append(box,
      h('span', { class: 'ur-roll', id: 'ur-roll', dataset: { seat: thrown ? String(thrown.seat) : '' } }, roll === null || roll === undefined ? '–' : String(roll)),
      h('span', { class: 'ur-throw-by ur-s' + (thrown ? thrown.seat : ''), id: 'ur-throw-by', hidden: !by }, by));
  }

  // a tetrahedral lot seen from above: the tip white when it shows its mark
  function pyramid(x, marked, unknown) {
    const g = svg('g', { class: 'ur-lot' + (marked ? ' ur-lot-marked' : '') + (unknown ? ' ur-lot-unknown' : '') });
    const a = [x + 15, 4];
    const b = [x + 1, 36];
    const c = [x + 29, 36];
    const m = [x + 15, 25];
    g.append(svg('path', { class: 'ur-lot-face', d: `M${a} L${b} L${c} Z` }));
    g.append(svg('path', { class: 'ur-lot-edge', d: `M${a} L${m} M${b} L${m} M${c} L${m}` }));
    if (marked) g.append(svg('circle', { class: 'ur-lot-tip', cx: m[0], cy: m[1], r: 4 }));
    return g;
  }

  function renderPanel() {
    const v = S.view;
    if (!v) return;
    drawLots();
    clear(els.info);
    let who;
    if (v.stage === 'over') who = t('ur.stage.over');
    else if (v.stage === 'first') who = t('ur.stage.first');
    else if (v.stage === 'opening') who = t('ur.stage.opening', { side: side(v.turn) });
    else if (v.stage === 'roll') who = t('ur.toRoll', { side: sideYou(v.turn) });
    else who = v.turn === api.seat && S.moves.length ? t('ur.toMove.you', { side: side(v.turn) }) : t('ur.toMove', { side: side(v.turn) });
    els.info.append(
      h('span', { class: 'ur-whose ur-s' + v.turn, id: 'ur-whose' }, who),
      h('span', { class: 'ur-score' }, t('ur.score', { light: (v.off || [0, 0])[0], dark: (v.off || [0, 0])[1], pieces: (v.options && v.options.pieces) || 7 })),
    );
    clear(els.told);
    // the latest turn first and marked; the two before it quieter
    S.told.forEach((e, i) =>
      els.told.append(h('li', { class: i === 0 ? 'ur-now' : '', dataset: { seq: String(e.seq), seat: String(e.seat) } },
        i === 0 ? h('span', { class: 'ur-now-tag' }, t('ur.now')) : null, e.words)));
    els.told.hidden = !S.told.length;
    const cur = S.sel >= 0 ? S.moves[S.sel] : S.hover >= 0 ? S.moves[S.hover] : null;
    if (cur) els.line.textContent = t(S.sel >= 0 ? 'ur.selectedMove' : 'ur.previewMove', { move: moveText(cur) });
    else if (S.moves.length) els.line.textContent = t('ur.pick');
    else els.line.textContent = '';
    els.moveBtn.parentNode.hidden = !S.moves.length;
    els.line.hidden = !S.moves.length && !cur;
    els.moveBtn.disabled = S.sel < 0 || S.pending;
    els.moveBtn.textContent = S.sel >= 0 && S.moves[S.sel].pass ? t('ur.pass') : t('ur.move');
    // the moves, one Tab stop (S.listFocus); a move chosen a second time is played; the focus
    // stays on the same move across this redraw
    const inList = els.list.contains(document.activeElement);
    if (S.listFocus >= S.moves.length) S.listFocus = 0;
    clear(els.list);
    els.list.hidden = !S.moves.length;
    S.moves.forEach((m, i) => {
      els.list.append(
        h('button', {
          type: 'button',
          class: 'ur-mv' + (i === S.sel ? ' ur-mv-sel' : ''),
          'aria-pressed': String(i === S.sel),
          disabled: S.pending,
          tabindex: i === S.listFocus ? '0' : '-1',
          dataset: { action: m.action, n: String(i + 1) },
          onfocus: () => (S.listFocus = i),
          onclick: () => (i === S.sel ? play() : select(i)),
        }, h('kbd', {}, String(i + 1)), ' ', moveText(m)),
      );
    });
    if (inList && !S.pending && els.list.children[S.listFocus]) els.list.children[S.listFocus].focus();
    renderAnalysis();
  }

  function renderAnalysis() {
    const v = S.view;
    const st = S.state;
    // only after the game, or in a replay (the replay page's states name no seats)
    const replay = st && (!Array.isArray(st.seats) || st.seats.length === 0);
    const showIt = S.analysis && (v.stage === 'over' || replay || (st && (st.over || st.status === 'over')));
    els.analysis.hidden = !showIt;
    clear(els.analysis);
    if (!showIt) return;
    els.analysis.append(h('h3', {}, t('ur.analysis.title')));
    const best = Math.max(...S.analysis.moves.map((m) => (m.p === null ? -1 : m.p)));
    els.analysis.append(
      h('ul', { class: 'ur-analysis-list' },
        S.analysis.moves.map((m) =>
          h('li', { class: m.p === best ? 'ur-best' : '', dataset: { action: m.action } },
            moveText(moveOf(m)) + ': ' + (m.p === null ? t('ur.analysis.unknown') : t('ur.analysis.win', { p: (m.p * 100).toFixed(2) }))))));
  }

  // ---- choosing and playing ----
  function select(i) {
    if (i < 0 || i >= S.moves.length || S.pending) return;
    S.sel = i;
    renderMarks();
  }

  function play() {
    if (S.sel < 0 || S.pending) return;
    S.pending = true;
    const m = S.moves[S.sel];
    // the focus (on the board, the Move button or a move, which are disabled now) goes to where
    // the piece lands, so the keyboard's next step starts there
    const inTable = root.contains(document.activeElement);
    if (m.to) S.focusKey = m.to === 'off' ? 'off' + S.view.turn : m.to;
    renderPanel();
    const p = placeOf(S.focusKey);
    if (inTable && p) p.el.focus();
    api.act(m.action);
  }

  // the moves' arrow keys: the focus to the previous / next move (round), Home, End
  function onListKey(ev) {
    const dir = ARROWS[ev.key];
    const btns = [...els.list.querySelectorAll('button')];
    if (!dir || !btns.length || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    const n = btns.length;
    let i = btns.indexOf(document.activeElement);
    if (i < 0) i = S.listFocus;
    i = dir === 'home' ? 0 : dir === 'end' ? n - 1 : dir === 'left' || dir === 'up' ? (i - 1 + n) % n : (i + 1) % n;
    S.listFocus = i;
    btns.forEach((b, k) => b.setAttribute('tabindex', k === i ? '0' : '-1'));
    btns[i].focus();
  }

  // a square's name, `reserveS`, or `off` for the borne-off box of the side to move (a move's `to`)
  function keyOf(el) {
    if (el.dataset.off !== undefined) return S.view && Number(el.dataset.off) === S.view.turn ? 'off' : 'off' + el.dataset.off;
    return el.dataset.square || (el.dataset.reserve !== undefined ? 'reserve' + el.dataset.reserve : null);
  }

  function onTap(ev) {
    const key = keyOf(ev.currentTarget);
    tapKey(key);
  }

  function tapKey(key) {
    if (!S.view || S.pending) return;
    hideRefusal();
    const cur = S.sel >= 0 ? S.moves[S.sel] : null;
    const here = moveAt(key);
    if (cur && (cur.to === key || here.includes(S.sel))) {
      // the second tap: on the selected piece (cycling through a stack's moves with stack=any) or its target
      if (here.includes(S.sel) && here.length > 1 && cur.to !== key) {
        const k = here.indexOf(S.sel);
        if (k < here.length - 1) return select(here[k + 1]);
      }
      return play();
    }
    if (here.length) return select(here[0]);
    S.sel = -1;
    renderMarks();
  }

  function onHover(ev) {
    const here = moveAt(keyOf(ev.currentTarget));
    const nh = here.length ? here[0] : -1;
    if (nh !== S.hover) {
      S.hover = nh;
      renderMarks();
    }
  }

  function onLeave(ev) {
    if (S.hover === -1) return;
    S.hover = -1;
    // the focus going to a button of the panel (a tap on a move): no redraw under the finger,
    // which would move the button away before the tap ends; the tap redraws anyway
    const to = ev && ev.relatedTarget;
    if (to && to.closest && to.closest('.ur-panel')) return;
    renderMarks();
  }

  function onKey(ev) {
    if (!S.moves.length || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tg = ev.target;
    if (tg && tg.closest && tg.closest('input, textarea, select, [contenteditable]')) return;
    if (/^[1-9]$/.test(ev.key)) {
      const i = Number(ev.key) - 1;
      if (i < S.moves.length) {
        ev.preventDefault();
        select(i);
        // the focus goes to the chosen piece (or to Move for a pass), so Enter plays it
        const m = S.moves[i];
        const el = m.from === 'reserve' ? els.reserve[S.view.turn] : m.from ? els.sq.get(m.from)?.g : els.moveBtn;
        if (el) el.focus();
      }
    } else if (ev.key === 'Enter' && S.sel >= 0 && !(tg && tg.closest && tg.closest('button, a, summary'))) {
      ev.preventDefault();
      play();
    } else if (ev.key === 'Escape' && S.sel >= 0) {
      S.sel = -1;
      renderMarks();
    }
  }
  document.addEventListener('keydown', onKey);

  // The last turn's moves: the move events since the other side last moved (a rosette's
  // second move joins the first), and the squares where they captured.
  function lastTurn() {
    S.lastMoves = [];
    S.captured = new Set();
    for (const e of S.hist)
      for (const ev of e.events) {
        if (ev.type === 'move') {
          if (S.lastMoves.length && S.lastMoves[0].seat !== ev.seat) {
            S.lastMoves = [];
            S.captured = new Set();
          }
          S.lastMoves.push({ seat: ev.seat, from: ev.from, to: ev.to });
        } else if (ev.type === 'capture') S.captured.add(ev.square);
      }
    S.last = new Set(S.lastMoves.flatMap((m) => [m.from, m.to]).filter((x) => /^[A-C][1-8]$/.test(x)));
  }

  // A refused move in words next to its square (or the reserve): {why, from, to, ...}
  // (docs/web-views.md, `ur`, "Refusals"). Returns whether it was shown.
  function showRefusal(ref, tt) {
    const words = refusalWords(ref, tt || t);
    if (!words || !S.view) return false;
    const place = [ref.to, ref.from].find((x) => typeof x === 'string' && /^[A-C][1-8]$/.test(x));
    // the place's centre and half its height, in SVG units
    let [x, y, half] = [W / 2, H / 2, 0];
    if (place) [x, y, half] = [...centre(place), U / 2];
    else if (ref.from === 'reserve') [x, y, half] = [M + 2 * U, stripY(S.view.turn) + (STRIP - 4) / 2, (STRIP - 4) / 2];
    const below = y < H / 2;
    [x, y] = [(100 * x) / W, (100 * (below ? y + half : y - half)) / H];
    S.refusal = { place: place || ref.from || '', words };
    els.refusal.textContent = words;
    els.refusal.dataset.square = place || ref.from || '';
    // above the square, or below it in the top half: the bubble never covers the square itself
    els.refusal.style.left = Math.min(80, Math.max(20, x)) + '%';
    els.refusal.classList.toggle('ur-refusal-below', below);
    els.refusal.style.top = y + '%';
    els.refusal.hidden = false;
    if (place && els.sq.has(place)) els.sq.get(place).g.classList.add('ur-refused');
    return true;
  }

  function hideRefusal() {
    els.refusal.hidden = true;
    for (const g of svgEl.querySelectorAll('.ur-refused')) g.classList.remove('ur-refused');
  }

  // ---- the contract ----
  const table = {
    update(state) {
      const prevSeq = S.state ? S.state.seq : -1;
      const fresh = !S.state || state.history_from === 0; // the whole history: nothing to animate
      const where = typeof location === 'undefined' ? '' : location.pathname;
      if (!S.state) S.hist = state.history_from !== 0 && kept && kept.where === where ? kept.hist.slice() : [];
      else if (fresh) S.hist = [];
      // an undo (history_from below what we hold) drops the entries from there on
      const from = typeof state.history_from === 'number' ? state.history_from : state.seq;
      S.hist = S.hist.filter((e) => e.seq < from && e.seq < state.seq);
      S.flipped = new Set();
      S.arrived = new Map();
      for (const e of state.history || []) {
        if (!e || !Array.isArray(e.events) || !e.events.length) continue;
        for (const ev of e.events) {
          if (ev.type === 'flip' && !fresh) S.flipped.add(ev.square);
          else if (ev.type === 'move' && !fresh && /^[A-C][1-8]$/.test(ev.to)) S.arrived.set(ev.to, { from: ev.from, seat: ev.seat });
        }
        S.hist.push(e);
      }
      S.hist = S.hist.slice(-60); // enough for the turns told and the last turn's moves
      kept = { where, hist: S.hist };
      S.rolls.clear();
      for (const e of S.hist) for (const ev of e.events) if (ev.type === 'throw') S.rolls.set(e.seq, ev);
      lastTurn();
      S.told = turnLines(S.hist, { t, seat: api.seat }).slice(-TOLD).reverse();
      S.refusal = null;
      els.refusal.hidden = true;
      const prevSel = S.sel >= 0 ? S.moves[S.sel].action : null;
      S.state = state;
      S.view = state.view;
      // in a replay (its states name no seats) the legal actions are not moves to play: their chances are the analysis
      const replay = !Array.isArray(state.seats) || state.seats.length === 0;
      S.moves = replay ? [] : (state.legal || []).filter((e) => e.seat === undefined || e.seat === api.seat).map(moveOf);
      if (state.seq !== prevSeq) {
        S.pending = false;
        S.sel = -1;
        S.hover = -1;
        S.listFocus = 0;
        // the board's Tab stop goes to the first piece that can move, unless the focus is on the board
        const m = S.moves[0];
        if (m && m.from && !svgEl.contains(document.activeElement)) S.focusKey = m.from === 'reserve' ? 'reserve' + state.view.turn : m.from;
      } else {
        S.sel = prevSel ? S.moves.findIndex((m) => m.action === prevSel) : -1;
        if (S.hover >= S.moves.length) S.hover = -1;
      }
      const a = readAnalysis(state.analysis || (state.view && state.view.analysis) || (replay ? { legal: state.legal } : null));
      if (a) S.analysis = { seq: state.seq, moves: a };
      else if (S.analysis && S.analysis.seq !== state.seq && !(state.over || (state.view && state.view.stage === 'over'))) S.analysis = null;
      render();
    },
    event(msg) {
      if (msg.type === 'error' && msg.request === 'act') {
        S.pending = false;
        S.sel = -1;
        if (S.view) renderMarks();
        if (msg.refusal) showRefusal(msg.refusal);
      } else if (msg.type === 'analysis' || msg.type === 'replay') {
        const a = readAnalysis(msg);
        if (a) {
          S.analysis = { seq: S.state ? S.state.seq : 0, moves: a };
          if (S.view) renderPanel();
        }
      }
    },
    refused(err, ctx) {
      return !!(err && err.refusal && showRefusal(err.refusal, ctx && ctx.t));
    },
    destroy() {
      if (current === table) current = null;
      document.removeEventListener('keydown', onKey);
      clear(root);
    },
  };
  current = table;
  return table;
}

/** The room's hook for an illegal act (web/js/room.js): shows `err.refusal` (docs/web-views.md,
 * `ur`, "Refusals") in words of the page's language (ctx.t) next to the square the refused
 * move names, on the mounted table. Returns true when shown there, false otherwise (no table,
 * no refusal, a word without words), so the room shows its own note. */
export function refused(err, ctx) {
  return current ? current.refused(err, ctx) : false;
}
