// karuta.js — the karuta table (docs/web-ui.md, "The table contract"), for
// kyōgi, uta-karuta and chirashi-dori. Drawn by hand in SVG from the seat's
// JSON view alone (docs/web-views.md, `karuta`) and the room's real-time
// messages (`reading`, `kana`: docs/web-protocol.md, "Karuta in real time").
//
// The field: kyōgi — the opponent's territory mirrored at the top (his row 1
// nearest him, his cards upside down, as they face him), a line, yours at the
// bottom (row 1 nearest you, slot 1 on your left); chirashi — the shared field
// in poem order; uta — the four hands and the pool, eight cards to a line. Each card is
// a torifuda: a tall card with the lower verse in vertical hiragana, three
// columns right to left (the texts come from karuta-cards.js, generated from
// data/hyakunin-isshu/data.csv by scripts/gen_karuta_cards.py). Only the
// columns of slots that hold a card are drawn, so a short deal stays large on a
// phone; all 17 when you place or rearrange.
//
// A reading: the kana appear one by one as the server sends them, optionally
// spoken with speechSynthesis (a Japanese voice only, toggle kept in
// localStorage). A tap/click on a card (or Enter/Space on a focused card)
// during a reading touches it: api.touch(card, performance.timeOrigin +
// performance.now()) at pointerdown. The judgement is said in plain words from
// view.judgement's fields (who took, in how many seconds after the deciding
// kana, the kimariji, fouls, sends; its details: the territory kimariji and
// each answer), never from its `text`. History entries are worded from their
// `events` (tell, for js/events.js), legal actions from their `fields`
// (actionMove, actionWords): docs/web-views.md, "Karuta: events".
// Uta with answer=poet (KA-U4): a tap on a card opens a choice of six poets
// (and "another card"); the touch, naming the chosen poet, goes out when he is
// chosen.
//
// Between readings: `send` (tap your card then the opponent's side or the Send
// button, or drag it there), `pass`, `place`/`arrange` (tap the card then an
// empty slot, or drag it onto the slot), `ready`, uta `pool` (tap, then the
// button or the pool row). Only moves in state.legal are offered.
//
// The keyboard and a screen reader (issue 32; docs/web-ui.md, "Karuta:
// keyboard and screen reader"): a card is touched or chosen by typing its
// label (cardLabels: a letter and two digits, as in the terminal), the
// field is one Tab stop with the arrow keys inside, every card has a name
// (label, number, lower verse, where, state); describe / announce / soundOf
// for the room, and the reading's start and each judgement said briefly
// through api.announce.
//
// Practice: when a computer holds another seat, the seat's take times
// (judgement.take_ms less judgement.decide_ms, the deciding kana's start)
// are kept in localStorage (`parlour.karuta.takes`) and plotted per card and
// over time (SVG). `practiceStats(root, t)` draws the same charts for the
// shell's practice page.

import { h, svg, clear } from '../js/dom.js';
import { CARDS } from './karuta-cards.js';


