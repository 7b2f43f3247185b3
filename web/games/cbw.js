// cbw.js — the City Behind Walls table (docs/web-ui.md, "The table contract";
// the view: docs/web-views.md, `cbw`; the actions: docs/notation-cbw.md).
//
// Drawn from the view alone, top to bottom so that one screen holds what a
// player acts on (docs/web-ui.md, "City Behind Walls"): the two teams, each
// with its score and its seats (who is whose partner, hand sizes, whose
// turn); a short log of the last moves in words; the table as a grid of card
// faces in SVG (x grows to the right, y upwards, as in the notation), the
// span of the play and the fixed edges of the Rectangle as walls, the last
// card placed ringed until the next; the hand; Pass and the prompt; then the
// Rectangle's state and the prisoners. The board is scaled to the height
// left between the log and the hand (never below a finger's width a card:
// it then scrolls inside its own box, never the page).
//
// A seat sees its own hand (and, with players=2, its other pile, drawn small
// while it does not act) as buttons; tapping a card lights the free cells
// where `state.legal` lets it go, tapping a cell plays it. A free cell that
// is not lit may be tapped too: the server refuses it with a `refusal`
// (docs/web-views.md, cbw "Refusals"), told in the page's words next to that
// cell (`refused`, which the room calls). `pass` is a button. Cards that left
// the table since the last view (captures) fade out where they lay, and the
// team's prisoners count shows the gain. What the last actions did is told in
// the page's language from the history entries' `events` (a placement by the
// card it was laid next to, never by coordinates), the legal placements read
// from their `fields`: no server sentence is read. The free cells that are
// castles as if the game ended now are shaded in their team's colour (found
// from the view's cells and drawn only when their count is the view's own
// `castles`). The board pans (drag, one finger) and zooms (pinch, ctrl+wheel,
// the − + buttons). Keyboard and screen reader (issue 32; docs/web-ui.md,
// "City Behind Walls: keyboard and screen reader"): the board and the hand
// are one Tab stop each, the arrow keys inside; Enter or Space chooses a card
// (the focus goes to its first lit cell) or plays on a cell; Escape puts the
// chosen card back. Cells are named by row, column and the cards beside
// them; `describe`, `announce` and `soundOf` speak for the table in the room.

import { h, svg, clear } from '../js/dom.js';
import { seatNameN } from '../js/room.js';
import { has } from '../js/i18n.js';

const CW = 52; // a card's width and height in the SVG's units
const CH = 72;
const GAP = 6;
const PX = CW + GAP; // one cell
const PY = CH + GAP;
const M = 12; // margin around the grid (room for the walls)
const SUIT = { S: '♠', H: '♥', D: '♦', C: '♣' };
const RED_SUIT = { H: true, D: true };
const MIN_CARD_PX = 38; // the smallest card the fit zoom makes (a finger's width)
const MAX_SCALE = 1.6;
const LOG_KEEP = 3; // the moves before the last update's kept in the log
const MIN_BOARD_PX = 120; // the least height the board gets, however tall the rest

/** '10H' → {rank: '10', suit: 'H'}, or null. */
function parseCard(c) {
  const m = /^(10|[2-9JQKA])([SHDC])$/.exec(String(c));
  return m ? { rank: m[1], suit: m[2] } : null;
}

/** A legal action's placement {card, x, y} from its `fields`, or null (a pass, a chance outcome). */
function placeOf(a) {
  const f = a && a.fields;
  return f && f.move === 'place' ? { card: f.card, x: f.x, y: f.y } : null;
}

/** Whether a legal action is a pass (its `fields`). */
function isPass(a) {
  return !!(a && a.fields && a.fields.move === 'pass');
}

function short(c) {
  const p = parseCard(c);
  return p ? p.rank + SUIT[p.suit] : String(c);
}

/** The cards on the table of view `v`: Map 'x,y' → card. */
function cellsOf(v) {
  const m = new Map();
  for (const c of (v && v.table) || []) m.set(c.x + ',' + c.y, c.card);
  return m;
}

/** Where (x, y) lies, in words, from the cards of `cells` (Map 'x,y' → card)
 * beside it: "below 10♦"; '' when none lies beside it. */
function besideWords(cells, x, y, t) {
  if (!cells) return '';
  // the neighbour's side → where the cell is from that card
  for (const [dx, dy, where] of [[-1, 0, 'right'], [1, 0, 'left'], [0, 1, 'below'], [0, -1, 'above']]) {
    const c = cells.get(x + dx + ',' + (y + dy));
    if (c) return t('cbw.beside.' + where, { card: short(c) });
  }
  return '';
}

/** The table module mounted now (one a page): `refused` and `actionWords`
 * ask it for the tapped cell and the cards on the table. */
let current = null;

/** A card's name as players say it ("Ten of hearts"), from the catalogue `t`. */
function cardNameT(t, c) {
  const p = parseCard(c);
  return p ? t('cbw.card', { rank: t('cbw.rank.' + p.rank), suit: t('cbw.suit.' + p.suit) }) : String(c);
}

/** The team a card plays for: 0 Red (hearts, diamonds), 1 Black. */
function teamOfCard(c) {
  return RED_SUIT[String(c).slice(-1)] ? 0 : 1;
}

/** The cells drawn for view `v`: the span and one cell around it, within
 * the Rectangle ({x0, x1, y0, y1}); the board and `describe` number their
 * rows (from the top) and columns (from the left) from it. */
function boxOf(v) {
  const ins = v.inside || { x: [0, 0], y: [0, 0] };
  const clampTo = (lo, hi, r) => [Math.max(lo, r[0]), Math.min(hi, r[1])];
  if (!v.span) {
    const [x0, x1] = clampTo(-1, 1, ins.x);
    const [y0, y1] = clampTo(-1, 1, ins.y);
    return { x0: Math.min(x0, 0), x1: Math.max(x1, 0), y0: Math.min(y0, 0), y1: Math.max(y1, 0) };
  }
  if (!(v.table || []).length) return { x0: ins.x[0], x1: ins.x[1], y0: ins.y[0], y1: ins.y[1] };
  const sx = v.span.x, sy = v.span.y;
  const [x0, x1] = clampTo(sx[0] - 1, sx[1] + 1, ins.x);
  const [y0, y1] = clampTo(sy[0] - 1, sy[1] + 1, ins.y);
  return { x0: Math.min(x0, sx[0]), x1: Math.max(x1, sx[1]), y0: Math.min(y0, sy[0]), y1: Math.max(y1, sy[1]) };
}

/** "row 2, column 3": cell (x, y) of the drawn box `b`, counted from 1 at
 * the top left, as the board is seen (never the notation's coordinates). */
function posWords(b, x, y, t) {
  return t('cbw.a11y.pos', { r: b.y1 - y + 1, c: x - b.x0 + 1 });
}

/** Every card beside (x, y) in `cells`, by name: "left of the Nine of
 * hearts, below the Jack of clubs"; '' when none. */
function neighbourWords(cells, x, y, t) {
  const out = [];
  for (const [dx, dy, where] of [[-1, 0, 'right'], [1, 0, 'left'], [0, 1, 'below'], [0, -1, 'above']]) {
    const c = cells && cells.get(x + dx + ',' + (y + dy));
    if (c) out.push(t('cbw.a11y.beside.' + where, { card: cardNameT(t, c) }));
  }
  return out.join(t('cbw.a11y.sep'));
}

/** A seat's name in the reader's words: "you" for the reader's own seats,
 * a computer as "computer N", a players=2 partner seat as its person's
 * second pile, else the room's name; `st` the room's state (its `seats`). */
function seatWords(t, st, i, reader) {
  const s = st && st.seats && st.seats[i];
  const pv = st && st.view && st.view.partner_hand;
  if (reader >= 0 && (i === reader || (pv && pv.seat === i)) && !(st && st.replay)) return t('cbw.tell.you');
  if (!s) return t('cbw.tell.seat', { n: i + 1 });
  if (s.kind === 'partner') {
    const of = st.seats[s.of ?? 0];
    return t('cbw.pile2', { name: s.name || (of && of.name) || t('cbw.tell.seat', { n: (s.of ?? 0) + 1 }) });
  }
  if (s.kind === 'ai') return t('cbw.computer', { n: i + 1 });
  return seatNameN(s, i);
}

/** Puts what `events` did on `cells` (Map 'x,y' → card): placements in,
 * captured cards out. */
function applyEvents(cells, events) {
  for (const e of events || []) {
    if (!e) continue;
    if (e.type === 'place') cells.set(e.x + ',' + e.y, e.card);
    if (e.type === 'capture') for (const c of e.cards || []) cells.delete(c.x + ',' + c.y);
  }
}