const CW = 50; // a card in SVG units
const CH = 72;
// gaps between cards, the line between kyōgi territories, the margin: set
// by spacing() at each drawing, tighter on a narrow window (a phone upright:
// the cards get the width)
let GX = 6;
let GY = 6;
let MID = 18;
let LEFT = 4;
function spacing(narrow) {
  [GX, GY, MID, LEFT] = narrow ? [2, 3, 10, 1] : [6, 6, 18, 4];
}
const NARROW = 600; // px: a window narrower than this is a phone upright (tight spacing)
const ROW_PER = 8; // cards to a line in a hand, the pool, the cards to place
const STORE = 'parlour.karuta.takes';
const SPEAK = 'parlour.karuta.speech';
const KEYS = 'parlour.karuta.keys'; // keyboard mode: the labels shown on the cards
/** A run of kana or kanji (the judgement's Japanese inside a sentence of another language). */
const JA_RUN = /([\u3005\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)/u;
const JA_RUN_ONLY = /^[\u3005\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$/u;

let cssLinked = false;
function linkCss() {
  if (cssLinked || document.querySelector('link[data-karuta]')) return;
  cssLinked = true;
  document.head.append(h('link', { rel: 'stylesheet', href: '/games/karuta.css', dataset: { karuta: '1' } }));
}

/** The torifuda text of poem n (the lower verse, no spaces). */
export function lowerVerse(n) {
  const c = CARDS[n];
  return c ? c[0].join('') : '';
}

/** Parses one legal action → {kind, card, row, slot} (null for none). */
export function parseAction(a) {
  let m = /^(send|pool) (\d+)$/.exec(a);
  if (m) return { kind: m[1], card: Number(m[2]) };
  m = /^(place|arrange) (\d+)@(\d+),(\d+)$/.exec(a);
  if (m) return { kind: m[1], card: Number(m[2]), row: Number(m[3]), slot: Number(m[4]) };
  if (a === 'ready' || a === 'pass' || a === 'none') return { kind: a };
  return null;
}

/** A legal action's move from its `fields` (docs/web-views.md, "Karuta:
 * action fields") → {kind, card, row, slot}; the notation is read only
 * from a server without fields. null for an action the page does not offer
 * (touch, none). */
export function actionMove(e) {
  const f = e && e.fields;
  if (f && typeof f.kind === 'string') {
    if (f.kind === 'send' || f.kind === 'pool') return { kind: f.kind, card: f.card };
    if (f.kind === 'place' || f.kind === 'arrange') return { kind: f.kind, card: f.card, row: f.row, slot: f.slot };
    if (f.kind === 'ready' || f.kind === 'pass' || f.kind === 'none') return { kind: f.kind };
    return null;
  }
  return e ? parseAction(e.action) : null;
}

function secsOf(ms) {
  return (ms / 1000).toFixed(2);
}

/** The judgement of a reading in sentences, from its fields (the view's
 * `judgement` or the `judgement` event, docs/web-views.md): `who(seat)`
 * names a seat. Never reads the judgement's `text`. */
export function judgementLines(j, t, who, variant) {
  // who took it first (what a player looks for), then the card and its
  // deciding sounds, fouls and sends
  const lines = [];
  const c = CARDS[j.card];
  const card = t('karuta.j.card', { n: j.card, verse: c ? c[1] : '', lower: lowerVerse(j.card) });
  const kim = typeof j.kimariji === 'number' && j.kimariji > 0 ? t('karuta.j.kimariji', { n: j.kimariji, kana: j.kimariji_kana || '', s: secsOf(j.decide_ms || 0) }) : null;
  if (j.void) return [t('karuta.j.void'), card].concat(kim ? [kim] : []);
  if (j.taker === null || j.taker === undefined) lines.push(t('karuta.j.nobody'));
  else if (typeof j.decide_ms === 'number') lines.push(t('karuta.j.took', { name: who(j.taker), s: secsOf(Math.max(0, j.take_ms - j.decide_ms)) }));
  else lines.push(t('karuta.j.tookAt', { name: who(j.taker), s: secsOf(j.take_ms) }));
  lines.push(card);
  if (kim) lines.push(kim);
  (j.fouls || []).forEach((f, i) => f > 0 && lines.push(t('karuta.j.foul', { name: who(i), n: f })));
  if (j.sender !== null && j.sender !== undefined && j.receiver !== null && j.receiver !== undefined && j.owed > 0)
    lines.push(t('karuta.j.send', { from: who(j.sender), to: who(j.receiver), n: j.owed }));
  if (j.sent_cards && j.sent_cards.length) lines.push(t('karuta.j.sent', { cards: j.sent_cards.join(', ') }));
  if (variant === 'kyogi' && j.taker !== null && j.taker !== undefined && !(j.fouls || []).some((f) => f) && !(j.owed > 0)) lines.push(t('karuta.j.nosend'));
  return lines;
}

/** The details of a judgement from its fields: the territory kimariji and
 * each seat's answer with its times. */
export function judgementDetails(j, t, who) {
  const lines = [];
  if (j.territory > 0) lines.push(t('karuta.j.territory', { n: j.territory, kana: j.territory_kana || '', s: secsOf(j.territory_ms || 0) }));
  (j.responses || []).forEach((r, i) => {
    if (!r) lines.push(t('karuta.ev.waiting', { who: who(i) }));
    else lines.push(answerWords({ seat: i, touches: r.touches, poet: r.poet }, t, who));
  });
  return lines;
}

function answerWords(ev, t, who) {
  if (!ev.touches || !ev.touches.length) return t('karuta.ev.none', { who: who(ev.seat) });
  const touches = ev.touches.map((x) => t('karuta.ev.at', { card: x.card, s: secsOf(x.ms) })).join(', ');
  return t(ev.poet ? 'karuta.ev.touchPoet' : 'karuta.ev.touch', { who: who(ev.seat), touches, poet: ev.poet || '' });
}

/** Sentences for one history entry, from its `events` (js/events.js; the
 * types of docs/web-views.md, "Karuta: events"), in the page's language. */
export function tell(entry, ctx) {
  const t = ctx.t;
  // a seat by its player's name when the caller knows them (the replay's ctx.names)
  const who = (i) => (i === ctx.seat ? t('karuta.ev.you') : (ctx.names && ctx.names[i]) || t('karuta.seat', { n: i + 1 }));
  const out = [];
  for (const ev of (entry && entry.events) || []) {
    switch (ev.type) {
      case 'read':
        out.push(t(ev.void ? 'karuta.ev.readVoid' : 'karuta.ev.read', { card: ev.card, n: ev.n }));
        break;
      case 'answer':
        out.push(answerWords(ev, t, who));
        break;
      case 'judgement':
        out.push(...judgementLines(ev, t, who, null));
        break;
      case 'send':
        out.push(t(ev.label ? 'karuta.ev.send' : 'karuta.ev.sendWait', { who: who(ev.seat), to: who(ev.to), card: ev.card, label: ev.label || '' }));
        break;
      case 'place':
        out.push(t('karuta.ev.place', { who: who(ev.seat), card: ev.card, label: ev.label || '' }));
        break;
      case 'arrange':
        out.push(t('karuta.ev.arrange', { who: who(ev.seat), card: ev.card, from: ev.from_label || '', label: ev.label || '' }));
        break;
      case 'pass':
        out.push(t('karuta.ev.pass', { who: who(ev.seat), n: ev.forgone }));
        break;
      case 'ready':
        out.push(t('karuta.ev.ready', { who: who(ev.seat) }));
        break;
      case 'pool':
        out.push(t('karuta.ev.pool', { who: who(ev.seat), card: ev.card }));
        break;
      case 'give':
        out.push(t('karuta.ev.give', { who: who(ev.seat), to: who(ev.to), card: ev.card }));
        break;
      case 'discard':
        out.push(t('karuta.ev.discard', { who: who(ev.seat), card: ev.card }));
        break;
      case 'move':
        out.push(t('karuta.ev.move', { card: ev.card, from: t('karuta.zone.' + ev.from), to: t('karuta.zone.' + ev.to) }));
        break;
      case 'end':
        if (ev.winner === null || ev.winner === undefined) out.push(t('karuta.ev.draw'));
        else if (ev.team !== null && ev.team !== undefined) out.push(t('karuta.ev.endTeam', { n: ev.team + 1 }));
        else out.push(t('karuta.ev.end', { who: who(ev.winner) }));
        break;
      default:
        break;
    }
  }
  return out;
}

/** The room's live region says the table's own judgement words (brief,
 * as the judgement comes: mount's briefJudgement) and its reading's start:
 * an entry's reading, answers and judgement are not said again; the rest
 * (sends, places, moves, the pool, the end) as `tell` words them. */
export function announce(entry, ctx) {
  const skip = new Set(['read', 'answer', 'judgement']);
  return tell({ ...entry, events: ((entry && entry.events) || []).filter((e) => !skip.has(e.type)) }, ctx);
}

/** The sound of a history entry: 'capture' when a reading's card was
 * taken, else 'move'. */
export function soundOf(entry) {
  const ev = (entry && entry.events) || [];
  return ev.some((e) => e.type === 'judgement' && !e.void && e.taker !== null && e.taker !== undefined) ? 'capture' : 'move';
}

/** The table in words, for the room's "Describe the table" (ctx {t, seat,
 * name(i), state}): what is going on and what the reader may do, the
 * readings, then each side, hand or the field with every card's label,
 * number and lower verse (kyōgi row by row), the pool, the takes. */
export function describe(view, ctx) {
  const t = ctx.t;
  const v = view || {};
  const me = ctx.seat ?? -1;
  const name = (i) => (ctx.name ? ctx.name(i) : i === me ? t('karuta.ev.you') : t('karuta.seat', { n: i + 1 }));
  const labels = cardLabels(v);
  const cardWords = (n) => (labels.get(n) ? t('karuta.a11y.card', { label: labels.get(n), n, text: lowerVerse(n) }) : t('karuta.a11y.cardBare', { n, text: lowerVerse(n) }));
  const list = (cards) => cards.map(cardWords).join(t('karuta.a11y.listSep'));
  const out = [status(v, { t, seat: me, name: ctx.name, memo: ctx.state && ctx.state.memo })];
  out.push(t('karuta.readings', { n: v.readings || 0, left: (v.unread || []).length }));
  if (v.variant === 'kyogi') {
    const mine = me === 1 ? 1 : 0;
    for (const s of me >= 0 ? [mine, 1 - mine] : [0, 1]) {
      const tr = (v.territories || [])[s] || { cards: [] };
      const n = tr.count ?? tr.cards.length;
      out.push(t(s === me ? 'karuta.a11y.d.own' : 'karuta.a11y.d.side', { name: name(s), n }));
      for (let row = 1; row <= 3; row++) {
        const cards = tr.cards.filter((c) => c.row === row).sort((a, b) => a.slot - b.slot).map((c) => c.card);
        if (cards.length) out.push(t('karuta.a11y.d.row', { row: slotLabel(s, row, 1)[0], list: list(cards) }));
      }
      const waiting = tr.cards.filter((c) => !c.row).map((c) => c.card);
      if (waiting.length) out.push(t('karuta.a11y.d.toPlace', { list: list(waiting) }));
    }
    out.push(t('karuta.dead', { n: (v.dead || []).length }));
  } else if (v.variant === 'uta') {
    (v.hands || []).forEach((hd, i) => {
      const cards = (hd.cards || []).map((c) => c.card).sort((a, b) => a - b);
      out.push(t(i === me ? 'karuta.a11y.d.ownHand' : 'karuta.a11y.d.hand', { name: name(i), n: hd.count ?? cards.length }) + (cards.length ? ' ' + list(cards) : ''));
    });
    const pool = (v.pool || []).slice().sort((a, b) => a - b);
    out.push(t('karuta.a11y.d.pool', { n: pool.length }) + (pool.length ? ' ' + list(pool) : ''));
  } else if (v.variant === 'chirashi') {
    const f = (v.field || []).slice().sort((a, b) => a - b);
    out.push(t('karuta.a11y.d.field', { n: f.length }) + (f.length ? ' ' + list(f) : ''));
    (v.taken || []).forEach((n, i) => out.push(t('karuta.taken', { name: name(i), n })));
    if (v.pot) out.push(t('karuta.pot', { n: v.pot }));
  }
  if (v.stage === 'touch' && me >= 0 && (v.pending || []).includes(me)) out.push(t('karuta.a11y.typeHint'));
  return out.filter((x) => x);
}

/** The table draws `status` itself in its sticky status line (#kar-status):
 * the room's line above it stays empty, not the same words twice. */
export const drawsStatus = true;

/** What is going on, in words, for the room's status line (room.js calls
 * it for karuta instead of its generic words): `view` the seat's view, ctx
 * {t, seat, name(i) (a seat's name; default "Seat N"), memo (the state's
 * `memo`, during the memorisation time, its left_ms counted down by the
 * caller), touched (cards this seat touched in the reading on, 0 default)}. "Memorise the field:
 * 14:59 left", "Reading 12", "Listen, and touch…", "Waiting for Yuki to send
 * a card", "The game is over: Ann won. Cards left: …". */
export function status(view, ctx) {
  const t = ctx.t;
  const me = ctx.seat ?? -1;
  const v = view || {};
  const name = ctx.name || ((i) => (i === me ? t('karuta.ev.you') : t('karuta.seat', { n: i + 1 })));
  const pending = v.pending || [];
  const touched = ctx.touched || 0;
  if (v.phase === 'over' || v.stage === 'over') {
    const o = v.outcome;
    const s = !o || o.kind === 'draw' ? t('karuta.over.draw') : o.kind === 'team' ? t('karuta.over.team', { n: o.winner + 1 }) : t('karuta.over.win', { name: name(o.winner) });
    const left = cardsLeft(v, name);
    return left ? s + ' ' + t('karuta.over.left', { list: left }) : s;
  }
  if (ctx.memo) return t('karuta.memo', { time: clockText(ctx.memo.left_ms) });
  if (v.stage === 'touch') {
    if (me >= 0 && pending.includes(me)) {
      if (v.answer_poet && !touched) return t('karuta.listen.poet');
      return touched ? t('karuta.touched', { n: touched }) : t('karuta.listen', { n: v.readings });
    }
    return t('karuta.reading', { n: v.readings });
  }
  if (v.stage === 'send' && v.send) {
    const left = v.send.owed - v.send.sent;
    return v.send.sender === me ? t('karuta.send.you', { n: left, name: name(v.send.receiver) }) : t('karuta.send.other', { name: name(v.send.sender), n: left });
  }
  if (v.stage === 'place' && v.send) return v.send.receiver === me ? t('karuta.place.you') : t('karuta.place.other', { name: name(v.send.receiver) });
  const waiting = pending.filter((i) => i !== me).map(name).join(', ');
  if (v.stage === 'arrange') return pending.includes(me) ? t('karuta.arrange.you') : t('karuta.arrange.wait', { names: waiting });
  if (v.stage === 'pool') return pending.includes(me) ? t('karuta.pool.you') : t('karuta.pool.wait', { names: waiting });
  return t('karuta.next', { n: (v.readings || 0) + 1 });
}

/** "Ann 0, Bob 3": the cards each seat still has (kyōgi: in its territory,
 * uta: in its hand; fewer is better), or '' for chirashi (cards taken). */
function cardsLeft(v, name) {
  const rows = v.variant === 'uta' ? v.hands : v.variant === 'kyogi' ? v.territories : null;
  if (!rows) return '';
  return rows.map((r, i) => name(i) + ' ' + (r.count ?? (r.cards || []).length)).join(', ');
}

/** m:ss of `ms` (rounded up to the second). */
function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
}

/** A legal action in words, from its fields (js/events.js). */
export function actionWords(a, ctx) {
  const m = actionMove(a);
  if (!m) return a.action;
  const f = a.fields || {};
  if (m.kind === 'place' || m.kind === 'arrange') return ctx.t('karuta.act.' + m.kind, { card: m.card, label: f.label || m.row + ',' + m.slot });
  if (m.kind === 'send' || m.kind === 'pool') return ctx.t('karuta.do.' + m.kind, { card: m.card });
  if (m.kind === 'ready' || m.kind === 'pass') return ctx.t('karuta.do.' + m.kind);
  return a.action;
}

/** The take times kept by this browser: [{id, card, ms (after the deciding kana), take, decide, at}]. */
export function loadTakes() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function saveTake(rec) {
  const all = loadTakes();
  if (all.some((r) => r.id === rec.id)) return false;
  all.push(rec);
  try {
    localStorage.setItem(STORE, JSON.stringify(all.slice(-2000)));
  } catch {}
  return true;
}

/** Sets attribute k of el to v (removes it for null), only when it differs. */
function setAttr(el, k, v) {
  if (v === null || v === undefined) {
    if (el.hasAttribute(k)) el.removeAttribute(k);
  } else if (el.getAttribute(k) !== String(v)) el.setAttribute(k, String(v));
}

/** One card: a torifuda <g> at (x, y), upside down when `flip`, with its
 * focus ring (its label tag is drawn over it: labelTag). */
function torifuda(n, x, y, flip, attrs) {
  const cols = (CARDS[n] && CARDS[n][0]) || ['', '', ''];
  const kids = [svg('rect', { class: 'kar-ring', x: -3, y: -3, width: CW + 6, height: CH + 6, rx: 5, 'aria-hidden': 'true' }),
    svg('rect', { class: 'kar-face', x: 0, y: 0, width: CW, height: CH, rx: 3 })];
  cols.forEach((col, c) => {
    const cx = CW - 9 - c * 16;
    const chars = [...col];
    kids.push(
      svg('text', { class: 'kar-kana cjk-serif', 'text-anchor': 'middle', 'aria-hidden': 'true' },
        chars.map((ch) => svg('tspan', { x: cx }, ch))),
    );
  });
  const g = svg('g', { class: 'kar-card', transform: '', tabindex: -1, role: 'button', dataset: { card: n }, ...attrs }, ...kids);
  kanaLayout(g, 0);
  g.setAttribute('transform', flip ? `translate(${x + CW} ${y + CH}) rotate(180)` : `translate(${x} ${y})`);
  return g;
}

const TAG = 12; // the label tag's height, in SVG units

/** A card's label tag at (x, y), the card's place: a strip at its foot as
 * the player sees it. Drawn over the cards, outside their <g> (a button's
 * visible text is its kana, which its name holds: axe's
 * label-content-name-mismatch). */
function labelTag(label, x, y) {
  return svg('g', { class: 'kar-tag', 'aria-hidden': 'true' },
    svg('rect', { class: 'kar-tag-bg', x: x + 1.5, y: y + CH - TAG - 1.5, width: CW - 3, height: TAG, rx: 2 }),
    svg('text', { class: 'kar-tag-text', x: x + CW / 2, y: y + CH - 4.6, 'text-anchor': 'middle', 'font-size': 9.5 }, label));
}

/** Lays the kana of card <g> out in its height less `strip` units (the
 * label tag: 1 at the foot, -1 at the head of an upside-down card, 0
 * none): as large as the longest column allows (6 kana at most: 9.6 units;
 * 4: 14), at most 14 units (the columns are 16 apart). */
function kanaLayout(g, strip) {
  if (g.kanaStrip === strip) return;
  g.kanaStrip = strip;
  const texts = [...g.querySelectorAll('.kar-kana')];
  const most = Math.max(...texts.map((e) => e.children.length), 1);
  const room = CH - (strip ? TAG + 1 : 0);
  const top = strip < 0 ? TAG + 1 : 0;
  const fs = Math.min(14, (room - 8 - (most - 1) * 1.3) / most);
  for (const e of texts) {
    e.setAttribute('font-size', fs.toFixed(2));
    [...e.children].forEach((ts, i) => ts.setAttribute('y', (top + 6 + fs * (i + 1) + i * 1.3).toFixed(2)));
  }
}

/** The label a player types to touch or choose each card, as in the
 * terminal (src/cli/karuta.c, docs/notation-karuta.md): kyōgi the view's
 * slot label (A01–C17 seat 1's rows 1–3, D01–F17 seat 2's); uta-karuta a
 * hand's letter (A–D, seats 1–4) or P (the pool) and the card's place in it
 * in poem order (A01 …); chirashi A01–E20 over the field in poem order
 * (so uta's and chirashi's change only when cards leave, between readings).
 * → Map card → label. */
export function cardLabels(v) {
  const out = new Map();
  if (!v) return out;
  const two = (k) => String(k).padStart(2, '0');
  const sorted = (a) => a.slice().sort((x, y) => x - y);
  if (v.variant === 'uta') {
    (v.hands || []).forEach((hd, i) => sorted((hd.cards || []).map((c) => c.card)).forEach((c, k) => out.set(c, String.fromCharCode(65 + i) + two(k + 1))));
    sorted(v.pool || []).forEach((c, k) => out.set(c, 'P' + two(k + 1)));
  } else if (v.variant === 'chirashi') {
    sorted(v.field || []).forEach((c, k) => out.set(c, String.fromCharCode(65 + Math.floor(k / 20)) + two((k % 20) + 1)));
  } else for (const tr of v.territories || []) for (const c of tr.cards || []) if (c.row && c.label) out.set(c.card, c.label);
  return out;
}

/** The label of seat `seat`'s empty kyōgi slot (row 1–3, slot 1–17): A05. */
export function slotLabel(seat, row, slot) {
  return String.fromCharCode(65 + (seat ? 3 : 0) + row - 1) + String(slot).padStart(2, '0');
}

export function mount(root, api) {
  linkCss();
  const t = api.t;
  const me = api.seat;
  let state = null;
  let sel = null; // the selected card (send, place, arrange, pool)
  let drag = null; // {card, x, y, moved, el}
  let reading = { n: 0, kana: [], t0: 0 };
  let touched = new Set(); // cards touched in this reading
  let touchN = -1; // the reading those touches belong to
  let lastJudgement = '';
  let fieldKey = '';
  let poetAsk = null; // uta answer=poet: {card, n (the reading), choices} while the poet is asked
  let poetsKey = '';
  let poetArmed = false; // a press began on the poets' panel since it opened
  let myAnswer = null; // uta answer=poet: {n, card, poet} of this seat's last answer
  const gcache = new Map(); // card → its <g>, built once and moved between redraws
  let fieldOut = null; // the field being built by drawField (morphed into els.field)
  let tags = []; // the label tags of the cards placed since the last takeTags()
  /** The label tags gathered, for the end of an SVG's children (over the cards). */
  function takeTags() {
    const out = tags;
    tags = [];
    return out;
  }

  /** Places card n for the next redraw of the field: its cached element (its
   * 15-odd kana are built once) gets the position and labels asked for,
   * each attribute written only when it differs (an unchanged card costs the
   * browser no style or layout work); returns a placeholder that morph()
   * swaps for the element, so a card that stays in place is never taken out
   * of the page. */
  function cardEl(n, x, y, flip, attrs) {
    let g = gcache.get(n);
    if (!g) {
      g = torifuda(n, 0, 0, false, {});
      gcache.set(n, g);
    }
    const ds = attrs.dataset || {};
    setAttr(g, 'transform', flip ? `translate(${x + CW} ${y + CH}) rotate(180)` : `translate(${x} ${y})`);
    setAttr(g, 'class', attrs.class || 'kar-card');
    setAttr(g, 'aria-label', attrs['aria-label'] || '');
    setAttr(g, 'aria-pressed', attrs['aria-pressed'] || null);
    setAttr(g, 'aria-disabled', attrs['aria-disabled'] || null);
    // keyboard mode: the label tag over the card's foot (the kana make room for it)
    kanaLayout(g, keys && attrs.tag ? (flip ? -1 : 1) : 0);
    if (keys && attrs.tag) tags.push(labelTag(attrs.tag, x, y));
    setAttr(g, 'data-base', null);
    setAttr(g, 'data-card', String(n));
    setAttr(g, 'data-label', ds.label ?? null);
    setAttr(g, 'data-seat', ds.seat ?? null);
    return svg('g', { dataset: { ph: n } });
  }

  /** Makes the live subtree `old` look like the freshly built `neu` (same
   * tag): attributes copied where they differ, children matched by a key
   * (a card by its number, others by tag, class and slot, in order), the
   * matched ones morphed in place, the rest added or removed. So a redraw
   * that changes a class or a label touches only that attribute, and the
   * browser keeps the laid-out text of every card (a whole field rebuilt
   * anew is a 30 ms layout at the start of a reading). Work: linear in the
   * number of elements. */
  function morph(old, neu, root) {
    if (!root) {
      for (const a of [...old.attributes]) if (!neu.hasAttribute(a.name) && a.name !== 'style') old.removeAttribute(a.name); // (style: fit's)
      for (const a of neu.attributes) setAttr(old, a.name, a.value);
    }
    const keyOf = (el) => {
      if (el.nodeType !== 1) return '#' + el.nodeType;
      if (el.dataset.ph) return 'card' + el.dataset.ph;
      if (el.classList.contains('kar-card') && gcache.get(Number(el.dataset.card)) === el) return 'card' + el.dataset.card;
      return el.tagName + '|' + (el.getAttribute('class') || '').split(' ')[0] + '|' + (el.dataset.slot || '') + '|' + (el.dataset.zone || '');
    };
    const pool = new Map();
    for (const c of old.childNodes) {
      const k = keyOf(c);
      (pool.get(k) || pool.set(k, []).get(k)).push(c);
    }
    const nodes = [...neu.childNodes].map((c) => {
      const k = keyOf(c);
      const o = (pool.get(k) || []).shift();
      if (c.nodeType === 1 && c.dataset.ph) return gcache.get(Number(c.dataset.ph));
      if (!o) {
        // a new element: its cards' placeholders become the cards
        if (c.nodeType === 1) for (const ph of c.querySelectorAll('[data-ph]')) ph.replaceWith(gcache.get(Number(ph.dataset.ph)));
        return c;
      }
      if (c.nodeType === 1) morph(o, c);
      else if (o.nodeValue !== c.nodeValue) o.nodeValue = c.nodeValue;
      return o;
    });
    const kept = new Set(nodes);
    for (const list of pool.values()) for (const o of list) if (!kept.has(o)) o.remove();
    nodes.forEach((n, i) => {
      if (old.childNodes[i] !== n) old.insertBefore(n, old.childNodes[i] || null);
    });
  }

  let memo = null; // the state's `memo` (memorisation), and when it came
  let memoAt = 0;
  let memoKey = '';
  let memoAsked = false; // this page sent `ready`
  let memoTimer = null;
  const seenTakes = new Set();
  let labels = new Map(); // card → the label a player types (cardLabels of the view)
  let lastLabels = new Map(); // the labels of the view before (a taken card's, for the judgement's words)
  let rove = null; // the field item holding its Tab stop (itemKey)
  let keys = false; // keyboard mode (setKeys)
  try {
    keys = localStorage.getItem(KEYS) === 'on';
  } catch {}
  let drawnOnce = false; // a judgement there when the page opens is not announced
  let actionsKey = '';
  let judgedN = -1; // the reading of the judgement shown
  /** Says `text` in the room's live region (the screen reader), if any. */
  const say1 = (text) => text && api.announce && api.announce(text);
  window.__karuta = { frames: [], kanaAt: [] }; // for the browser test: kana arrival times

  const els = {
    status: h('p', { class: 'kar-status', id: 'kar-status', 'aria-live': 'polite' }),
    counts: h('p', { class: 'kar-counts', id: 'kar-counts' }),
    memo: h('div', { class: 'kar-memo', id: 'kar-memo', hidden: true }),
    memoAct: h('div', { class: 'kar-memo-act' }),
    poets: h('div', { class: 'kar-poets', id: 'kar-poets', role: 'group', 'aria-labelledby': 'kar-poets-q', hidden: true }),
    readHead: h('span', { class: 'kar-read-head' }),
    typed: h('span', { class: 'kar-typed', id: 'kar-typed', hidden: true }),
    kana: h('p', { class: 'kar-kana-line cjk-serif', id: 'kar-kana', lang: 'ja' }), // (a paragraph of its own for a screen reader: the kana, in Japanese)
    speak: h('button', { type: 'button', id: 'kar-speak', class: 'kar-speak', 'aria-pressed': 'false', onclick: () => toggleSpeech() }),
    field: h('div', { class: 'kar-field', id: 'kar-field' }),
    actions: h('div', { class: 'kar-actions', id: 'kar-actions', role: 'group', 'aria-label': t('karuta.actions') }),
    judgement: h('div', { class: 'kar-judgement', id: 'kar-judgement', 'aria-live': 'polite' }),
    practice: h('details', { class: 'kar-practice', id: 'kar-practice' }),
  };
  els.memo.append(els.memoAct);
  els.turnNote = h('p', { class: 'kar-turn-note', id: 'kar-turn-note' }, t('karuta.landscape'));
  els.top = h('div', { class: 'kar-top', id: 'kar-top' },
    els.status,
    h('div', { class: 'kar-reading', id: 'kar-reading', role: 'group', 'aria-label': t('karuta.a11y.readingBar') }, els.readHead, els.kana, els.typed, els.speak));
  els.aside = h('div', { class: 'kar-aside' }, els.actions, els.judgement);
  els.main = h('div', { class: 'kar-main' }, els.field, els.aside);
  els.table = h('div', { class: 'kar-table' + (keys ? ' kar-keys' : '') }, els.top, els.memo, els.poets, els.main, els.turnNote, els.counts, els.practice);
  root.append(els.table);

  // ---- the table fits the window (issue 31; docs/web-ui.md, "Karuta"):
  // the cards drawn as large as the window allows with the status, the
  // reading bar, the actions and the judgement in view.
  // - A tall window (a desktop, a phone upright): the whole table from the
  //   top of the page; the status and the reading bar stick to the window's
  //   top when the page scrolls. On a wide one (a desktop) the actions and
  //   the judgement stand beside the field, which is then as high as the
  //   window allows.
  // - A short one (a phone on its side, SIDE): the field on the left, as
  //   high as the window, and beside it the status, the reading bar, the
  //   countdown, the actions and the judgement; the page scrolls to the
  //   table once.
  // The field's SVG gets the height left (max-height; the width follows),
  // never so little that a card is under MIN_CARD px; the room for the judgement
  // is kept under the field even before one comes, so the cards do not move.
  const SIDE = '(orientation: landscape) and (max-height: 519px)';
  const MIN_CARD = 28;
  const side = window.matchMedia ? window.matchMedia(SIDE) : { matches: false };
  let scrolledTo = false;
  function arrange() {
    const want = side.matches ? els.aside : els.table;
    if (els.top.parentNode === want) return;
    if (side.matches) els.aside.prepend(els.top, els.memo, els.poets);
    else els.table.insertBefore(els.top, els.main), els.table.insertBefore(els.memo, els.main), els.table.insertBefore(els.poets, els.main);
  }
  function fit() {
    arrange();
    // (kyōgi's field and chirashi's: one SVG; uta's hands and pool are rows
    // of cards as large as the width allows, not shrunk)
    const svgs = [...els.field.querySelectorAll('svg.kar-kyogi, svg.kar-grid')];
    if (!svgs.length) return;
    const vh = window.innerHeight;
    if (side.matches && !scrolledTo && state && state.status !== 'waiting') {
      scrolledTo = true;
      els.table.scrollIntoView({ block: 'start' });
    }
    const fieldTop = els.field.getBoundingClientRect().top + window.scrollY;
    const tableTop = els.table.getBoundingClientRect().top + window.scrollY;
    const jmax = parseFloat(getComputedStyle(els.judgement).maxHeight) || 128;
    // the actions and the judgement stand beside the field (a phone on its
    // side, a wide window: karuta.css) or under it
    const beside = getComputedStyle(els.main).gridTemplateColumns.trim().split(/\s+/).length > 1;
    const under = beside ? 0 : els.actions.offsetHeight + (memo ? 0 : jmax + 4);
    let labels = 0;
    for (const p of els.field.querySelectorAll('.kar-side')) labels += p.offsetHeight + 3;
    const used = (side.matches ? fieldTop - tableTop : fieldTop) + labels + under + 10;
    const avail = Math.max(120, vh - used);
    const units = svgs.map((e) => e.viewBox.baseVal.height / e.viewBox.baseVal.width);
    const width = svgs[0].getBoundingClientRect().width || els.field.clientWidth; // (the SVG's box keeps its width)
    const natural = units.reduce((a, u) => a + u * width, 0);
    // never smaller than a card of MIN_CARD px (or its size at full width):
    // below that kana cannot be read nor a card hit; the page scrolls instead
    const cardPx = Math.min(...svgs.map((e) => (width * CW) / e.viewBox.baseVal.width));
    const floor = Math.min(1, MIN_CARD / cardPx);
    const k = natural > avail ? Math.max(floor, avail / natural) : 1;
    // (through the CSSOM: the page's CSP refuses style attributes)
    svgs.forEach((e, i) => {
      const mh = k < 1 ? Math.floor(units[i] * width * k) + 'px' : '';
      if (e.style.maxHeight !== mh) e.style.maxHeight = mh;
    });
    window.__karuta.fit = { avail, k, side: side.matches, beside };
  }
  // tight spacing where the field is short of room: a phone upright (width)
  // or on its side (height)
  function tight() {
    return window.innerWidth < NARROW || side.matches;
  }
  let tightNow = tight();
  const onResize = () => {
    if (tight() !== tightNow) {
      tightNow = !tightNow;
      fieldKey = ''; // the spacing changes: draw the field again
      if (state) draw();
    } else fit();
  };
  window.addEventListener('resize', onResize);
  // and when the table's own size changes (its style sheet or fonts came,
  // the countdown went): fit sets the same height again and stops there
  const sizeWatch = typeof ResizeObserver === 'function' ? new ResizeObserver(() => fit()) : null;
  if (sizeWatch) sizeWatch.observe(els.table);

  // ---- speech ----
  let speech = false;
  try {
    speech = localStorage.getItem(SPEAK) === 'on';
  } catch {}
  // the Japanese voice, looked up once and again when the list changes (not per kana)
  let voice;
  function jaVoice() {
    if (voice === undefined) voice = 'speechSynthesis' in window ? speechSynthesis.getVoices().find((v) => /^ja\b|^ja-/i.test(v.lang)) || null : null;
    return voice;
  }
  function voicesChanged() {
    voice = undefined;
    drawSpeak();
  }
  function drawSpeak() {
    const v = jaVoice();
    els.speak.disabled = !v;
    els.speak.hidden = !v; // no Japanese voice: nothing to switch (a line less on a phone)
    els.speak.setAttribute('aria-pressed', String(!!(v && speech)));
    els.speak.textContent = !v ? t('karuta.speech.none') : speech ? t('karuta.speech.on') : t('karuta.speech.off');
  }
  function toggleSpeech() {
    speech = !speech;
    try {
      localStorage.setItem(SPEAK, speech ? 'on' : 'off');
    } catch {}
    if (!speech && 'speechSynthesis' in window) speechSynthesis.cancel();
    drawSpeak();
  }
  if ('speechSynthesis' in window) speechSynthesis.addEventListener?.('voiceschanged', voicesChanged);
  drawSpeak();
  function say(kana) {
    const v = jaVoice();
    if (!speech || !v) return;
    const u = new SpeechSynthesisUtterance(kana.replace(/[ーｰ]/g, ''));
    if (!u.text) return;
    u.voice = v;
    u.lang = v.lang;
    u.rate = 1.3;
    speechSynthesis.speak(u);
  }

  // ---- names and words ----
  function name(i) {
    const s = state && state.seats && state.seats[i];
    // a computer in the page's words (the server names it in English)
    const level = s && s.level && ['easy', 'medium', 'hard', 'champion'].includes(s.level) ? t('level.' + s.level) : s && s.level;
    // (numbered, as the room's seats list says it: several computers play uta)
    const n = s && s.kind === 'ai' ? t('room.seat.aiN', { n: i + 1, level: level || '' }) : s && s.name ? s.name : t('karuta.seat', { n: i + 1 });
    return i === me ? t('karuta.you', { name: n }) : n;
  }
  function secs(ms) {
    return (ms / 1000).toFixed(2);
  }

  // ---- what the seat may do now ----
  function legalMoves() {
    const out = [];
    for (const e of (state && state.legal) || []) {
      const p = actionMove(e);
      if (p) out.push({ ...p, action: e.action });
    }
    return out;
  }
  function canTouch() {
    const v = state && state.view;
    if (!v || me < 0 || v.stage !== 'touch') return false;
    if (!(v.pending || []).includes(me)) return false;
    const max = v.variant === 'uta' ? 1 : 3;
    return touched.size < max;
  }
  function cardMoves(card) {
    return legalMoves().filter((m) => m.card === card);
  }

  function act(text) {
    sel = null;
    api.act(text);
    draw();
  }

  // ---- pointer handling (one listener on the field) ----
  function cardOf(el) {
    const g = el && el.closest ? el.closest('.kar-card') : null;
    return g ? Number(g.dataset.card) : null;
  }
  function targetOf(el) {
    return el && el.closest ? el.closest('[data-target]') : null;
  }
  /** Touches `card` (at `at`, a performance.now() time: the key press or
   * the pointer's; default now). */
  function touchCard(card, at) {
    const v = state.view;
    if (touchN !== v.readings) {
      touchN = v.readings;
      touched = new Set();
    }
    if (touched.has(card)) return;
    if (v.answer_poet) return askPoet(card);
    touched.add(card);
    api.touch(card, performance.timeOrigin + (at ?? performance.now()));
    const g = els.field.querySelector(`.kar-card[data-card="${card}"]`);
    if (g) g.classList.add('kar-touched');
    // (the name says "touched" too: drawn again with the next state)
    say1(t('karuta.a11y.youTouched', { label: labels.get(card) || '', n: card }));
    drawStatus();
  }
  // ---- uta answer=poet (KA-U4): the card, then its poet ----
  // A tap on a card opens a choice of six poets (the card's own and five of
  // the other cards in play, in random order); the touch goes out when a poet
  // is chosen, timed then (naming the poet is part of the answer), naming the
  // chosen poet by one of his poems. Another card may be chosen until then.
  function poetChoices(card) {
    const own = CARDS[card] && CARDS[card][2];
    const v = state.view;
    const inPlay = (v.hands || []).flatMap((hd) => hd.cards.map((c) => c.card)).concat(v.pool || []);
    const all = Array.from({ length: 100 }, (_, i) => i + 1);
    const shuffle = (a) => {
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    };
    const names = new Map([[own, card]]);
    for (const n of shuffle(inPlay).concat(shuffle(all))) {
      if (names.size >= 6) break;
      const p = CARDS[n] && CARDS[n][2];
      if (p && !names.has(p)) names.set(p, n);
    }
    return shuffle([...names].map(([name, poem]) => ({ name, poem, kana: CARDS[poem][3] })));
  }
  function askPoet(card) {
    poetAsk = { card, n: state.view.readings, choices: poetChoices(card) };
    poetArmed = false;
    draw();
    const b = els.poets.querySelector('.kar-poet');
    if (b) b.focus({ preventScroll: true });
  }
  function namePoet(choice, ev) {
    // a click whose press was not on the panel is the tail of the tap on the
    // card that opened it (the panel moved under the finger): not an answer;
    // a click from the keyboard (detail 0) is
    if (ev && ev.detail !== 0 && !poetArmed) return;
    const a = poetAsk;
    if (!a || !canTouch() || a.n !== state.view.readings) return;
    poetAsk = null;
    touched.add(a.card);
    myAnswer = { n: a.n, card: a.card, poet: choice.name };
    api.touch(a.card, performance.timeOrigin + performance.now(), choice.poem);
    draw();
  }
  function drawPoets() {
    const key = poetAsk ? poetAsk.n + ':' + poetAsk.card : '';
    if (key === poetsKey) return;
    poetsKey = key;
    clear(els.poets);
    els.poets.hidden = !poetAsk;
    if (!poetAsk) return;
    els.poets.append(
      h('p', { class: 'kar-poets-q', id: 'kar-poets-q' }, t('karuta.poet.ask', { card: poetAsk.card })),
      h('div', { class: 'kar-poets-list' },
        poetAsk.choices.map((c) => h('button', { type: 'button', class: 'kar-poet', lang: 'ja', dataset: { poem: c.poem }, onclick: (ev) => namePoet(c, ev) },
          h('span', { class: 'kar-poet-name cjk-serif' }, c.name), h('span', { class: 'kar-poet-kana' }, c.kana)))),
      h('button', { type: 'button', class: 'kar-act', id: 'kar-poet-cancel', onclick: (ev) => {
        if (ev.detail !== 0 && !poetArmed) return; // the tail of the tap that opened the panel
        poetAsk = null;
        draw();
      } }, t('karuta.poet.cancel')),
    );
  }

  function playTarget(tg, card) {
    const moves = cardMoves(card);
    const kind = tg.dataset.target;
    if (kind === 'slot') {
      const [r, s] = tg.dataset.slot.split(',').map(Number);
      const m = moves.find((x) => (x.kind === 'place' || x.kind === 'arrange') && x.row === r && x.slot === s);
      if (m) return act(m.action), true;
    } else {
      const m = moves.find((x) => x.kind === kind);
      if (m) return act(m.action), true;
    }
    return false;
  }
  function select(card) {
    sel = sel === card ? null : card;
    draw();
  }
  function onDown(e) {
    if (!state) return;
    const card = cardOf(e.target);
    if (card !== null && canTouch()) {
      e.preventDefault();
      touchCard(card);
      return;
    }
    if (card !== null && cardMoves(card).length) {
      drag = { card, x: e.clientX, y: e.clientY, moved: false, id: e.pointerId };
      return;
    }
    // a card of the other side while sending: the other side is the target
    const g = card !== null ? e.target.closest('.kar-card') : null;
    if (g && sel !== null && g.dataset.seat !== undefined && Number(g.dataset.seat) !== me && cardMoves(sel).some((m) => m.kind === 'send')) {
      e.preventDefault();
      playTarget({ dataset: { target: 'send' } }, sel);
      return;
    }
    const tg = targetOf(e.target);
    if (tg && sel !== null) {
      e.preventDefault();
      playTarget(tg, sel);
    }
  }
  function onMove(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) > 8) {
      drag.moved = true;
      sel = drag.card;
      draw();
    }
    if (drag.moved) {
      // follow the pointer, in the SVG's units
      const g = els.field.querySelector(`.kar-card[data-card="${drag.card}"]`);
      const box = g && g.ownerSVGElement;
      if (!g || !box) return;
      if (!g.dataset.base) g.dataset.base = g.getAttribute('transform') || '';
      const k = box.viewBox.baseVal.width / (box.getBoundingClientRect().width || 1);
      g.setAttribute('transform', `translate(${(dx * k).toFixed(1)} ${(dy * k).toFixed(1)}) ${g.dataset.base}`);
      g.classList.add('kar-dragging');
    }
  }
  function onUp(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moved) return select(d.card);
    const under = document.elementsFromPoint(e.clientX, e.clientY).map(targetOf).find((x) => x);
    if (!(under && playTarget(under, d.card))) {
      fieldKey = ''; // put the dragged card back
      draw();
    }
  }
  // ---- the keyboard (issue 32) ----
  // The field is one Tab stop (a roving tabindex over its cards and the
  // targets of a chosen card): the arrow keys move between them as they lie
  // on the screen, Home and End to the first and the last; Enter or Space
  // touches the card in a reading, else chooses it (then its target: the
  // opponent's side, an empty slot, the pool; or the action button, which
  // takes the focus), Escape lets it go. Anywhere on the page but in a text
  // field, typing a card's label (a letter and two digits, as in the
  // terminal) touches it in a reading, the time of the touch being the last
  // key's; between readings it chooses the card, or plays the chosen card
  // to the empty slot of that label. Escape or Backspace clears a half-typed
  // label. In keyboard mode (a key pressed; a pointer ends it) every card
  // shows its label on a strip at its foot.
  function fieldItems() {
    return [...els.field.querySelectorAll('.kar-card, [data-target]')];
  }
  function itemKey(el) {
    return el.classList.contains('kar-card') ? 'c' + el.dataset.card : 't' + (el.dataset.slot || el.dataset.target);
  }
  /** Gives the field's one Tab stop to the item `rove` names, else to the
   * first that can be played, else the first. */
  function roving() {
    const items = fieldItems();
    const stop = items.find((el) => itemKey(el) === rove) || items.find((el) => el.dataset.target || el.classList.contains('kar-can') || el.classList.contains('kar-sel')) || items[0];
    for (const el of items) setAttr(el, 'tabindex', el === stop ? '0' : '-1');
    return stop;
  }
  function focusItem(el) {
    if (!el) return;
    rove = itemKey(el);
    roving();
    el.focus({ preventScroll: false });
  }
  /** The item nearest `from` in the direction of arrow key `key` (those in
   * the same row or column first), or null. */
  function nextItem(from, key) {
    const box = (el) => el.getBoundingClientRect();
    const a = box(from);
    const across = key === 'ArrowLeft' || key === 'ArrowRight';
    let best = null;
    let bestD = Infinity;
    for (const el of fieldItems()) {
      if (el === from) continue;
      const b = box(el);
      const dx = b.left + b.width / 2 - (a.left + a.width / 2);
      const dy = b.top + b.height / 2 - (a.top + a.height / 2);
      const along = key === 'ArrowRight' ? dx : key === 'ArrowLeft' ? -dx : key === 'ArrowDown' ? dy : -dy;
      if (along < 2) continue;
      const overlap = across ? Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) : Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const d = (overlap > 0 ? 0 : 1e6) + along + 3 * Math.abs(across ? dy : dx);
      if (d < bestD) (bestD = d), (best = el);
    }
    return best;
  }
  /** After a card was chosen from the keyboard: the focus to where it goes
   * next (the Send / pool button, the first empty slot), else the card. */
  function focusAfterChoice(card) {
    if (sel !== card) return;
    const main = els.actions.querySelector('.kar-main');
    if (main) return main.focus();
    const slot = els.field.querySelector('[data-target="slot"], [data-target="send"], [data-target="pool"]');
    if (slot) return focusItem(slot);
    const g = els.field.querySelector(`.kar-card[data-card="${card}"]`);
    if (g) focusItem(g);
  }
  function onKey(e) {
    if (!state) return;
    const el = e.target.closest ? e.target.closest('.kar-card, [data-target]') : null;
    if (!el) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'ArrowUp' || e.key === 'ArrowDown' || e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      setKeys(true);
      const items = fieldItems();
      focusItem(e.key === 'Home' ? items[0] : e.key === 'End' ? items[items.length - 1] : nextItem(el, e.key));
      return;
    }
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const card = cardOf(el);
    const tg = targetOf(el);
    e.preventDefault();
    if (card !== null) {
      if (canTouch()) touchCard(card, e.timeStamp);
      else if (cardMoves(card).length) {
        select(card);
        focusAfterChoice(card);
      } else if (sel !== null && Number(el.dataset.seat) !== me && cardMoves(sel).some((m) => m.kind === 'send')) playTarget({ dataset: { target: 'send' } }, sel);
    } else if (tg && sel !== null) playTarget(tg, sel);
  }

  let typed = ''; // a label half typed
  let typedNote = ''; // why the last label was refused (shown until the next key)
  /** A refused label: said, and shown in the reading bar. */
  function refuse(text) {
    typedNote = text;
    showTyped();
    say1(text);
  }
  /** Keyboard mode on or off: the labels shown on the cards. */
  function setKeys(on) {
    if (keys === on) return;
    keys = on;
    try {
      localStorage.setItem(KEYS, on ? 'on' : 'off');
    } catch {}
    els.table.classList.toggle('kar-keys', on);
    fieldKey = '';
    if (state) draw();
  }
  function showTyped() {
    // keyboard mode in a reading: how to touch, until a label is begun
    const text = typed ? t('karuta.a11y.typing', { label: typed }) : typedNote || (keys && canTouch() && !poetAsk ? t('karuta.a11y.typeHint') : '');
    els.typed.hidden = !text;
    if (els.typed.textContent !== text) els.typed.textContent = text;
  }
  function labelLetters() {
    const v = state && state.view;
    if (!v) return '';
    return v.variant === 'uta' ? 'ABCDP' : v.variant === 'chirashi' ? 'ABCDE' : 'ABCDEF';
  }
  /** A label typed whole: touch, choose or play there. */
  function useLabel(label, at) {
    const v = state.view;
    let card = null;
    for (const [c, l] of labels) if (l === label) card = c;
    if (v.stage === 'touch') {
      if (me < 0 || !(v.pending || []).includes(me)) return refuse(t('karuta.a11y.notNow'));
      if (card === null) return refuse(t('karuta.a11y.noCard', { label }));
      if (touched.has(card) && touchN === v.readings) return refuse(t('karuta.a11y.already', { label }));
      if (!canTouch()) return refuse(t('karuta.a11y.noMore'));
      return touchCard(card, at);
    }
    // an empty slot: the chosen card goes there (or the only card to place)
    const slot = els.field.querySelector(`[data-target="slot"][data-label="${label}"]`);
    const placing = legalMoves().filter((m) => m.kind === 'place');
    if (card === null && sel === null && new Set(placing.map((m) => m.card)).size === 1) {
      const m = placing.find((x) => x.row && slotLabel(me === 1 ? 1 : 0, x.row, x.slot) === label);
      if (m) return act(m.action);
    }
    if (slot && sel !== null) return playTarget(slot, sel);
    if (card !== null && cardMoves(card).length) {
      if (sel !== card) select(card);
      return focusAfterChoice(card);
    }
    if (card !== null) return refuse(t('karuta.a11y.cannot', { label }));
    refuse(t('karuta.a11y.noCard', { label }));
  }
  function onType(e) {
    if (!state || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const tgt = e.target;
    if (tgt && tgt.closest && tgt.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return;
    const k = e.key;
    if (typedNote) {
      typedNote = '';
      showTyped();
    }
    if (k === 'Tab') return setKeys(true);
    if (k === 'Escape') {
      if (!typed && sel === null && !poetAsk) return;
      e.preventDefault();
      const back = sel;
      typed = '';
      showTyped();
      if (poetAsk) {
        const c = poetAsk.card;
        poetAsk = null;
        draw();
        const g = els.field.querySelector(`.kar-card[data-card="${c}"]`);
        if (g) focusItem(g);
      } else if (back !== null) {
        sel = null;
        draw();
        const g = els.field.querySelector(`.kar-card[data-card="${back}"]`);
        if (g) focusItem(g);
      }
      return;
    }
    if (k === 'Backspace' && typed) {
      e.preventDefault();
      typed = '';
      return showTyped();
    }
    if (me < 0) return;
    if (/^[a-z]$/i.test(k) && labelLetters().includes(k.toUpperCase())) {
      e.preventDefault();
      setKeys(true);
      typed = k.toUpperCase();
      return showTyped();
    }
    if (/^[0-9]$/.test(k) && typed) {
      e.preventDefault();
      typed += k;
      if (typed.length === 3) {
        const label = typed;
        typed = '';
        showTyped();
        return useLabel(label, e.timeStamp);
      }
      showTyped();
    }
  }
  els.field.addEventListener('pointerdown', onDown);
  els.poets.addEventListener('pointerdown', () => (poetArmed = true));
  window.addEventListener('pointermove', onMove);
  window.addEventListener('pointerup', onUp);
  els.field.addEventListener('keydown', onKey);
  els.field.addEventListener('focusin', (e) => {
    const el = e.target.closest && e.target.closest('.kar-card, [data-target]');
    if (el) rove = itemKey(el);
  });
  document.addEventListener('keydown', onType);
  els.table.addEventListener('pointerdown', () => setKeys(false), true);

  // ---- drawing ----
  function slotTargets() {
    // the empty slots the selected card may go to: "row,slot"
    const set = new Set();
    if (sel === null) return set;
    for (const m of cardMoves(sel)) if (m.row) set.add(m.row + ',' + m.slot);
    return set;
  }
  /** A card's classes, its name for a screen reader (its label, number and
   * lower verse, where it lies, touched, the card read) and its states:
   * `place` {seat} (a kyōgi territory, an uta hand), {pool: true}, or {}
   * (chirashi's field, a card to place). */
  function cardAttrs(n, place) {
    const v = state.view;
    const cls = ['kar-card'];
    const isTouched = touched.has(n) && touchN === v.readings;
    if (isTouched) cls.push('kar-touched');
    const chosen = sel === n || (poetAsk && poetAsk.card === n);
    if (chosen) cls.push('kar-sel');
    const can = cardMoves(n).length > 0;
    if (can) cls.push('kar-can');
    const j = v.judgement;
    const read = j && v.stage !== 'touch' && j.card === n;
    if (read) cls.push('kar-read');
    const label = labels.get(n) || '';
    const parts = [label ? t('karuta.a11y.card', { label, n, text: lowerVerse(n) }) : t('karuta.a11y.cardBare', { n, text: lowerVerse(n) })];
    if (place.pool) parts.push(t('karuta.a11y.inPool'));
    else if (place.seat !== undefined)
      parts.push(v.variant === 'uta' ? t('karuta.a11y.inHand', { name: name(place.seat) })
        : place.seat === me ? t('karuta.a11y.ownSide') : t('karuta.a11y.oppSide', { name: name(place.seat) }));
    if (isTouched) parts.push(t('karuta.a11y.touched'));
    if (read) parts.push(t('karuta.a11y.read'));
    const touching = canTouch();
    return {
      class: cls.join(' '),
      'aria-label': parts.join(t('karuta.a11y.sep')),
      // a card that may be chosen (to send, place, move, pool) toggles
      'aria-pressed': !touching && (can || chosen) ? String(!!chosen) : null,
      'aria-disabled': touching || can || chosen ? null : 'true',
      tag: label,
    };
  }

  function drawKyogi(v) {
    const mine = me === 1 ? 1 : 0;
    const opp = 1 - mine;
    const terr = v.territories || [{ cards: [] }, { cards: [] }];
    const targets = slotTargets();
    const placing = legalMoves().some((m) => m.kind === 'place' || m.kind === 'arrange');
    // display columns: mine slot s → s; the opponent's slot s → 18 - s
    const used = new Set();
    if (placing) for (let s = 1; s <= 17; s++) used.add(s);
    for (const c of terr[mine].cards) if (c.row) used.add(c.slot);
    for (const c of terr[opp].cards) if (c.row) used.add(18 - c.slot);
    const cols = [...used].sort((a, b) => a - b);
    const colX = new Map(cols.map((c, i) => [c, LEFT + i * (CW + GX)]));
    const W = LEFT * 2 + Math.max(cols.length, 3) * (CW + GX) - GX;
    const rowY = (own, row) => (own ? 3 * (CH + GY) + MID + (3 - row) * (CH + GY) : (row - 1) * (CH + GY));
    const Hh = 6 * (CH + GY) - GY + MID;
    // a margin above and below the cards: the kana's line boxes (a CJK font's
    // descent) and the focus ring reach past a card's edge, and the SVG clips
    const PAD = 4;
    const kids = [];
    // the two territories' backgrounds; the opponent's is a send target
    const sendable = sel !== null && cardMoves(sel).some((m) => m.kind === 'send');
    kids.push(svg('rect', { class: 'kar-zone kar-zone-opp' + (sendable ? ' kar-target' : ''), x: 0, y: -PAD, width: W, height: PAD + 3 * (CH + GY) - GY / 2,
      dataset: sendable ? { target: 'send' } : {}, tabindex: sendable ? -1 : null, role: sendable ? 'button' : null,
      'aria-label': sendable ? t('karuta.sendTo', { name: name(opp), card: sel }) : null }));
    kids.push(svg('rect', { class: 'kar-zone kar-zone-own', x: 0, y: 3 * (CH + GY) + MID - GY / 2, width: W, height: 3 * (CH + GY) + PAD }));
    kids.push(svg('line', { class: 'kar-midline', x1: 0, x2: W, y1: 3 * (CH + GY) + MID / 2 - GY / 2, y2: 3 * (CH + GY) + MID / 2 - GY / 2 }));
    if (placing)
      for (let row = 1; row <= 3; row++)
        for (const s of cols) {
          const key = row + ',' + s;
          if (terr[mine].cards.some((c) => c.row === row && c.slot === s)) continue;
          const on = targets.has(key);
          kids.push(svg('rect', { class: 'kar-slot' + (on ? ' kar-target' : '') + (row === 1 && s === 9 ? ' kar-free' : ''), x: colX.get(s), y: rowY(true, row), width: CW, height: CH, rx: 3,
            dataset: on ? { target: 'slot', slot: key, label: slotLabel(mine, row, s) } : { slot: key }, tabindex: on ? -1 : null, role: on ? 'button' : null,
            'aria-label': on ? t('karuta.slot', { label: slotLabel(mine, row, s) }) : null }));
          if (on && keys) tags.push(labelTag(slotLabel(mine, row, s), colX.get(s), rowY(true, row)));
        }
    const waiting = [];
    for (const [who, own] of [[opp, false], [mine, true]])
      for (const c of terr[who].cards) {
        if (!c.row) {
          waiting.push(c);
          continue;
        }
        const x = colX.get(own ? c.slot : 18 - c.slot);
        kids.push(cardEl(c.card, x, rowY(own, c.row), !own, { ...cardAttrs(c.card, { seat: who }), dataset: { card: c.card, label: c.label, seat: who } }));
      }
    const box = svg('svg', { class: 'kar-svg kar-kyogi', viewBox: `0 ${-PAD} ${W} ${Hh + 2 * PAD}`, role: 'group', 'aria-label': t('karuta.field') }, ...kids, ...takeTags());
    fieldOut.append(
      h('p', { class: 'kar-side kar-side-opp' }, t('karuta.territory', { name: name(opp), n: terr[opp].count ?? terr[opp].cards.length })),
      box,
      h('p', { class: 'kar-side kar-side-own' }, t('karuta.territory', { name: name(mine), n: terr[mine].count ?? terr[mine].cards.length })),
    );
    if (waiting.length) drawRow(t('karuta.toPlace'), waiting.map((c) => c.card), 'place', null, {});
  }

  function drawRow(title, cards, zone, target, place) {
    // one labelled block of cards, ROW_PER to a line (uta hands and pool, the
    // cards to place): every block has one scale, so a hand of 25 wraps into
    // lines of cards as large as the pool's (25 on one line were 14 px wide on
    // a phone: unreadable, untappable)
    const lines = Math.max(1, Math.ceil(cards.length / ROW_PER));
    const W = LEFT * 2 + ROW_PER * (CW + GX) - GX;
    const H = lines * (CH + GY) - GY + 8;
    const kids = [];
    if (target) kids.push(svg('rect', { class: 'kar-zone kar-target', x: 0, y: 0, width: W, height: H, dataset: { target }, tabindex: -1, role: 'button', 'aria-label': t('karuta.toPool', { card: sel }) }));
    cards.forEach((n, i) => kids.push(cardEl(n, LEFT + (i % ROW_PER) * (CW + GX), 4 + Math.floor(i / ROW_PER) * (CH + GY), false, cardAttrs(n, place))));
    fieldOut.append(
      h('p', { class: 'kar-side' }, title),
      svg('svg', { class: 'kar-svg kar-row', viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'xMinYMin meet', role: 'group', 'aria-label': title, dataset: { zone } }, ...kids, ...takeTags()),
    );
  }

  function drawGrid(title, cards, per) {
    const rows = Math.max(1, Math.ceil(cards.length / per));
    const W = LEFT * 2 + per * (CW + GX) - GX;
    const kids = cards.map((n, i) => cardEl(n, LEFT + (i % per) * (CW + GX), 4 + Math.floor(i / per) * (CH + GY), false, cardAttrs(n, {})));
    fieldOut.append(
      h('p', { class: 'kar-side' }, title),
      svg('svg', { class: 'kar-svg kar-grid', viewBox: `0 0 ${W} ${rows * (CH + GY) + 4}`, role: 'group', 'aria-label': title, dataset: { zone: 'field' } }, ...kids, ...takeTags()),
    );
  }

  function drawField(v) {
    spacing(tight());
    const hadFocus = els.field.contains(document.activeElement);
    fieldOut = h('div', {});
    drawFieldInto(v);
    morph(els.field, fieldOut, true);
    fieldOut = null;
    const stop = roving();
    // the focused card left (taken, sent): the focus stays in the field
    if (hadFocus && !els.field.contains(document.activeElement) && stop) stop.focus({ preventScroll: true });
  }

  function drawFieldInto(v) {
    if (v.variant === 'uta') {
      const pooling = sel !== null && cardMoves(sel).some((m) => m.kind === 'pool');
      (v.hands || []).forEach((hd, i) => drawRow(t('karuta.hand', { seat: i + 1, name: name(i), n: hd.count ?? hd.cards.length }), hd.cards.map((c) => c.card), 'hand' + i, null, { seat: i }));
      drawRow(t('karuta.pool', { n: (v.pool || []).length }), v.pool || [], 'pool', pooling ? 'pool' : null, { pool: true });
    } else if (v.variant === 'chirashi') {
      const f = v.field || [];
      drawGrid(t('karuta.fieldCount', { n: f.length }), f, Math.min(10, Math.max(4, Math.ceil(Math.sqrt(f.length * 1.6)))));
    } else drawKyogi(v);
  }

  function drawStatus() {
    const v = state.view;
    const touchedNow = touched.size && touchN === v.readings ? touched.size : 0;
    // (the countdown changes every second: not read out each time)
    setAttr(els.status, 'aria-live', memo ? 'off' : 'polite');
    els.status.textContent = poetAsk && v.stage === 'touch' ? t('karuta.poet.status', { card: poetAsk.card })
      : status(v, { t, seat: me, name, memo: memoNow(), touched: touchedNow });
  }

  function counts(v) {
    const parts = [t('karuta.readings', { n: v.readings, left: (v.unread || []).length })];
    if (v.variant === 'chirashi') (v.taken || []).forEach((n, i) => parts.push(t('karuta.taken', { name: name(i), n })));
    if (v.variant === 'chirashi' && v.pot) parts.push(t('karuta.pot', { n: v.pot }));
    if (v.variant === 'kyogi') parts.push(t('karuta.dead', { n: (v.dead || []).length }));
    els.counts.textContent = parts.join(' · ');
  }

  function drawActions(v) {
    // rebuilt only when they change (a button keeps the focus)
    const key = JSON.stringify([legalMoves().map((m) => m.action), sel, keys]);
    if (key === actionsKey) return;
    actionsKey = key;
    const focused = els.actions.contains(document.activeElement) ? document.activeElement : null;
    const again = focused && (focused.id || focused.dataset.action);
    clear(els.actions);
    for (const m of legalMoves()) {
      if (m.kind === 'ready' || m.kind === 'pass')
        els.actions.append(h('button', { type: 'button', class: 'kar-act', dataset: { action: m.action }, onclick: () => act(m.action) }, t('karuta.do.' + m.kind)));
    }
    if (sel !== null) {
      for (const m of cardMoves(sel))
        if (m.kind === 'send' || m.kind === 'pool')
          els.actions.append(h('button', { type: 'button', class: 'kar-act kar-main', dataset: { action: m.action }, onclick: () => act(m.action) }, t('karuta.do.' + m.kind, { card: sel })));
      els.actions.append(h('button', { type: 'button', class: 'kar-act', id: 'kar-unselect', onclick: () => select(sel) }, t('karuta.do.unselect')));
    }
    const hint = legalMoves().some((m) => m.card) && sel === null ? t((keys ? 'karuta.a11y.hint.' : 'karuta.hint.') + (legalMoves().find((m) => m.card).kind)) : '';
    if (hint) els.actions.append(h('span', { class: 'kar-hint' }, hint));
    els.actions.hidden = !els.actions.firstChild;
    if (again) {
      const b = [...els.actions.querySelectorAll('button')].find((x) => x.id === again || x.dataset.action === again);
      if (b) b.focus({ preventScroll: true });
      // (gone: the move was played; the focus goes back to the field)
      else {
        const stop = roving();
        if (stop) stop.focus({ preventScroll: true });
      }
    }
  }

  /** The judgement in a few words, said as it comes (a screen reader
   * player plays in real time): who took which card (its label where it
   * lay), the fouls, the send; with answer=poet whether this seat's poet
   * was right. */
  function briefJudgement(j, v) {
    const label = lastLabels.get(j.card) || labels.get(j.card) || '';
    const out = [];
    if (j.void) out.push(t('karuta.a11y.void', { n: j.card }));
    else if (j.taker === null || j.taker === undefined) out.push(t('karuta.a11y.nobody', { n: j.card }));
    else out.push(t(label ? 'karuta.a11y.tookAt' : 'karuta.a11y.took', { name: name(j.taker), n: j.card, label }));
    (j.fouls || []).forEach((f, i) => f > 0 && out.push(t('karuta.j.foul', { name: name(i), n: f })));
    if (j.sender !== null && j.sender !== undefined && j.receiver !== null && j.receiver !== undefined && j.owed > 0)
      out.push(t('karuta.j.send', { from: name(j.sender), to: name(j.receiver), n: j.owed }));
    const c = CARDS[j.card];
    if (v.answer_poet && c && !j.void && myAnswer && myAnswer.n === v.readings)
      out.push(t(myAnswer.card === j.card && myAnswer.poet === c[2] ? 'karuta.j.poetRight' : myAnswer.card === j.card ? 'karuta.j.poetWrong' : 'karuta.j.cardWrong',
        { card: myAnswer.card, poet: myAnswer.poet }));
    return out;
  }

  function judgementWords(j, v) {
    const c = CARDS[j.card];
    const lines = judgementLines(j, t, name, v.variant);
    if (v.answer_poet && c && !j.void) {
      lines.push(t('karuta.j.poet', { poet: c[2], kana: c[3] }));
      if (myAnswer && myAnswer.n === v.readings)
        lines.push(t(myAnswer.card === j.card && myAnswer.poet === c[2] ? 'karuta.j.poetRight' : myAnswer.card === j.card ? 'karuta.j.poetWrong' : 'karuta.j.cardWrong',
          { card: myAnswer.card, poet: myAnswer.poet }));
    }
    return lines;
  }

  /** `text` as nodes for an element: its runs of kana and kanji (the
   * deciding kana, karuta's own terms, a poet's name) each in a span
   * lang="ja", so that a screen reader says them in Japanese and the
   * Japanese font draws them, whatever the page's language. */
  function japaneseRuns(text) {
    return String(text).split(JA_RUN).filter(Boolean).map((s) => (JA_RUN_ONLY.test(s) ? h('span', { lang: 'ja' }, s) : s));
  }

  function drawJudgement(v, quiet) {
    const j = v.judgement;
    if (!j || v.stage === 'touch') return;
    const key = JSON.stringify(j);
    if (key === lastJudgement) return;
    const again = lastJudgement && JSON.parse(lastJudgement).card === j.card && v.readings === judgedN; // the same one, its sends grown
    lastJudgement = key;
    judgedN = v.readings;
    if (!quiet && !again) say1(briefJudgement(j, v).join(' '));
    clear(els.judgement);
    els.judgement.append(
      h('h3', {}, t('karuta.j.title', { n: v.readings })),
      h('ul', {}, judgementWords(j, v).map((l) => h('li', {}, japaneseRuns(l)))),
      h('details', {}, h('summary', {}, t('karuta.j.details')), h('ul', { class: 'kar-details' }, judgementDetails(j, t, name).map((l) => h('li', {}, japaneseRuns(l))))),
    );
    // the read card's kana line: complete it with the whole upper verse
    const c = CARDS[j.card];
    if (c && reading.n) els.kana.textContent = c[1];
    recordTake(j, v);
  }

  function recordTake(j, v) {
    if (me < 0 || j.taker !== me || !state.seats) return;
    if (!state.seats.some((s, i) => i !== me && s && (s.kind === 'ai' || s.covered))) return;
    if (typeof j.decide_ms !== 'number') return;
    const id = (state.room || '') + ':' + v.readings;
    if (seenTakes.has(id)) return;
    seenTakes.add(id);
    const d = j.decide_ms;
    const kim = typeof j.kimariji === 'number' ? j.kimariji : null;
    if (saveTake({ id, card: j.card, ms: Math.max(0, j.take_ms - d), take: j.take_ms, decide: d, kimariji: kim, at: Date.now() }))
      drawPractice();
  }

  function drawPractice() {
    const open = els.practice.open;
    clear(els.practice);
    els.practice.append(h('summary', {}, t('karuta.practice.title')));
    practiceStats(els.practice, t);
    els.practice.append(h('p', {}, h('a', { href: '/#practice', id: 'kar-practice-link' }, t('karuta.practice.link'))));
    els.practice.open = open;
  }

  // ---- the memorisation time (KA-R3): the state's `memo` while it runs ----
  // {left_ms, ready (by seat), total_ms}, counted down from when it came; a
  // person's "Ready" sends `ready` (the readings start once every person is
  // ready; computers always are).
  function memoNow() {
    if (!memo) return null;
    return { ...memo, left_ms: Math.max(0, memo.left_ms - (performance.now() - memoAt)) };
  }
  function sendReady() {
    // through the room (a table never talks to the WebSocket itself)
    if (api.ready) api.ready();
    memoAsked = true;
    drawMemo();
  }
  function drawMemo() {
    const m = memoNow();
    if (!m) {
      els.memo.hidden = true;
      if (memoTimer) clearInterval(memoTimer);
      memoTimer = null;
      return;
    }
    const mine = me >= 0 && m.ready && m.ready[me];
    const waiting = (m.ready || []).map((r, i) => (r || i === me ? -1 : i)).filter((i) => i >= 0);
    const key = [mine, memoAsked, waiting.join(',')].join('|');
    if (key !== memoKey) {
      memoKey = key;
      clear(els.memoAct);
      if (me >= 0 && !mine)
        els.memoAct.append(h('button', { type: 'button', class: 'primary kar-ready', id: 'kar-ready', disabled: memoAsked, onclick: sendReady }, t('karuta.memo.ready')));
      const note = me < 0 ? t('karuta.memo.watch')
        : mine ? (waiting.length ? t('karuta.memo.waiting', { names: waiting.map(name).join(', ') }) : '')
        : waiting.length ? t('karuta.memo.readyHint', { names: waiting.map(name).join(', ') }) : t('karuta.memo.readyAlone');
      if (note) els.memoAct.append(h('span', { class: 'kar-hint' }, note));
    }
    els.memo.hidden = false;
    if (!memoTimer) memoTimer = setInterval(() => {
      drawMemo();
      drawStatus();
    }, 1000);
  }

  function draw() {
    if (!state) return;
    const v = state.view;
    if (sel !== null && !cardMoves(sel).length) sel = null;
    if (touchN !== v.readings && v.stage === 'touch') {
      touchN = v.readings;
      touched = new Set();
    }
    if (poetAsk && (poetAsk.n !== v.readings || v.stage !== 'touch' || !canTouch())) poetAsk = null;
    const nl = cardLabels(v);
    if (JSON.stringify([...nl]) !== JSON.stringify([...labels])) {
      lastLabels = labels;
      labels = nl;
    }
    drawStatus();
    drawPoets();
    // the field is redrawn only when what it shows changed (a state that
    // changes only `pending` during a reading leaves the cards in place)
    const key = JSON.stringify([v.territories, v.hands, v.pool, v.field, v.stage, v.judgement && v.judgement.card, sel,
      (state.legal || []).map((e) => e.action), touchN === v.readings ? [...touched] : [], (state.seats || []).map((x) => x && x.name), poetAsk && poetAsk.card, canTouch(), keys]);
    if (key !== fieldKey) {
      fieldKey = key;
      const t0 = performance.now();
      drawField(v);
      window.__karuta.drawMs = performance.now() - t0;
    }
    drawActions(v);
    drawJudgement(v, !drawnOnce);
    drawnOnce = true;
    showTyped();
    counts(v);
    drawMemo();
    if (reading.n === 0) els.readHead.textContent = v.stage === 'touch' ? t('karuta.reading', { n: v.readings }) : t('karuta.noReading');
    fit();
  }

  drawPractice();

  return {
    update(st) {
      state = st;
      if (st.memo) {
        memo = st.memo;
        memoAt = performance.now();
      } else memo = null;
      if (!memo) memoAsked = false;
      draw();
    },
    event(m) {
      if (m.type === 'reading') {
        reading = { n: m.n, kana: [], t0: m.t0_ms };
        window.__karuta.reading = reading;
        window.__karuta.readingAt = performance.now();
        els.readHead.textContent = t('karuta.reading', { n: m.n });
        els.kana.textContent = '';
        els.kana.classList.add('kar-live');
        if (api.sound) api.sound('reading');
        say1(t('karuta.reading', { n: m.n }));
        memo = null;
        drawMemo();
      } else if (m.type === 'kana') {
        if (m.n !== reading.n) reading = { n: m.n, kana: [], t0: 0 };
        reading.kana[m.i] = m.kana;
        window.__karuta.reading = reading;
        els.kana.textContent = reading.kana.join('');
        window.__karuta.kanaAt.push({ n: m.n, i: m.i, t: performance.now() });
        say(m.kana);
      } else if (m.type === 'error' && m.request === 'touch') {
        drawStatus();
      } else if (m.type === 'error' && m.request === 'act') {
        sel = null;
        draw();
      }
    },
    destroy() {
      document.removeEventListener('keydown', onType);
      window.removeEventListener('resize', onResize);
      if (sizeWatch) sizeWatch.disconnect();
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      if (memoTimer) clearInterval(memoTimer);
      if ('speechSynthesis' in window) {
        speechSynthesis.removeEventListener?.('voiceschanged', voicesChanged);
        speechSynthesis.cancel();
      }
    },
  };
}

/** Draws the practice statistics kept in this browser into `root`: take
 * times after the deciding kana per card (mean, bars) and over time (each
 * take, and the mean of the last 5), as SVG, with a button to forget them. */
export function practiceStats(root, t) {
  const takes = loadTakes();
  if (!takes.length) {
    root.append(h('p', { class: 'quiet', id: 'kar-practice-empty' }, t('karuta.practice.empty')));
    return;
  }
  const ms = takes.map((r) => r.ms);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  const sorted = ms.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  root.append(h('p', { id: 'kar-practice-sum' }, t('karuta.practice.sum', { n: takes.length, mean: Math.round(mean), median: Math.round(median) })));
  const W = 600;
  const H = 200;
  const P = { l: 44, r: 8, t: 10, b: 26 };
  const max = Math.max(500, ...ms);
  const yOf = (v) => P.t + (H - P.t - P.b) * (1 - v / max);
  const axis = (title) => {
    const k = [];
    for (let i = 0; i <= 4; i++) {
      const v = (max * i) / 4;
      k.push(svg('line', { class: 'kar-grid-line', x1: P.l, x2: W - P.r, y1: yOf(v), y2: yOf(v) }),
        svg('text', { class: 'kar-axis', x: P.l - 4, y: yOf(v) + 4, 'text-anchor': 'end' }, String(Math.round(v))));
    }
    k.push(svg('text', { class: 'kar-axis', x: P.l, y: H - 4 }, title));
    return k;
  };
  // per card
  const by = new Map();
  for (const r of takes) (by.get(r.card) || by.set(r.card, []).get(r.card)).push(r.ms);
  const cards = [...by.keys()].sort((a, b) => a - b);
  const bw = (W - P.l - P.r) / cards.length;
  const bars = cards.map((c, i) => {
    const list = by.get(c);
    const m = list.reduce((a, b) => a + b, 0) / list.length;
    return svg('rect', { class: 'kar-bar', x: P.l + i * bw + bw * 0.15, y: yOf(m), width: Math.max(1, bw * 0.7), height: yOf(0) - yOf(m), dataset: { card: c } },
      svg('title', {}, t('karuta.practice.bar', { card: c, ms: Math.round(m), n: list.length })));
  });
  const labels = cards.length <= 30 ? cards.map((c, i) => svg('text', { class: 'kar-axis', x: P.l + (i + 0.5) * bw, y: H - P.b + 12, 'text-anchor': 'middle' }, String(c))) : [];
  root.append(h('figure', { class: 'kar-chart' },
    svg('svg', { id: 'kar-chart-cards', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('karuta.practice.perCard') }, ...axis(t('karuta.practice.axisCard')), ...bars, ...labels),
    h('figcaption', {}, t('karuta.practice.perCard'))));
  // over time
  const n = takes.length;
  const xOf = (i) => P.l + (n === 1 ? (W - P.l - P.r) / 2 : ((W - P.l - P.r) * i) / (n - 1));
  const dots = takes.map((r, i) => svg('circle', { class: 'kar-dot', cx: xOf(i), cy: yOf(r.ms), r: 3 }, svg('title', {}, t('karuta.practice.dot', { card: r.card, ms: r.ms }))));
  const avg = takes.map((r, i) => {
    const w = ms.slice(Math.max(0, i - 4), i + 1);
    return `${xOf(i).toFixed(1)},${yOf(w.reduce((a, b) => a + b, 0) / w.length).toFixed(1)}`;
  });
  root.append(h('figure', { class: 'kar-chart' },
    svg('svg', { id: 'kar-chart-time', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('karuta.practice.overTime') }, ...axis(t('karuta.practice.axisTime')),
      svg('polyline', { class: 'kar-avg', points: avg.join(' ') }), ...dots),
    h('figcaption', {}, t('karuta.practice.overTime'))));
  root.append(h('button', { type: 'button', id: 'kar-practice-clear', onclick: () => {
    try {
      localStorage.removeItem(STORE);
    } catch {}
    clear(root);
    if (root.tagName === 'DETAILS') root.append(h('summary', {}, t('karuta.practice.title')));
    practiceStats(root, t);
  } }, t('karuta.practice.clear')));
}

/** The practice page (/#practice, web/app.js): kyōgi against the computer at
 * a chosen level and the statistics kept in this browser. "Start" creates
 * the room (seat 0 a person, seat 1 the computer; memo_s=0, send=manual) and
 * opens it; the room page asks the name and joins as usual. */
export function practicePage(root, ctx, t) {
  linkCss();
  // a level's name in the page's language (`level.NAME`), else the server's
  const levelText = (name) => (['easy', 'medium', 'hard', 'champion'].includes(name) ? t('level.' + name) : name);
  const level = h('select', { id: 'kar-practice-level' });
  const cards = h('select', { id: 'kar-practice-cards' });
  const note = h('p', { class: 'quiet', 'aria-live': 'polite' });
  const stats = h('section', { class: 'kar-practice', 'aria-labelledby': 'kar-practice-h' });
  for (const n of [5, 10, 25]) cards.append(h('option', { value: n, selected: n === 10 }, t('karuta.practice.cards', { n })));
  const off = ctx.net.on('created', (m) => location.assign('/room/' + m.room));
  const offErr = ctx.net.on('error', (m) => {
    if (m.request === 'create') note.textContent = m.message;
  });
  ctx.games((games) => {
    const g = games.find((x) => x.id === 'karuta');
    clear(level);
    for (const l of (g && g.levels) || [{ name: 'medium' }]) level.append(h('option', { value: l.name, selected: l.name === 'medium' }, levelText(l.name)));
  });
  function start(ev) {
    ev.preventDefault();
    // a random deal of N cards a side from the 100 (the rest are dead, KA-R1)
    const all = Array.from({ length: 100 }, (_, i) => i + 1);
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [all[i], all[j]] = [all[j], all[i]];
    }
    const n = Number(cards.value);
    const deal = all.slice(0, n).join(';') + '/' + all.slice(n, 2 * n).join(';');
    ctx.net.send({ type: 'create', game: 'karuta', options: { variant: 'kyogi', memo_s: '0', deal },
      seats: [{ kind: 'person' }, { kind: 'ai', level: level.value }] });
  }
  root.append(
    h('h1', {}, t('karuta.practice.start')),
    h('p', {}, t('karuta.practice.intro')),
    h('form', { class: 'kar-practice-form', onsubmit: start },
      h('label', {}, t('karuta.practice.level'), ' ', level), ' ',
      h('label', {}, t('karuta.practice.size'), ' ', cards), ' ',
      h('button', { type: 'submit', class: 'primary', id: 'kar-practice-go' }, t('karuta.practice.go'))),
    note,
    stats,
  );
  stats.append(h('h2', { id: 'kar-practice-h' }, t('karuta.practice.title')));
  practiceStats(stats, t);
  return {
    close() {
      off && off();
      offErr && offErr();
    },
  };
}