/** The sentences of a list of events (docs/web-views.md, cbw "Events") in
 * the catalogue `t`'s language; `who(seat, start)` names a seat (`start`:
 * at the start of a sentence); `cells` (optional) the cards on the table
 * before the events, to say where a card was laid ("below 10♦"). A run of
 * captures of one team after a placement is one sentence, its groups joined
 * by "and". No coordinates: a player reads them nowhere. */
function eventWords(events, t, who, cells) {
  const out = [];
  const team = (n) => t('cbw.team.' + n);
  let mover = null;
  let card = '';
  const list = Array.isArray(events) ? events : [];
  for (let i = 0; i < list.length; i++) {
    const e = list[i] || {};
    if (e.type === 'first') out.push(t('cbw.tell.first', { team: team(e.team) }));
    else if (e.type === 'place') {
      mover = e.seat;
      card = short(e.card);
      const where = besideWords(cells, e.x, e.y, t);
      if (cells && !cells.size) out.push(t('cbw.tell.place.first', { who: who(e.seat, true), card }));
      else out.push(where ? t('cbw.tell.place.beside', { who: who(e.seat, true), card, where }) : t('cbw.tell.place', { who: who(e.seat, true), card }));
    } else if (e.type === 'fix') {
      const [lo, hi] = e.edges || [0, 0];
      out.push(t(e.axis === 'x' ? 'cbw.tell.fix.x' : 'cbw.tell.fix.y', { n: hi - lo + 1 }));
    } else if (e.type === 'capture') {
      const groups = [];
      let n = 0;
      for (; i < list.length && list[i] && list[i].type === 'capture' && list[i].by === e.by; i++) {
        const cards = (list[i].cards || []).map((c) => short(c.card));
        n += cards.length;
        groups.push(cards.join(' '));
      }
      i--;
      const own = mover !== null && e.by !== mover % 2;
      out.push(t(own ? 'cbw.tell.lost' : 'cbw.tell.capture', {
        who: who(e.seat ?? mover, false), card, n, team: team(e.by), cards: groups.join(t('cbw.tell.and')),
      }));
    } else if (e.type === 'pass') out.push(t('cbw.last.pass', { who: who(e.seat, true) }));
    else if (e.type === 'castle') out.push(t('cbw.tell.castle', { team: team(e.team), n: (e.cells || []).length }));
    else if (e.type === 'end') {
      const score = (e.score || []).join(' : ');
      out.push(e.winner === null || e.winner === undefined
        ? t('cbw.tell.end.draw', { score })
        : t('cbw.tell.end.win', { team: team(e.winner), score, castles: (e.castles || []).join(' : '), prisoners: (e.prisoners || []).join(' : ') }));
    }
  }
  return out;
}

/** What a history entry {seq, seat, events} did, in the reader's words
 * (js/events.js: the room's and the replay's sentences; no table to say
 * where a card went beside which). */
export function tell(entry, ctx) {
  const who = (seat, start) => (seat === ctx.seat ? ctx.t(start ? 'cbw.tell.You' : 'cbw.tell.you') : ctx.t('cbw.tell.seat', { n: seat + 1 }));
  return eventWords(entry && entry.events, ctx.t, who);
}

/** A legal action in words, from its `fields`: "Q♠ below 10♦", "7♦ in the middle of the
 * empty table", "Pass". Where: beside a card of `ctx.view` (the position the action was
 * played in: a review's decision, js/replay.js) when given, else of the table mounted now;
 * "Q♠" alone when neither tells. */
export function actionWords(a, ctx) {
  const f = (a && a.fields) || {};
  if (f.move === 'place') {
    const cells = ctx.view ? cellsOf(ctx.view) : current && current.cells();
    const where = cells && cells.size === 0 ? ctx.t('cbw.beside.none') : besideWords(cells, f.x, f.y, ctx.t);
    const at = where ? ctx.t('cbw.act.place', { card: short(f.card), where }) : short(f.card);
    return f.captures ? at + ctx.t('cbw.act.captures', { n: f.captures }) : at;
  }
  if (f.move === 'pass') return ctx.t('cbw.pass');
  if (f.move === 'first') return ctx.t('cbw.tell.first', { team: ctx.t('cbw.team.' + f.team) });
  return a.action;
}

/** The `illegal` error of an `act` (room.js asks before showing one):
 * true when the table showed its `refusal` next to the cell tapped, in the
 * page's words; false (the room shows it) when no table is mounted or the
 * error has no refusal. */
export function refused(err, ctx) {
  void ctx;
  return !!(current && err && err.refusal && current.showRefusal(err.refusal));
}

/** `s` with its first letter upper-case (a name at the start of a sentence). */
function cap(s) {
  return s ? s.charAt(0).toLocaleUpperCase() + s.slice(1) : s;
}

/** What a history entry did, said for the room's live region (issue 32):
 * as `tell`, but each card by its name and a placement by the cards it was
 * laid beside ("Computer 2 laid the Jack of clubs, right of the Jack of
 * spades."), when the table mounted now knows the cells before the entry;
 * a run of captures by their cards and the number of prisoners; a pass. */
export function announce(entry, ctx) {
  const t = ctx.t;
  const list = entry && Array.isArray(entry.events) ? entry.events : [];
  const cells = current ? current.cellsBefore(entry) : null;
  const who = (seat) => (current ? current.whoSay(seat) : seat === ctx.seat ? t('cbw.tell.you') : t('cbw.tell.seat', { n: seat + 1 }));
  const team = (n) => t('cbw.team.' + n);
  const out = [];
  let mover = null;
  for (let i = 0; i < list.length; i++) {
    const e = list[i] || {};
    if (e.type === 'first') out.push(t('cbw.tell.first', { team: team(e.team) }));
    else if (e.type === 'place') {
      mover = e.seat;
      const card = cardNameT(t, e.card);
      const where = neighbourWords(cells, e.x, e.y, t);
      if (cells && !cells.size) out.push(cap(t('cbw.a11y.say.first', { who: who(e.seat), card })));
      else out.push(cap(where ? t('cbw.a11y.say.place', { who: who(e.seat), card, where }) : t('cbw.a11y.say.alone', { who: who(e.seat), card })));
    } else if (e.type === 'fix') {
      const [lo, hi] = e.edges || [0, 0];
      out.push(t(e.axis === 'x' ? 'cbw.tell.fix.x' : 'cbw.tell.fix.y', { n: hi - lo + 1 }));
    } else if (e.type === 'capture') {
      const cards = [];
      for (; i < list.length && list[i] && list[i].type === 'capture' && list[i].by === e.by; i++)
        for (const c of list[i].cards || []) cards.push(cardNameT(t, c.card));
      i--;
      const own = mover !== null && e.by !== mover % 2;
      out.push(cap(t(own ? 'cbw.a11y.say.lost' : 'cbw.a11y.say.capture', { cards: cards.join(t('cbw.a11y.sep')), n: cards.length, team: team(e.by) })));
    } else if (e.type === 'pass') out.push(cap(t('cbw.a11y.say.pass', { who: who(e.seat) })));
    else if (e.type === 'castle') out.push(t('cbw.tell.castle', { team: team(e.team), n: (e.cells || []).length }));
    else if (e.type === 'end') {
      const score = (e.score || []).join(' : ');
      out.push(e.winner === null || e.winner === undefined
        ? t('cbw.tell.end.draw', { score })
        : t('cbw.tell.end.win', { team: team(e.winner), score, castles: (e.castles || []).join(' : '), prisoners: (e.prisoners || []).join(' : ') }));
    }
  }
  return out;
}

/** The room's sound for a history entry: 'capture' when it took prisoners,
 * 'move' for a placement or a pass, null for anything else (the draw of
 * the opening team). */
export function soundOf(entry) {
  const list = (entry && Array.isArray(entry.events) && entry.events) || [];
  if (list.some((e) => e && e.type === 'capture')) return 'capture';
  return list.some((e) => e && (e.type === 'place' || e.type === 'pass')) ? 'move' : null;
}

/** The position in words, for the room's "Describe the table" (issue 32):
 * whose turn and what the reader may do, the teams with their partners and
 * scores, every hand's size, the Rectangle and its walls, the cards on the
 * table row by row (rows and columns as the board names its cells), the
 * last card played, the reader's own cards, the prisoners. From the view
 * and `ctx.state` (its `legal`, `seats`) alone; [] without a view. */
export function describe(view, ctx) {
  const v = view;
  if (!v || v.game !== 'cbw') return [];
  const t = ctx.t;
  const st = ctx.state || { view: v };
  const reader = ctx.seat ?? -1;
  const sep = t('cbw.a11y.sep');
  const name = (i) => seatWords(t, st, i, reader);
  const card = (c) => cardNameT(t, c);
  const out = [];
  const legal = (st.legal || []).filter((a) => a && a.fields);
  // whose turn, what the reader may do
  if (v.outcome) {
    const sc = (v.score || [0, 0]).join(' : ');
    out.push(v.outcome.kind === 'draw' || v.outcome.winner === null ? t('cbw.over.draw', { score: sc }) : t('cbw.over.win', { team: t('cbw.team.' + v.outcome.winner), score: sc }));
  } else if (v.stage === 'first') out.push(t('cbw.a11y.d.drawing'));
  else if (legal.length) {
    const cards = [...new Set(legal.map(placeOf).filter(Boolean).map((p) => p.card))];
    const cellsN = new Set(legal.map(placeOf).filter(Boolean).map((p) => p.x + ',' + p.y)).size;
    out.push(t('cbw.a11y.d.yours'));
    if (cards.length) out.push(t('cbw.a11y.d.can', { n: cards.length, cards: cards.map(card).join(sep), cells: cellsN }));
    else out.push(t('cbw.a11y.d.cannot'));
    if (legal.some(isPass) && cards.length) out.push(t('cbw.a11y.d.pass'));
  } else if (v.turn !== undefined && v.turn !== null && v.phase !== 'over') {
    out.push(t('cbw.a11y.d.turn', { who: name(v.turn), team: t('cbw.team.' + ((v.teams || [])[v.turn] ?? v.turn % 2)) }));
  }
  // the teams, their scores; every hand's size
  const teams = v.teams || [];
  const sc = v.score || [0, 0], ca = v.castles || [0, 0], pr = v.prisoners || [[], []];
  for (const team of [0, 1]) {
    const members = [];
    for (let i = 0; i < v.seats; i++) if ((teams[i] ?? i % 2) === team) members.push(name(i));
    out.push(t('cbw.a11y.d.team', { team: t('cbw.team.' + team), names: members.join(sep), score: sc[team], castles: ca[team], prisoners: (pr[team] || []).length }));
  }
  const sizes = [];
  for (let i = 0; i < v.seats; i++) sizes.push(t('cbw.a11y.d.handOf', { who: name(i), n: (v.hand_sizes || [])[i] ?? 0 }));
  out.push(t('cbw.a11y.d.hands', { list: sizes.join(sep) }));
  // the Rectangle, its walls, the cards row by row
  const o = v.options || {};
  const table = v.table || [];
  if (!table.length) out.push(t('cbw.a11y.d.empty', { w: o.width, h: o.height }));
  else {
    out.push(t('cbw.a11y.d.rect', { w: o.width, h: o.height, sw: v.span.x[1] - v.span.x[0] + 1, sh: v.span.y[1] - v.span.y[0] + 1 }));
    out.push(v.fixed_x && v.fixed_y ? t('cbw.a11y.d.walls.both') : v.fixed_x ? t('cbw.a11y.d.walls.x') : v.fixed_y ? t('cbw.a11y.d.walls.y') : t('cbw.a11y.d.walls.none'));
    const b = boxOf(v);
    const rows = new Map();
    for (const c of table) {
      const r = b.y1 - c.y + 1;
      if (!rows.has(r)) rows.set(r, []);
      rows.get(r).push(c);
    }
    for (const r of [...rows.keys()].sort((a, z) => a - z)) {
      const cells = rows.get(r).sort((a, z) => a.x - z.x).map((c) => t('cbw.a11y.d.inCol', { card: card(c.card), c: c.x - b.x0 + 1 }));
      out.push(t('cbw.a11y.d.row', { r, cells: cells.join(sep) }));
    }
    const last = [...(v.history || [])].reverse().find((e) => e.move === 'place');
    if (last && table.some((c) => c.x === last.x && c.y === last.y && c.card === last.card))
      out.push(t('cbw.a11y.d.last', { card: card(last.card), who: name(last.seat), pos: posWords(b, last.x, last.y, t) }));
  }
  // the reader's cards, the prisoners
  if (v.hand) {
    out.push(v.hand.length ? t('cbw.a11y.d.hand', { cards: v.hand.map(card).join(sep) }) : t('cbw.a11y.d.handEmpty'));
    const pv = v.partner_hand;
    if (pv) out.push(t('cbw.a11y.d.hand2', { n: pv.seat + 1, cards: pv.cards.length ? pv.cards.map(card).join(sep) : t('cbw.hand.empty') }));
  }
  for (const team of [0, 1])
    if ((pr[team] || []).length) out.push(t('cbw.a11y.d.prisoners', { team: t('cbw.team.' + team), cards: pr[team].map(card).join(sep) }));
  return out;
}

let cssLinked = false;
function linkCss() {
  if (cssLinked || document.querySelector('link[data-cbw-css]')) return;
  cssLinked = true;
  document.head.append(h('link', { rel: 'stylesheet', href: '/games/cbw.css', 'data-cbw-css': 'true' }));
}

/** A card face drawn at (x, y), w × h: rank and suit in the corners, a large suit in the middle. */
function cardFace(card, x, y, w, hgt) {
  const p = parseCard(card) || { rank: '?', suit: 'S' };
  const red = RED_SUIT[p.suit];
  const fs = w * 0.3;
  return svg('g', { class: 'cbw-face ' + (red ? 'red' : 'black'), transform: `translate(${x},${y})` },
    svg('rect', { class: 'cbw-paper', x: 0.5, y: 0.5, width: w - 1, height: hgt - 1, rx: w * 0.1 }),
    svg('text', { class: 'cbw-rank', x: w * 0.09, y: fs * 1.05, 'font-size': fs, 'text-anchor': 'start' }, p.rank),
    svg('text', { class: 'cbw-suit-s', x: w * 0.09, y: fs * 2.05, 'font-size': fs * 0.95, 'text-anchor': 'start' }, SUIT[p.suit]),
    svg('text', { class: 'cbw-pip', x: w * 0.58, y: hgt * 0.72, 'font-size': w * 0.56, 'text-anchor': 'middle' }, SUIT[p.suit]),
    svg('text', { class: 'cbw-rank', x: w * 0.91, y: hgt - fs * 0.3, 'font-size': fs * 0.8, 'text-anchor': 'end' }, p.rank));
}

export function mount(root, api) {
  linkCss();
  const t = api.t;
  const cardName = (c) => cardNameT(t, c);
  const teamName = (team) => t('cbw.team.' + team);

  // ---- the elements ----
  const els = {};
  els.teams = h('div', { class: 'cbw-teams', role: 'group', 'aria-label': t('cbw.seats') });
  els.info = h('p', { class: 'cbw-info' });
  // no live regions here: the room's announces each entry (`announce`) once
  els.outcome = h('p', { class: 'cbw-outcome', hidden: true });
  els.log = h('div', { class: 'cbw-log' }); // the moves before the last update's, older first
  els.last = h('div', { class: 'cbw-last' });
  // a named region that always takes the focus: it scrolls whenever its lines outgrow it (a
  // line that wraps after a resize, the end's outcome), and the keyboard must reach it then
  els.news = h('div', { class: 'cbw-news', role: 'region', tabindex: '0', 'aria-label': t('cbw.log') }, els.log, els.last);
  // the keys, said by a screen reader when the focus enters the board or the hand
  els.keysBoard = h('p', { id: 'cbw-keys-board', hidden: true }, t('cbw.a11y.keys.board'));
  els.keysHand = h('p', { id: 'cbw-keys-hand', hidden: true }, t('cbw.a11y.keys.hand'));
  els.refusal = h('p', { class: 'cbw-refusal', role: 'alert', hidden: true });
  els.svgHost = h('div', { class: 'cbw-board', tabindex: '-1' });
  els.zoomOut = h('button', { type: 'button', class: 'cbw-zoom-out', 'aria-label': t('cbw.zoom.out'), title: t('cbw.zoom.out'), onclick: () => zoomBy(1 / 1.25) }, '−');
  els.zoomIn = h('button', { type: 'button', class: 'cbw-zoom-in', 'aria-label': t('cbw.zoom.in'), title: t('cbw.zoom.in'), onclick: () => zoomBy(1.25) }, '+');
  els.zoomFit = h('button', { type: 'button', class: 'cbw-zoom-fit', onclick: () => fit(true) }, t('cbw.zoom.fit'));
  els.hands = h('div', { class: 'cbw-hands' });
  els.pass = h('button', { type: 'button', class: 'cbw-pass', hidden: true, onclick: () => doPass() }, t('cbw.pass'));
  els.hint = h('p', { class: 'cbw-hint' });
  els.prisoners = h('div', { class: 'cbw-prisoners' });
  // the zoom buttons share the row of Pass and the prompt (no row of their own, nothing over the board)
  els.actions = h('div', { class: 'cbw-actions' }, els.pass, els.hint,
    h('div', { class: 'cbw-zoom', role: 'group', 'aria-label': t('cbw.zoom') }, els.zoomOut, els.zoomFit, els.zoomIn));
  els.boardBox = h('div', { class: 'cbw-board-box' }, els.svgHost, els.refusal);
  root.append(
    h('div', { class: 'cbw' },
      els.outcome,
      els.teams,
      els.news,
      els.boardBox,
      els.hands,
      els.actions,
      h('div', { class: 'cbw-more' }, els.info, els.prisoners),
      els.keysBoard, els.keysHand));

  // ---- what the table keeps between updates (all from views) ----
  let state = null;
  let view = null;
  let selected = null; // a card of a hand this page holds
  let prevCells = null; // Map 'x,y' → card of the last view drawn
  let scale = 1;
  let userZoom = false;
  let natural = { w: 0, h: 0 };
  let geom = null; // {x0, x1, y0, y1} of the cells drawn
  let lastText = '';
  let lastSeq = -1; // the last history entry told
  let faded = 0;
  let boardResized = false; // the last board drawn has other cells than the one before
  let tapped = null; // {x, y} of the last free cell tapped with a card
  let refusedAt = null; // {x, y} of the cell whose refusal is shown
  let gains = [0, 0]; // prisoners each team took in the last update
  const timers = new Set();
  let boardStop = null; // {x, y}: the board's one Tab stop (roving tabindex)
  let handStop = null; // the card of the hand's one Tab stop
  let toTarget = false; // a card chosen by keyboard: the focus goes to its first lit cell
  const snaps = new Map(); // seq → the cells before that entry (announce says where a card went)
  let ahead = null; // {seq, cells}: after entries announced before this table drew them

  // ---- legal actions ----
  function targetsOf(card) {
    const out = new Set();
    if (!state || !card) return out;
    for (const a of state.legal || []) {
      const p = placeOf(a);
      if (p && p.card === card) out.add(p.x + ',' + p.y);
    }
    return out;
  }
  function playableCards() {
    const out = new Set();
    for (const a of (state && state.legal) || []) {
      const p = placeOf(a);
      if (p) out.add(p.card);
    }
    return out;
  }
  /** The prisoners placing `card` on (x, y) would take (its legal action's `fields`). */
  function capturesAt(card, x, y) {
    const a = ((state && state.legal) || []).find((l) => {
      const p = placeOf(l);
      return p && p.card === card && p.x === x && p.y === y;
    });
    return (a && a.fields.captures) || 0;
  }
  function canPass() {
    return !!(state && (state.legal || []).some(isPass));
  }
  function myTurn() {
    return !!(state && (state.legal || []).length && !state.over);
  }

  /** The seat an action is played for: that of the legal action `match`
   * finds, else the pile holding `card` (players=2: one person plays two
   * seats), else undefined. */
  function seatFor(match, card) {
    const e = ((state && state.legal) || []).find(match);
    if (e && e.seat !== undefined) return e.seat;
    const pv = view && view.partner_hand;
    if (card && pv && pv.cards.includes(card)) return pv.seat;
    return undefined;
  }
  function doPass() {
    if (!canPass()) return;
    selected = null;
    const a = (state.legal || []).find(isPass);
    api.act(a.action, seatFor(isPass));
  }
  function place(x, y) {
    if (!selected || !myTurn()) return;
    const card = selected;
    const match = (a) => {
      const p = placeOf(a);
      return !!p && p.card === card && p.x === x && p.y === y;
    };
    const a = (state.legal || []).find(match);
    tapped = { x, y };
    hideRefusal();
    // players=2: a card of the pile that does not act now is told here (the
    // server would only say that seat does not hold it)
    const pv = view.partner_hand;
    const actor = ((state.legal || [])[0] || {}).seat;
    if (!a && pv && actor !== undefined && !(actor === pv.seat ? pv.cards : view.hand || []).includes(card)) {
      showRefusal({ why: 'other-pile', card, x, y });
      return;
    }
    // a cell the card may not go: sent all the same, so that the server
    // says why (its `refusal`), told next to this cell (showRefusal)
    api.act(a ? a.action : card + '@' + x + ',' + y, seatFor(match, card));
  }

  // ---- the board: zoom and pan ----
  function applyScale() {
    const s = els.svgHost.firstChild;
    if (!s) return;
    s.setAttribute('width', Math.round(natural.w * scale));
    s.setAttribute('height', Math.round(natural.h * scale));
    placeRefusal();
  }
  function setScale(ns, cx, cy) {
    const box = els.svgHost;
    const minScale = Math.min(MIN_CARD_PX / CW, fitScale()) * 0.7;
    ns = Math.max(minScale, Math.min(MAX_SCALE * 1.5, ns));
    const r = box.getBoundingClientRect();
    const ax = cx === undefined ? r.width / 2 : cx - r.left;
    const ay = cy === undefined ? r.height / 2 : cy - r.top;
    const ux = (box.scrollLeft + ax) / scale;
    const uy = (box.scrollTop + ay) / scale;
    scale = ns;
    applyScale();
    box.scrollLeft = ux * scale - ax;
    box.scrollTop = uy * scale - ay;
  }
  function zoomBy(f) {
    userZoom = true;
    setScale(scale * f);
  }
  /** The height the board may take so that the hand and the prompt below it
   * stay on the first screen (the window's height less what lies above the
   * board and what must be seen below it); never under MIN_BOARD_PX. */
  function boardRoom() {
    const top = els.svgHost.getBoundingClientRect().top + window.scrollY;
    const below = els.hands.getBoundingClientRect().height + els.actions.getBoundingClientRect().height + 2 * 6 + 6;
    return Math.max(MIN_BOARD_PX, Math.floor(window.innerHeight - top - below));
  }
  function fitScale() {
    const w = els.svgHost.clientWidth || root.clientWidth || 320;
    if (!natural.w) return 1;
    return Math.min(w / natural.w, (boardRoom() - 2) / natural.h);
  }
  function fit(byUser, centre) {
    if (byUser) userZoom = false;
    els.svgHost.style.maxHeight = boardRoom() + 'px';
    scale = Math.max(MIN_CARD_PX / CW, Math.min(MAX_SCALE, fitScale()));
    applyScale();
    const box = els.svgHost;
    // centre the span when the board is wider than its box
    if (centre !== false) box.scrollLeft = Math.max(0, (box.scrollWidth - box.clientWidth) / 2);
  }

  const pointers = new Map();
  let drag = null;
  let pinch = null;
  let moved = false;
  function onDown(e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) {
      drag = { x: e.clientX, y: e.clientY, lx: e.clientX, ly: e.clientY };
      moved = false;
    } else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, scale };
      moved = true;
    }
  }
  function onMove(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      userZoom = true;
      setScale((pinch.scale * Math.hypot(a.x - b.x, a.y - b.y)) / pinch.d, (a.x + b.x) / 2, (a.y + b.y) / 2);
      return;
    }
    if (!drag) return;
    if (!moved && Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) < 8) return;
    moved = true;
    const dx = e.clientX - drag.lx;
    const dy = e.clientY - drag.ly;
    drag.lx = e.clientX;
    drag.ly = e.clientY;
    const box = els.svgHost;
    box.scrollLeft -= dx;
    const before = box.scrollTop;
    box.scrollTop -= dy;
    if (box.scrollTop === before && e.pointerType === 'touch') window.scrollBy(0, -dy);
  }
  function onUp(e) {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) drag = null;
  }
  function onClickCapture(e) {
    if (moved) {
      e.stopPropagation();
      e.preventDefault();
      moved = false;
    }
  }
  function onWheel(e) {
    if (!e.ctrlKey) return;
    e.preventDefault();
    userZoom = true;
    setScale(scale * Math.exp(-e.deltaY / 300), e.clientX, e.clientY);
  }
  const host = els.svgHost;
  host.addEventListener('pointerdown', onDown);
  host.addEventListener('pointermove', onMove);
  host.addEventListener('pointerup', onUp);
  host.addEventListener('pointercancel', onUp);
  host.addEventListener('click', onClickCapture, true);
  host.addEventListener('wheel', onWheel, { passive: false });
  // ---- the keyboard (issue 32): one Tab stop for the board, one for the
  // hand, the arrow keys inside each; Enter or Space chooses a card (the
  // focus then goes to its first lit cell) or plays on a cell; Escape puts
  // the chosen card back (the focus back on it in the hand) ----
  const onKey = (e) => {
    if (e.key !== 'Escape' || !selected) return;
    const card = selected;
    const fromBoard = els.svgHost.contains(document.activeElement);
    selected = null;
    hideRefusal();
    redraw();
    if (fromBoard) focusHand(card);
  };
  root.addEventListener('keydown', onKey);
  const STEP = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  /** The board's cell at (x, y) (not a fading card), or null. */
  function cellEl(x, y) {
    return els.svgHost.querySelector(`.cbw-cell[data-x="${x}"][data-y="${y}"]`);
  }
  /** Moves the board's Tab stop to `el` and focuses it. */
  function focusCell(el) {
    if (!el) return;
    for (const c of els.svgHost.querySelectorAll('.cbw-cell[tabindex="0"]')) c.setAttribute('tabindex', '-1');
    el.setAttribute('tabindex', '0');
    boardStop = { x: Number(el.dataset.x), y: Number(el.dataset.y) };
    el.focus();
  }
  /** Focuses the hand's button of `card` (else the hand's Tab stop). */
  function focusHand(card) {
    const b = els.hands.querySelector(`.cbw-hcard[data-card="${card}"]`) || els.hands.querySelector('.cbw-hcard[tabindex="0"]');
    if (b) {
      for (const o of els.hands.querySelectorAll('.cbw-hcard[tabindex="0"]')) o.setAttribute('tabindex', '-1');
      b.setAttribute('tabindex', '0');
      handStop = b.dataset.card;
      b.focus();
    }
  }
  els.svgHost.addEventListener('keydown', (e) => {
    const el = e.target && e.target.closest ? e.target.closest('.cbw-cell') : null;
    if (!el || e.altKey || e.ctrlKey || e.metaKey) return;
    const x = Number(el.dataset.x), y = Number(el.dataset.y);
    const d = STEP[e.key];
    if (d) {
      e.preventDefault();
      focusCell(cellEl(x + d[0], y + d[1]));
    } else if (e.key === 'Home' || e.key === 'End') {
      // the first or last lit cell (the first or last cell when none is lit)
      e.preventDefault();
      const lit = [...els.svgHost.querySelectorAll('.cbw-target')];
      const all = lit.length ? lit : [...els.svgHost.querySelectorAll('.cbw-cell')];
      focusCell(e.key === 'Home' ? all[0] : all[all.length - 1]);
    } else if ((e.key === 'Enter' || e.key === ' ') && el.classList.contains('cbw-free')) {
      e.preventDefault();
      press(x, y);
    }
  });
  /** A free cell pressed by keyboard: placed as a tap places; without a
   * chosen card (or out of turn) the reason is told beside the cell. */
  function press(x, y) {
    if (selected && myTurn()) return place(x, y);
    const text = myTurn() ? t('cbw.a11y.choose') : view && view.turn !== undefined && !state.over ? t('cbw.a11y.wait', { who: whoText(view.turn, false) }) : t('cbw.a11y.over');
    showRefusal({ why: 'note', text, x, y });
  }
  els.hands.addEventListener('keydown', (e) => {
    const el = e.target && e.target.closest ? e.target.closest('.cbw-hcard') : null;
    if (!el || e.altKey || e.ctrlKey || e.metaKey) return;
    const all = [...els.hands.querySelectorAll('.cbw-hcard')];
    const i = all.indexOf(el);
    let j = null;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') j = Math.min(all.length - 1, i + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') j = Math.max(0, i - 1);
    else if (e.key === 'Home') j = 0;
    else if (e.key === 'End') j = all.length - 1;
    if (j === null) return;
    e.preventDefault();
    focusHand(all[j].dataset.card);
  });
  const onResize = () => {
    if (!userZoom) fit(false);
  };
  window.addEventListener('resize', onResize);

  // ---- drawing ----
  /** The castles as if the game ended now (CBW-R23, R24): Map 'x,y' → team
   * of the free cells walled in by one team's cards, worked out from the
   * view's cells; null unless its counts are the view's own `castles` (the
   * server's rules decide; this only finds where they are). */
  function castlesOf(v, cells) {
    if (!v.span || !v.inside || !v.castles) return null;
    const ins = v.inside, sp = v.span;
    const inside = (x, y) => x >= ins.x[0] && x <= ins.x[1] && y >= ins.y[0] && y <= ins.y[1];
    const inSpan = (x, y) => x >= sp.x[0] && x <= sp.x[1] && y >= sp.y[0] && y <= sp.y[1];
    const seen = new Set();
    const out = new Map();
    const totals = [0, 0];
    for (let y0 = sp.y[0]; y0 <= sp.y[1]; y0++)
      for (let x0 = sp.x[0]; x0 <= sp.x[1]; x0++) {
        const k0 = x0 + ',' + y0;
        if (cells.has(k0) || seen.has(k0)) continue;
        const region = [];
        const colours = new Set();
        let open = false; // reaches a free cell outside the span: not walled in
        const todo = [[x0, y0]];
        seen.add(k0);
        while (todo.length) {
          const [x, y] = todo.pop();
          region.push(x + ',' + y);
          for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]]) {
            if (!inside(nx, ny)) continue; // a fixed edge: no spoiler
            const k = nx + ',' + ny;
            const c = cells.get(k);
            if (c) colours.add(RED_SUIT[c.slice(-1)] ? 0 : 1);
            else if (!inSpan(nx, ny)) open = true;
            else if (!seen.has(k)) {
              seen.add(k);
              todo.push([nx, ny]);
            }
          }
        }
        if (open || colours.size !== 1) continue;
        const team = [...colours][0];
        totals[team] += region.length;
        for (const k of region) out.set(k, team);
      }
    return totals[0] === v.castles[0] && totals[1] === v.castles[1] ? out : null;
  }

  function drawBoard(v, gone) {
    const b = boxOf(v);
    const sizeChanged = !geom || geom.x1 - geom.x0 !== b.x1 - b.x0 || geom.y1 - geom.y0 !== b.y1 - b.y0;
    geom = b;
    const cols = b.x1 - b.x0 + 1;
    const rows = b.y1 - b.y0 + 1;
    natural = { w: cols * PX + 2 * M, h: rows * PY + 2 * M };
    const cx = (x) => M + (x - b.x0) * PX + GAP / 2; // a cell's card corner
    const cy = (y) => M + (b.y1 - y) * PY + GAP / 2;
    const cells = cellsOf(v);
    const targets = targetsOf(selected);
    const turnNow = myTurn();
    const last = [...(v.history || [])].reverse().find((e) => e.move === 'place');
    const castles = castlesOf(v, cells) || new Map();
    const root = svg('svg', {
      class: 'cbw-svg',
      viewBox: `0 0 ${natural.w} ${natural.h}`,
      role: 'group',
      'aria-label': t('cbw.board', { w: v.options.width, h: v.options.height, n: (v.table || []).length }),
      'aria-describedby': 'cbw-keys-board',
    });
    root.append(svg('rect', { class: 'cbw-felt', x: 0, y: 0, width: natural.w, height: natural.h, rx: 10 }));
    // the span: every cell that has ever held a card
    if (v.span)
      root.append(svg('rect', {
        class: 'cbw-span',
        x: cx(v.span.x[0]) - GAP / 2 + 1,
        y: cy(v.span.y[1]) - GAP / 2 + 1,
        width: (v.span.x[1] - v.span.x[0] + 1) * PX - 2,
        height: (v.span.y[1] - v.span.y[0] + 1) * PY - 2,
        rx: 6,
      }));
    const sep = t('cbw.a11y.sep');
    const marks = svg('g', { class: 'cbw-marks', 'aria-hidden': 'true' }); // drawn over the cells, outside their names
    // the focus ring: dark next to the card, white next to the felt (3:1 against either)
    const ring = (x, y) => [
      svg('rect', { class: 'cbw-focus cbw-focus-out', x: cx(x) - 4.5, y: cy(y) - 4.5, width: CW + 9, height: CH + 9, rx: 8 }),
      svg('rect', { class: 'cbw-focus cbw-focus-in', x: cx(x) - 1.5, y: cy(y) - 1.5, width: CW + 3, height: CH + 3, rx: 6 }),
    ];
    for (let y = b.y1; y >= b.y0; y--)
      for (let x = b.x0; x <= b.x1; x++) {
        const key = x + ',' + y;
        const card = cells.get(key);
        const pos = posWords(b, x, y, t);
        if (card) {
          const isLast = !!last && last.x === x && last.y === y && last.card === card;
          const g = svg('g', {
            class: 'cbw-cell cbw-on' + (isLast ? ' cbw-lastcard' : ''),
            tabindex: '-1',
            role: 'img',
            'aria-label': t('cbw.a11y.cell.card', { card: cardName(card), team: teamName(teamOfCard(card)), pos }) + (isLast ? sep + t('cbw.lastcard') : ''),
            dataset: { x, y, card },
          }, cardFace(card, cx(x), cy(y), CW, CH));
          if (isLast) {
            // the last card: a ring and a corner flag (a shape, not only a colour)
            g.append(svg('rect', { class: 'cbw-ring', x: cx(x) - 2.5, y: cy(y) - 2.5, width: CW + 5, height: CH + 5, rx: 7 }));
            g.append(svg('path', { class: 'cbw-last-mark', d: `M${cx(x) + CW - 18},${cy(y) + 1} h17 v17 z` }));
          }
          g.append(...ring(x, y));
          root.append(g);
        } else {
          const target = targets.has(key);
          const castle = castles.get(key);
          const words = [t('cbw.a11y.cell.free', { pos })];
          const near = neighbourWords(cells, x, y, t);
          if (near) words.push(near);
          if (target) {
            const n = capturesAt(selected, x, y);
            words.push(t('cbw.a11y.cell.target', { card: cardName(selected) }) + (n ? sep + t('cbw.a11y.cell.captures', { n }) : ''));
          }
          if (castle !== undefined) words.push(t('cbw.cell.castle', { team: teamName(castle) }));
          const g = svg('g', {
            class: 'cbw-cell cbw-free' + (target ? ' cbw-target' : '') + (castle !== undefined ? ' cbw-castle team' + castle : '') +
              (refusedAt && refusedAt.x === x && refusedAt.y === y ? ' cbw-refused' : ''),
            tabindex: '-1',
            role: 'button',
            'aria-label': words.join(sep),
            // a cell the chosen card may not take can still be pressed: the reason is told beside it
            'aria-disabled': turnNow && selected && target ? null : 'true',
            dataset: { x, y },
            onclick: () => place(x, y),
          }, svg('rect', { class: 'cbw-slot', x: cx(x) + 1, y: cy(y) + 1, width: CW - 2, height: CH - 2, rx: 5 }), ...ring(x, y));
          // a castle: the rook and its team's suits (the team told by shape, not by colour alone)
          if (castle !== undefined && !target) {
            marks.append(svg('text', { class: 'cbw-castle-mark', x: cx(x) + CW / 2, y: cy(y) + CH / 2 + 2, 'font-size': 24, 'text-anchor': 'middle' }, '♜'));
            marks.append(svg('text', { class: 'cbw-castle-mark', x: cx(x) + CW / 2, y: cy(y) + CH / 2 + 22, 'font-size': 14, 'text-anchor': 'middle' }, castle === 0 ? '♥♦' : '♠♣'));
          }
          if (target) marks.append(svg('text', { class: 'cbw-target-mark' + (RED_SUIT[String(selected).slice(-1)] ? ' red' : ''), x: cx(x) + CW / 2, y: cy(y) + CH / 2 + 7, 'font-size': 22, 'text-anchor': 'middle' }, short(selected)));
          root.append(g);
        }
      }
    root.append(marks);
    // the walls: the Rectangle's fixed edges
    const wall = (x1, y1, x2, y2, which) => root.append(svg('line', { class: 'cbw-wall', x1, y1, x2, y2, dataset: { wall: which } }));
    const top = M / 2, bottom = natural.h - M / 2, left = M / 2, right = natural.w - M / 2;
    if (v.fixed_x) {
      const lx = cx(v.fixed_x[0]) - GAP / 2 - 2, rx = cx(v.fixed_x[1]) + CW + GAP / 2 + 2;
      wall(lx, top, lx, bottom, 'left');
      wall(rx, top, rx, bottom, 'right');
    }
    if (v.fixed_y) {
      const ty = cy(v.fixed_y[1]) - GAP / 2 - 2, by = cy(v.fixed_y[0]) + CH + GAP / 2 + 2;
      wall(left, ty, right, ty, 'top');
      wall(left, by, right, by, 'bottom');
    }
    // captures: the cards that left the table fade out
    for (const [key, card] of gone) {
      const [x, y] = key.split(',').map(Number);
      if (x < b.x0 || x > b.x1 || y < b.y0 || y > b.y1) continue;
      // crossed out while it fades (a shape as well as the red edge)
      const g = svg('g', { class: 'cbw-ghost', 'aria-hidden': 'true' }, cardFace(card, cx(x), cy(y), CW, CH),
        svg('path', { class: 'cbw-cross', d: `M${cx(x) + 6},${cy(y) + 6} L${cx(x) + CW - 6},${cy(y) + CH - 6} M${cx(x) + CW - 6},${cy(y) + 6} L${cx(x) + 6},${cy(y) + CH - 6}` }));
      root.append(g);
      faded++;
      const tm = setTimeout(() => {
        g.remove();
        timers.delete(tm);
      }, 1400);
      timers.add(tm);
    }
    const hadFocus = document.activeElement && els.svgHost.contains(document.activeElement) ? document.activeElement.dataset : null;
    clear(els.svgHost).append(root);
    els.svgHost.dataset.faded = String(faded); // cards faded out since the mount (the tests count captures)
    boardResized = sizeChanged;
    // the board's one Tab stop: the cell focused, else the first lit cell of
    // a card chosen by keyboard, else the cell of the last stop, else the
    // last card played, else the first cell
    const at = (p) => (p ? root.querySelector(`.cbw-cell[data-x="${p.x}"][data-y="${p.y}"]`) : null);
    const firstLit = root.querySelector('.cbw-target');
    let stop = null;
    if (toTarget && firstLit) stop = firstLit;
    else if (hadFocus && hadFocus.x !== undefined) stop = at(hadFocus);
    stop = stop || at(boardStop) || root.querySelector('.cbw-lastcard') || root.querySelector('.cbw-cell');
    if (stop) {
      stop.setAttribute('tabindex', '0');
      boardStop = { x: Number(stop.dataset.x), y: Number(stop.dataset.y) };
      if (toTarget && firstLit) stop.focus();
      else if (hadFocus) stop.focus({ preventScroll: true });
    }
    toTarget = false;
  }

  function miniCard(card, w = 40, hgt = 56) {
    return svg('svg', { class: 'cbw-mini', viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, 'aria-hidden': 'true', focusable: 'false' }, cardFace(card, 0, 0, w, hgt));
  }

  function drawHands(v) {
    // a redraw keeps the focus on the card it was on (else on the hand's stop)
    const focused = els.hands.contains(document.activeElement) ? document.activeElement.dataset.card || '' : null;
    clear(els.hands);
    if (!v.hand) return; // a spectator: no hand is ever drawn
    const playable = playableCards();
    const actorSeats = new Set((state.legal || []).map((a) => a.seat));
    const piles = [{ seat: v.viewer, cards: v.hand, title: t('cbw.hand.mine', { n: v.viewer + 1 }) }];
    if (v.partner_hand) piles.push({ seat: v.partner_hand.seat, cards: v.partner_hand.cards, title: t('cbw.hand.partner', { n: v.partner_hand.seat + 1 }) });
    const actingPile = piles.find((p) => actorSeats.has(p.seat) || (v.actors || []).includes(p.seat));
    for (const pile of piles) {
      const acting = actorSeats.has(pile.seat) || (v.actors || []).includes(pile.seat);
      // players=2: the pile that does not act now is drawn small (the screen holds both)
      const idle = piles.length > 1 && (actingPile ? pile !== actingPile : pile !== piles[0]);
      const list = h('div', { class: 'cbw-hand', role: 'group', 'aria-label': pile.title, 'aria-describedby': 'cbw-keys-hand' });
      for (const card of pile.cards) {
        const can = playable.has(card);
        const stuck = acting && myTurn() && !can; // its turn, and no free cell takes it
        list.append(
          h('button', {
            type: 'button',
            class: 'cbw-hcard' + (can ? ' playable' : '') + (selected === card ? ' selected' : ''),
            'aria-pressed': selected === card ? 'true' : 'false',
            'aria-disabled': stuck ? 'true' : null,
            tabindex: '-1',
            dataset: { card },
            onclick: (e) => {
              selected = selected === card ? null : card;
              handStop = card;
              // chosen by keyboard (a click of detail 0): on to its first lit cell
              toTarget = !!selected && e.detail === 0 && myTurn() && targetsOf(card).size > 0;
              hideRefusal();
              const byKey = toTarget;
              redraw();
              if (byKey) return;
              const again = els.hands.querySelector(`[data-card="${card}"]`);
              if (again) again.focus({ preventScroll: true });
            },
          },
          // the name as text (no aria-label: the name holds what the face shows)
          h('span', { class: 'sr' }, cardName(card) + (stuck ? t('cbw.a11y.sep') + t('cbw.hand.nowhere') : '')),
          miniCard(card)));
      }
      if (!pile.cards.length) list.append(h('span', { class: 'quiet' }, t('cbw.hand.empty')));
      // the idle pile's title short, on its cards' line
      const title = idle ? t('cbw.hand.idle', { n: pile.seat + 1 }) : pile.title;
      els.hands.append(h('section', { class: 'cbw-pile' + (acting && myTurn() ? ' acting' : '') + (idle ? ' idle' : '') }, h('h3', { title: pile.title }, title), list));
    }
    // the hand's one Tab stop: the chosen card, else the last stop, else the first playable card, else the first
    const buttons = [...els.hands.querySelectorAll('.cbw-hcard')];
    const by = (c) => buttons.find((b) => b.dataset.card === c);
    const stop = by(selected) || by(handStop) || buttons.find((b) => b.classList.contains('playable')) || buttons[0];
    if (stop) {
      stop.setAttribute('tabindex', '0');
      handStop = stop.dataset.card;
    }
    if (focused !== null && (by(focused) || stop)) (by(focused) || stop).focus({ preventScroll: true });
  }

  /** A seat's name for the log: "You" (or "you") for this page's seats, else its name. */
  function whoText(i, start) {
    const mine = i === api.seat || (view && view.partner_hand && view.partner_hand.seat === i);
    if (mine && !(state && state.replay)) return t(start ? 'cbw.tell.You' : 'cbw.tell.you');
    const s = state && state.seats && state.seats[i];
    return s ? teamSeatName(i) : t('cbw.tell.seat', { n: i + 1 }); // a replay has no seats
  }

  /** A seat's name in its team's row: a players=2 partner seat as its
   * person's second pile ("Ann, 2nd pile"), else the room's name. */
  function teamSeatName(i) {
    const s = state.seats && state.seats[i];
    if (s && s.kind === 'partner') {
      const of = state.seats[s.of ?? 0];
      return t('cbw.pile2', { name: s.name || (of && of.name) || t('cbw.tell.seat', { n: (s.of ?? 0) + 1 }) });
    }
    // a computer by its number alone: its level is the room's business
    if (s && s.kind === 'ai') return t('cbw.computer', { n: i + 1 });
    return seatNameN(s, i);
  }

  /** The two teams, each a row: its colour, name and score, then its seats
   * (partners side by side: "Red: Ann, computer 3"), each with its hand
   * size and whose turn. */
  function drawTeams(v) {
    clear(els.teams);
    const teams = v.teams || [];
    const sc = v.score || [0, 0];
    const ca = v.castles || [0, 0];
    const pr = v.prisoners || [[], []];
    for (const team of [0, 1]) {
      const members = [];
      for (let i = 0; i < v.seats; i++) if ((teams[i] ?? i % 2) === team) members.push(i);
      const names = members.map((i) => teamSeatName(i));
      const detail = t('cbw.score.detail', { castles: ca[team], prisoners: (pr[team] || []).length });
      const row = h('div', {
        class: 'cbw-team team' + team,
        dataset: { team },
        role: 'group',
        'aria-label': t('cbw.team.members', { team: teamName(team), names: names.join(', ') }) + '. ' + t('cbw.team.score', { score: sc[team] }) + ': ' + detail,
      },
      h('span', { class: 'cbw-chip', 'aria-hidden': 'true' }),
      h('b', { class: 'cbw-team-name', title: detail }, teamName(team) + ' ' + sc[team]),
      gains[team] ? h('span', { class: 'cbw-gain' }, t('cbw.gain', { n: gains[team] })) : null,
      h('span', { class: 'cbw-team-detail' }, detail));
      const list = h('ol', { class: 'cbw-seats' });
      for (const i of members) {
        const turn = v.phase === 'move' && v.turn === i;
        const n = (v.hand_sizes || [])[i] ?? 0;
        list.append(
          h('li', { class: 'cbw-seat team' + team + (turn ? ' turn' : '') + (i === api.seat ? ' me' : ''), dataset: { seat: i } },
            h('span', { class: 'cbw-seat-name' }, names[members.indexOf(i)], i === api.seat ? ' ' + t('cbw.you') : ''),
            h('span', { class: 'cbw-seat-cards', title: t('cbw.cards', { n }) }, t('cbw.cards', { n })),
            turn ? h('span', { class: 'cbw-turn' }, t('cbw.turn')) : null));
      }
      row.append(list);
      els.teams.append(row);
    }
  }

  function drawInfo(v) {
    const o = v.options || {};
    const bits = [t('cbw.rect', { w: o.width, h: o.height })];
    if (v.span) bits.push(t('cbw.span', { w: v.span.x[1] - v.span.x[0] + 1, h: v.span.y[1] - v.span.y[0] + 1 }));
    bits.push(v.fixed_x ? t('cbw.fixed.x') : t('cbw.open.x'));
    bits.push(v.fixed_y ? t('cbw.fixed.y') : t('cbw.open.y'));
    if (v.passes) bits.push(t('cbw.passes', { n: v.passes, all: v.seats }));
    if (v.stage === 'first') bits.push(t('cbw.drawing'));
    els.info.textContent = bits.join(' · ');
    const o2 = v.outcome;
    els.outcome.hidden = !o2;
    if (o2) {
      const sc = (v.score || [0, 0]).join(' : ');
      els.outcome.textContent = o2.kind === 'draw' || o2.winner === null ? t('cbw.over.draw', { score: sc }) : t('cbw.over.win', { team: teamName(o2.winner), score: sc });
      els.outcome.className = 'cbw-outcome' + (o2.kind === 'draw' || o2.winner === null ? '' : ' team' + o2.winner);
    }
  }

  function drawPrisoners(v) {
    clear(els.prisoners);
    const pr = v.prisoners || [[], []];
    for (const team of [0, 1]) {
      const cards = pr[team] || [];
      els.prisoners.append(
        h('p', { class: 'cbw-pris team' + team },
          h('span', { class: 'cbw-pris-head' }, t('cbw.prisoners', { team: teamName(team), n: cards.length })),
          cards.length ? ' ' : null,
          cards.map((c) => h('span', { class: 'cbw-pcard ' + (RED_SUIT[c.slice(-1)] ? 'red' : 'black'), 'aria-label': cardName(c), role: 'img' }, short(c)))));
    }
  }

  /** What the actions new in this state did, one text an entry, from their
   * entries' events (only the last one after a (re)load, when the state
   * holds the whole history), each placement said by the card it was laid
   * beside: the cells are replayed from those before the state (`before`),
   * else from the table now less what the entry placed and plus what it
   * captured. Sets `gains` (the prisoners each team took). null when the
   * state brings no entry (the text stays). A replay's state has no
   * entries: its last move, from the view. */
  function newLines(st, v, before) {
    const entries = (st.history || []).filter((e) => e && Array.isArray(e.events) && e.seq > lastSeq);
    gains = [0, 0];
    if (entries.length) {
      const told = st.history_from === 0 ? entries.slice(-1) : entries;
      let cells;
      if (before && st.history_from !== 0) cells = new Map(before);
      else {
        cells = cellsOf(v);
        for (const e of told[0].events) {
          if (e.type === 'place') cells.delete(e.x + ',' + e.y);
          if (e.type === 'capture') for (const c of e.cards || []) cells.set(c.x + ',' + c.y, c.card);
        }
      }
      const lines = [];
      for (const entry of told) {
        snap(entry.seq, cells);
        lines.push(eventWords(entry.events, t, whoText, cells).join(' '));
        for (const e of entry.events) {
          if (e.type === 'place') cells.set(e.x + ',' + e.y, e.card);
          if (e.type === 'capture') {
            for (const c of e.cards || []) cells.delete(c.x + ',' + c.y);
            if (e.by === 0 || e.by === 1) gains[e.by] += (e.cards || []).length;
          }
        }
        lastSeq = Math.max(lastSeq, entry.seq);
      }
      return lines.filter(Boolean);
    }
    if (!st.replay) return null;
    const e = (v.history || [])[(v.history || []).length - 1];
    if (!e) return [];
    if (e.move !== 'place') return [t('cbw.last.pass', { who: whoText(e.seat, true) })];
    const cells = cellsOf(v);
    cells.delete(e.x + ',' + e.y);
    const where = besideWords(cells, e.x, e.y, t);
    return [where ? t('cbw.tell.place.beside', { who: whoText(e.seat, true), card: short(e.card), where }) : t('cbw.tell.place', { who: whoText(e.seat, true), card: short(e.card) })];
  }

  /** The log: the lines of the last update as `.cbw-last`, up to LOG_KEEP
   * before them above it, faded, as many as the box holds whole; the box
   * scrolled to its newest line. */
  let logLines = [];
  let lastLines = [];
  function drawLog(lines) {
    if (lines === null) return;
    const text = lines.join(' ');
    if (text === lastText) return;
    lastText = text;
    logLines = [...logLines, ...lastLines].slice(-LOG_KEEP);
    lastLines = lines;
    clear(els.log).append(...logLines.map((l) => h('p', {}, l)));
    clear(els.last).append(...lastLines.map((l) => h('p', {}, l)));
    // whole lines only: the oldest go while the box would cut one
    while (els.log.firstChild && els.news.scrollHeight > els.news.clientHeight + 1) els.log.firstChild.remove();
    els.news.scrollTop = els.news.scrollHeight;
  }

  // ---- a refusal, next to the cell tapped ----
  /** A refusal (docs/web-views.md, cbw "Refusals") in the page's words. */
  function refusalWords(r) {
    if (r.why === 'note') return r.text; // the table's own words (a key pressed on a cell out of turn)
    const key = 'cbw.refusal.' + r.why + (r.why === 'outside' && r.walls ? '.walls' : '');
    const vars = {
      card: short(r.card),
      holds: r.holds ? short(r.holds) : '',
      touches: r.touches ? short(r.touches) : '',
      neighbours: (r.neighbours || []).map(short).join(t('cbw.tell.and')),
      low: r.low ?? '',
      w: r.w ?? '',
      h: r.h ?? '',
      team: r.team === 0 || r.team === 1 ? teamName(r.team) : '',
    };
    return has(key) ? t(key, vars) : t('cbw.refusal.other');
  }
  function hideRefusal() {
    els.refusal.hidden = true;
    if (refusedAt) {
      const el = els.svgHost.querySelector('.cbw-refused');
      if (el) el.classList.remove('cbw-refused');
    }
    refusedAt = null;
  }
  /** Shows refusal `r` next to its cell (or the one tapped): the cell ringed
   * in red, the words in a box beside it inside the board's box. Returns
   * whether it was shown. */
  function showRefusal(r) {
    if (!r || typeof r.why !== 'string' || !view) return false;
    const at = Number.isInteger(r.x) && Number.isInteger(r.y) ? { x: r.x, y: r.y } : tapped;
    els.refusal.textContent = refusalWords(r);
    els.refusal.hidden = false;
    refusedAt = at;
    const cell = at && els.svgHost.querySelector(`.cbw-cell[data-x="${at.x}"][data-y="${at.y}"]`);
    if (cell) {
      cell.classList.add('cbw-refused');
      // the cell into the board's view
      const c0 = cell.getBoundingClientRect();
      const host = els.svgHost.getBoundingClientRect();
      if (c0.left < host.left || c0.right > host.right) els.svgHost.scrollLeft += c0.left - host.left - (host.width - c0.width) / 2;
      if (c0.top < host.top || c0.bottom > host.bottom) els.svgHost.scrollTop += c0.top - host.top - (host.height - c0.height) / 2;
    }
    placeRefusal();
    return true;
  }
  /** The refusal's box beside its cell: below it, else above it, within the
   * board's box (again whenever the board is scaled, scrolled or moved). */
  function placeRefusal() {
    if (els.refusal.hidden) return;
    const box = els.boardBox.getBoundingClientRect();
    const at = refusedAt;
    const cell = at && els.svgHost.querySelector(`.cbw-cell[data-x="${at.x}"][data-y="${at.y}"]`);
    let left = 4, top = 4;
    if (cell) {
      const c = cell.getBoundingClientRect();
      const w = Math.min(els.refusal.offsetWidth, box.width - 8);
      const hgt = els.refusal.offsetHeight;
      left = Math.max(4, Math.min(box.width - w - 4, c.left - box.left + c.width / 2 - w / 2));
      // below the cell when the board's box has room, else above it (over
      // the log rather than the hand, which the player reaches for next)
      top = c.bottom - box.top + 4 + hgt <= box.height ? c.bottom - box.top + 4 : c.top - box.top - hgt - 4;
    }
    els.refusal.style.left = Math.round(left) + 'px';
    els.refusal.style.top = Math.round(top) + 'px';
  }
  els.svgHost.addEventListener('scroll', () => placeRefusal(), { passive: true });
  const boxWatch = typeof ResizeObserver === 'function' ? new ResizeObserver(() => placeRefusal()) : null;
  if (boxWatch) boxWatch.observe(els.boardBox);

  /** Keeps a copy of `cells` as the table before entry `seq` (the last 32). */
  function snap(seq, cells) {
    snaps.set(seq, new Map(cells));
    if (snaps.size > 32) snaps.delete(snaps.keys().next().value);
  }
  /** The cells before history entry `entry` (for `announce`): as this
   * table drew them, or, for an entry it has not drawn yet, the table now
   * plus the entries announced since; null for an older entry it never held. */
  function cellsBefore(entry) {
    const seq = entry && entry.seq;
    if (snaps.has(seq)) return snaps.get(seq);
    if (!Number.isInteger(seq) || seq <= lastSeq || !view) return null;
    const cells = new Map(ahead && ahead.seq < seq ? ahead.cells : prevCells || cellsOf(view));
    snap(seq, cells);
    applyEvents(cells, entry.events);
    ahead = { seq, cells };
    return snaps.get(seq);
  }

  function drawActions(v) {
    const passHadFocus = document.activeElement === els.pass;
    els.pass.hidden = !canPass();
    // Pass pressed by keyboard goes away: the focus to the hand (else the board), not lost
    if (passHadFocus && els.pass.hidden) (els.hands.querySelector('.cbw-hcard[tabindex="0"]') || els.svgHost.querySelector('.cbw-cell[tabindex="0"]') || els.svgHost).focus({ preventScroll: true });
    let hint = '';
    if (v.hand && myTurn()) hint = selected ? (targetsOf(selected).size ? t('cbw.hint.cell') : t('cbw.hint.nowhere')) : t('cbw.hint.card');
    els.hint.textContent = hint;
  }

  function redraw(gone = new Map()) {
    if (!view) return;
    drawTeams(view);
    drawInfo(view);
    drawBoard(view, gone);
    drawHands(view);
    drawActions(view);
    drawPrisoners(view);
    // the board last: it takes the height the rest leaves
    if (!userZoom) fit(false, boardResized);
    else applyScale();
    boardResized = false;
  }

  const table = {
    update(st) {
      state = st;
      view = st.view;
      if (!view || view.game !== 'cbw') return;
      const cells = cellsOf(view);
      const gone = new Map();
      if (prevCells) for (const [k, c] of prevCells) if (cells.get(k) !== c) gone.set(k, c);
      const held = [...(view.hand || []), ...((view.partner_hand && view.partner_hand.cards) || [])];
      if (selected && !held.includes(selected)) selected = null;
      const lines = newLines(st, view, prevCells);
      if (lines !== null) hideRefusal(); // something happened: the refusal is old news
      redraw(gone);
      drawLog(lines);
      prevCells = cells;
      ahead = null;
    },
    event(msg) {
      // an illegal placement: told next to the cell tapped (the room asks
      // `refused` first; a room that does not shows its own note too); the
      // card stays chosen so another cell can be tried
      if (msg && msg.type === 'error' && msg.request === 'act' && msg.refusal) showRefusal(msg.refusal);
    },
    showRefusal,
    /** The cards on the table now (Map 'x,y' → card), for actionWords. */
    cells: () => (view ? cellsOf(view) : null),
    cellsBefore,
    /** A seat as `announce` names it ("you", "Ann", "computer 3"). */
    whoSay: (i) => whoText(i, false),
    destroy() {
      for (const tm of timers) clearTimeout(tm);
      timers.clear();
      window.removeEventListener('resize', onResize);
      if (boxWatch) boxWatch.disconnect();
      if (current === table) current = null;
      clear(root);
    },
  };
  current = table;
  return table;
}
