// tamcuc.js — the Tam Cúc table (docs/web-ui.md, "The table contract").
// Drawn from the seat's JSON view alone (docs/web-views.md, `tamcuc`): the
// session's score and each seat's hand size and won cards, the counting of
// the first dealer, the night exchange, the declarations (and the question
// asked now), the trick on the table (face-down plays as card backs), the
// last trick and who won it, the discards, the two-player "may hold" list,
// and the seat's own hand fanned at the bottom. A spectator's view has no
// hand and no face of a face-down play, so none is ever drawn.
//
// Playing: cards of the hand are tapped (or focused and Enter/Space) to
// select a group; the play button is enabled only when the selection is one
// of the legal `lead`/`lay`/`pass` actions (labelled from the action's
// `fields`). Cards that cannot complete any legal group are dimmed. The other
// legal actions (`reveal`, `hide`, `declare …`, `nodeclare`) are buttons worded
// from their `fields`. Cards are named as players name them, from the
// catalogue (`tamcuc.name.rG` "red General"); their codes (docs/notation-
// tamcuc.md) stay in data attributes and the actions sent.
//
// Layout (docs/web-ui.md, "Tam Cúc's table"): first what the player acts on
// (the result at the end, the trick, what just happened, the last trick, the
// prompt, the buttons, a refusal, the hand), in view without scrolling on a
// phone and a desktop; then the record of the deal (scores, the last moves in
// words, the last trick in full, declarations, tricks won, piles). A refused
// act (the `illegal` error's `refusal`, docs/web-views.md, "Refusals") is told
// next to the hand: `refused(err, ctx)` for room.js, and the table's event().
//
// What happened is read from each history entry's `events` (docs/web-views.md,
// "tamcuc", "Events") and worded through the catalogues (en, ru): the last
// action's sentences under the table, the list of tricks won, and, for the
// room and the replay, `tell` and `actionWords` (js/events.js). No server
// sentence is read.

import { h, svg, clear } from '../js/dom.js';

const RANKS = 'GAECNHS'; // strongest first (TC-R1.2)
const CHAR = {
  r: { G: '帥', A: '仕', E: '相', C: '俥', N: '炮', H: '傌', S: '兵' },
  b: { G: '將', A: '士', E: '象', C: '車', N: '砲', H: '馬', S: '卒' },
};
const VN = { G: 'tướng', A: 'sĩ', E: 'tượng', C: 'xe', N: 'pháo', H: 'mã', S: 'tốt' };
const CW = 44; // a card's size in SVG units
const CH = 64;
const CARD_ACTIONS = ['lead', 'lay', 'pass'];
const MAX_LEGAL = 512; // the server lists at most this many actions a seat
const LIFT = 12; // a chosen card rises this much (SVG units): told by shape, not colour alone
const HAND_MIN_STEP = 0.8; // a hand's cards overlap to 80 % of a card at most: the character stays in sight

/** A card as players name it (the catalogue's `tamcuc.name.rG` …: "red
 * General"); its code only for a text that is no card. */
function cardWord(c, t) {
  return CHAR[c[0]] && CHAR[c[0]][c[1]] ? t('tamcuc.name.' + c[0] + c[1]) : String(c);
}
/** Cards in words, strongest first, copies counted ("black Soldier ×2"). */
function cardsWords(cards, t) {
  const list = Array.isArray(cards) ? cards.filter((c) => typeof c === 'string' && c.length === 2) : [];
  const sorted = list.slice().sort((a, b) => order(a) - order(b));
  const out = [];
  for (let i = 0; i < sorted.length; ) {
    let k = i;
    while (k < sorted.length && sorted[k] === sorted[i]) k++;
    out.push(k - i > 1 ? t('tamcuc.cards.many', { name: cardWord(sorted[i], t), n: k - i }) : cardWord(sorted[i], t));
    i = k;
  }
  return out.join(', ');
}
/** "Four black Soldiers", from a declaration's size and colour. */
function soldiers(t, size, colour) {
  return t('tamcuc.soldiers.' + (size === 'five' ? 'five' : 'four') + '.' + (colour === 'red' ? 'red' : 'black'));
}
function signedNum(n) {
  return n > 0 ? '+' + n : String(n);
}

/** The sentences of a history entry's events (docs/web-views.md, "tamcuc",
 * "Events"); `name(seat)` names a seat. */
export function eventSentences(events, t, name) {
  const out = [];
  for (const e of Array.isArray(events) ? events : []) {
    if (!e || typeof e.type !== 'string') continue;
    const who = typeof e.seat === 'number' ? name(e.seat) : '';
    const own = Array.isArray(e.cards);
    switch (e.type) {
      case 'counting': out.push(t('tamcuc.ev.counting', { name: name(e.dealer), steps: e.steps })); break;
      case 'dealer': out.push(t('tamcuc.ev.dealer', { name: who })); break;
      case 'deal':
        out.push(t('tamcuc.ev.deal', { deal: e.deal, name: name(e.dealer), n: (e.sizes || [0])[0] }));
        if (Array.isArray(e.hand)) out.push(t('tamcuc.ev.deal.hand', { cards: cardsWords(e.hand, t) }));
        break;
      case 'pass': out.push(t(own ? 'tamcuc.ev.pass.own' : 'tamcuc.ev.pass', { name: who, to: name(e.to), n: e.count, cards: cardsWords(e.cards, t) })); break;
      case 'exchange':
        out.push(t('tamcuc.ev.exchange'));
        if (Array.isArray(e.received)) out.push(t('tamcuc.ev.exchange.received', { cards: cardsWords(e.received, t) }));
        break;
      case 'declare': out.push(t(e.counter ? 'tamcuc.ev.counter' : 'tamcuc.ev.declare', { name: who, soldiers: soldiers(t, e.size, e.colour) })); break;
      case 'nodeclare': out.push(t('tamcuc.ev.nodeclare', { name: who })); break;
      case 'paid': out.push(t('tamcuc.ev.paid', { name: who, each: e.each })); break;
      case 'lead':
        out.push(t(own ? 'tamcuc.ev.lead.own' : 'tamcuc.ev.lead', { name: who, n: e.count, cards: cardsWords(e.cards, t) }) + (e.extra ? ' ' + t('tamcuc.ev.extra') : ''));
        break;
      case 'lay': out.push(t(own ? 'tamcuc.ev.lay.own' : 'tamcuc.ev.lay', { name: who, n: e.count, cards: cardsWords(e.cards, t) })); break;
      case 'shown': out.push(t('tamcuc.ev.shown', { name: who, cards: cardsWords(e.cards, t) })); break;
      case 'reveal': out.push(t('tamcuc.ev.reveal', { name: who, cards: cardsWords(e.cards, t) })); break;
      case 'hide': out.push(t(own ? 'tamcuc.ev.hide.own' : 'tamcuc.ev.hide', { name: who, n: e.count, cards: cardsWords(e.cards, t) })); break;
      case 'trick': out.push(t(e.extra ? 'tamcuc.ev.trick.extra' : 'tamcuc.ev.trick', { name: name(e.winner), cards: cardsWords(e.cards, t) })); break;
      case 'ket': out.push(t('tamcuc.ev.ket', { name: who, each: e.each })); break;
      case 'overtake': out.push(t('tamcuc.ev.overtake', { name: who, each: e.each, names: (e.to || []).map(name).join(', ') })); break;
      case 'deal_end': {
        const lines = (e.lines || []).map((l) =>
          e.autowin
            ? t('tamcuc.ev.line.autowin', { name: name(l.seat), pay: signedNum(l.payments), score: signedNum(l.score) })
            : t('tamcuc.ev.line', { name: name(l.seat), won: l.won, base: signedNum(l.base), pay: signedNum(l.payments), score: signedNum(l.score) }));
        out.push(t('tamcuc.ev.dealEnd', { deal: e.deal, lines: lines.join('; ') }));
        break;
      }
      case 'game_end':
        out.push(t('tamcuc.ev.gameEnd', { names: (e.winners || []).map(name).join(', '), total: signedNum((e.totals || [])[(e.winners || [0])[0]] || 0) }));
        break;
      default: break;
    }
  }
  return out;
}

/** A legal action in words from its `fields` (docs/web-views.md, "tamcuc",
 * "Action fields"), without its cards; its notation when it has none. */
export function fieldWords(a, t, name) {
  const f = fieldsOf(a);
  switch (f.verb) {
    case 'lead': return t(f.extra ? 'tamcuc.act.lead.extra' : 'tamcuc.act.lead', { set: t('tamcuc.set.' + f.set), n: f.count });
    case 'lay': return t('tamcuc.act.lay', { n: f.count });
    case 'pass': return t('tamcuc.act.pass', { n: f.count, to: name(f.to) });
    case 'reveal': return t('tamcuc.act.reveal', { cards: cardsWords(f.cards, t) });
    case 'hide': return t('tamcuc.act.hide', { cards: cardsWords(f.cards, t) });
    case 'declare': return t(f.counter ? 'tamcuc.act.counter' : 'tamcuc.act.declare', { soldiers: soldiers(t, f.size, f.colour) });
    case 'nodeclare': return t('tamcuc.act.nodeclare');
    default: return '';
  }
}

/** An action's fields, or (a server without them) the few its text tells. */
function fieldsOf(a) {
  if (a && a.fields && a.fields.verb) return a.fields;
  const w = a && typeof a.action === 'string' ? a.action.trim().split(/\s+/) : [];
  if (w[0] === 'declare') return { verb: 'declare', size: w[1], colour: 'black', counter: false };
  if (w[0] === 'nodeclare') return { verb: 'nodeclare' };
  if (['lead', 'lay', 'pass'].includes(w[0])) return { verb: w[0], count: w.length - 1, set: 'none', cards: w.slice(1).map(norm) };
  return { verb: w[0] || '' };
}

function plainName(t, seat) {
  return (i) => (i === seat ? t('tamcuc.you', { name: t('tamcuc.seat', { n: i + 1 }) }) : t('tamcuc.seat', { n: i + 1 }));
}

/** A seat's name as the table says it: a person's name, "Computer 3", else
 * "Seat N"; the reader's own with "(you)". `seats`: the state's seat list. */
function seatWords(t, seats, me) {
  return (i) => {
    const s = Array.isArray(seats) ? seats[i] : null;
    let name = t('tamcuc.seat', { n: i + 1 });
    if (s && s.kind === 'person' && s.name) name = s.name;
    else if (s && s.kind === 'ai') name = t('tamcuc.computer', { n: i + 1 });
    return i === me ? t('tamcuc.you', { name }) : name;
  };
}

/** A ctx's seat names (the room's ctx carries `seats` or `state.seats`). */
function ctxNames(ctx) {
  const seats = (ctx && ctx.seats) || (ctx && ctx.state && ctx.state.seats);
  return seats ? seatWords(ctx.t, seats, ctx.seat) : plainName(ctx.t, ctx.seat);
}

/** The room's live region (issue 32): what a history entry did, said after
 * every move — who played what, who took the trick, a declaration, a deal's
 * scores — with the players' names; a deal's whole hand is left out (the
 * hand and "Describe the table" say it), so a deal is one short sentence. */
export function announce(entry, ctx) {
  const events = (entry && Array.isArray(entry.events) ? entry.events : []).map((e) => (e && e.type === 'deal' ? { ...e, hand: undefined } : e));
  const out = eventSentences(events, ctx.t, ctxNames(ctx));
  if (entry && entry.forced) out.push(ctx.t(entry.seat === ctx.seat ? 'tamcuc.forced.you' : 'tamcuc.forced'));
  return out;
}

/** The room's sounds (issue 32): 'capture' for an entry that takes a trick,
 * else 'move'; null for one with no events (nothing to hear). */
export function soundOf(entry) {
  const events = entry && Array.isArray(entry.events) ? entry.events : [];
  if (!events.length) return null;
  return events.some((e) => e && e.type === 'trick') ? 'capture' : 'move';
}

/** A card's full name for a screen reader ("red General 帥 tướng": its
 * drawing's character and Vietnamese name without brackets, so that the
 * name holds the card's visible text, WCAG 2.5.3). */
function cardName(t, card) {
  return t('tamcuc.a11y.card', {
    colour: t(card[0] === 'r' ? 'tamcuc.red' : 'tamcuc.black'),
    rank: t('tamcuc.rank.' + card[1]),
    char: CHAR[card[0]][card[1]],
    vn: VN[card[1]],
  });
}

/** A group on the table in words (docs/web-views.md, "tamcuc", group). */
function groupWords(t, g) {
  if (!g) return t('tamcuc.group.leading');
  if (g.state === 'waiting') return t('tamcuc.group.waiting');
  if (g.state === 'up' || g.state === 'revealed') return t('tamcuc.group.up', { cards: cardsWords(g.cards || [], t) });
  const own = Array.isArray(g.cards) && g.cards.length;
  const n = g.count || (own ? g.cards.length : 0);
  const base = t(g.state === 'hidden' ? 'tamcuc.group.hidden' : 'tamcuc.group.down', { n });
  return own ? t('tamcuc.a11y.d.ownDown', { what: base, cards: cardsWords(g.cards, t) }) : base;
}

/** "Describe the table" (issue 32): the position in words, from the seat's
 * view — the deal and stage, the counting or night exchange, declarations,
 * the trick on the table and the last trick, every seat's hand size, won
 * cards and score, the reader's hand, what the other may hold, the
 * discards, and whose turn it is with what the reader may do.
 * ctx: {t, seat, seats or state.seats, state (for its legal actions)}. */
export function describe(view, ctx) {
  const t = ctx.t;
  const v = view || {};
  if (v.game !== 'tamcuc') return [];
  const name = ctxNames(ctx);
  const out = [];
  const over = v.phase === 'over' || v.stage === 'over';
  const score = Array.isArray(v.score) ? v.score : [];
  if (over && score.length) {
    const best = Math.max(...score);
    const names = score.map((x, i) => (x === best ? name(i) : null)).filter((x) => x !== null);
    out.push(t(names.length > 1 ? 'tamcuc.result.many' : 'tamcuc.result', { names: names.join(', '), total: signedNum(best) }));
  } else out.push(t('tamcuc.a11y.d.deal', { deal: v.deal, dealer: name(v.dealer), stage: t('tamcuc.stage.' + v.stage) }));
  if (v.counting && !v.trick && !v.last_trick && v.deal <= 1) {
    const c = v.counting;
    const cards = (c.cards || []).map((card, k) => t('tamcuc.a11y.d.seatCard', { name: name((c.provisional + 1 + k) % v.seats), card: cardWord(card, t) }));
    out.push(t('tamcuc.a11y.d.counting', { name: name(c.provisional), cards: cards.join('; ') }));
  }
  if (v.exchange && (v.stage === 'exchange' || v.exchange.received)) {
    const x = v.exchange;
    out.push(t('tamcuc.a11y.d.exchange', { k: x.cards, names: (x.done || []).map(name).join(', ') || '—' }));
    if (x.passed) out.push(t('tamcuc.a11y.d.passed', { cards: cardsWords(x.passed, t) }));
    if (x.received) out.push(t('tamcuc.ev.exchange.received', { cards: cardsWords(x.received, t) }));
  }
  for (const d of v.declarations || []) out.push(t(d.counter ? 'tamcuc.declared.counter' : 'tamcuc.declared', { name: name(d.seat), soldiers: soldiers(t, d.size, d.colour) }) + '.');
  if (v.asking) out.push(t(v.asking.counter ? 'tamcuc.asking.counter' : 'tamcuc.asking', { name: name(v.asking.seat), size: t('tamcuc.size.' + v.asking.size) }));
  if (v.trick) {
    const tr = v.trick;
    out.push(t(tr.kind === 'extra' ? 'tamcuc.trick.extra' : 'tamcuc.trick', { name: name(tr.leader) }) + (tr.ban ? ' ' + t('tamcuc.trick.ban') : '') + '.');
    out.push(t('tamcuc.a11y.d.group', { name: name(tr.leader), what: groupWords(t, tr.lead) }));
    for (const lay of tr.lays || []) out.push(t('tamcuc.a11y.d.group', { name: name(lay.seat), what: groupWords(t, lay) }));
  }
  if (v.last_trick && !over) {
    const lt = v.last_trick;
    const lay = (lt.lays || []).find((l) => l.seat === lt.winner);
    const cards = lt.winner === lt.leader ? lt.lead || [] : (lay && lay.cards) || [];
    out.push(t('tamcuc.a11y.d.lastTrick', { name: name(lt.winner), cards: cardsWords(cards, t) }));
  }
  for (let i = 0; i < (v.seats || 0); i++)
    out.push(t('tamcuc.a11y.d.seat', {
      name: name(i),
      n: v.hand_sizes ? v.hand_sizes[i] : 0,
      won: v.won && v.won[i] ? v.won[i].length : 0,
      deal: signedNum(v.deal_score ? v.deal_score[i] : 0),
      total: signedNum(score[i] || 0),
    }));
  if (Array.isArray(v.hand)) out.push(v.hand.length ? t('tamcuc.a11y.d.hand', { n: v.hand.length, cards: cardsWords(v.hand, t) }) : t('tamcuc.a11y.d.handEmpty'));
  if (v.opponent && v.opponent.cards) out.push(t(v.opponent.knowledge === 'holds' ? 'tamcuc.a11y.d.holds' : 'tamcuc.a11y.d.mayHold', { cards: cardsWords(v.opponent.cards, t) }));
  (v.discards || []).forEach((d, i) => {
    if (d && (d.public || d.secret)) out.push(t('tamcuc.a11y.d.discard', { name: name(i), what: t('tamcuc.discard', { pub: d.public, sec: d.secret }) }));
  });
  if (!over) {
    const legal = ((ctx.state && ctx.state.legal) || []).filter((a) => a && (a.seat === undefined || a.seat === ctx.seat));
    const cardAct = legal.find((a) => CARD_ACTIONS.includes(fieldsOf(a).verb));
    if (cardAct) {
      const f = fieldsOf(cardAct);
      out.push(f.verb === 'lead' ? t('tamcuc.a11y.d.lead') : t(f.verb === 'lay' ? 'tamcuc.a11y.d.lay' : 'tamcuc.a11y.d.pass', { n: f.count }));
    } else if (legal.length) out.push(t('tamcuc.a11y.d.may', { what: legal.map((a) => fieldWords(a, t, name)).filter(Boolean).join('; ') }));
    else if ((v.actors || []).length) out.push(t('tamcuc.a11y.d.waiting', { names: v.actors.map(name).join(', ') }));
  }
  return out;
}

/** js/events.js: a history entry's sentences, from its events. */
export function tell(entry, ctx) {
  return eventSentences(entry && entry.events, ctx.t, plainName(ctx.t, ctx.seat));
}

/** js/events.js: a legal action in words, from its fields (with its cards). */
export function actionWords(a, ctx) {
  const f = (a && a.fields) || {};
  const words = fieldWords(a, ctx.t, plainName(ctx.t, ctx.seat));
  return Array.isArray(f.cards) && ['lead', 'lay', 'pass'].includes(f.verb) ? words + ': ' + cardsWords(f.cards, ctx.t) : words;
}

let cssLinked = false;
function linkCss() {
  if (cssLinked || document.querySelector('link[data-tamcuc]')) return;
  cssLinked = true;
  document.head.append(h('link', { rel: 'stylesheet', href: '/games/tamcuc.css', dataset: { tamcuc: '1' } }));
}

/** The page's text size: 1rem in px (16 unless the reader made text larger). */
function remPx() {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}

/** Strength order of a card text: lower sorts first (strongest first, red before black). */
function order(card) {
  return RANKS.indexOf(card[1]) * 2 + (card[0] === 'r' ? 0 : 1);
}
function norm(card) {
  return card[0].toLowerCase() + card[1].toUpperCase();
}
function sortCards(cards) {
  return cards.slice().sort((a, b) => order(a) - order(b));
}
function keyOf(cards) {
  return sortCards(cards.map(norm)).join(' ');
}

export function mount(root, api) {
  linkCss();
  const t = api.t;
  let state = null;
  let sel = new Set(); // indices into the hand
  let handKey = '';
  const tricks = new Map(); // history seq → {winner, cards, extra, deal}: who won which trick (from the `trick` events)
  let happened = []; // the last history entry's sentences (from its events)
  const dealEnds = new Set(); // history seqs whose events end a deal
  let recent = []; // the last history entries' sentences, newest last: [{seq, text, forced}]
  let lastSeats = []; // seats whose play the last history entry tells (marked on the table)
  let refusal = null; // {seq, text}: why the last act was refused, until the next state
  let handCards = []; // the hand's drawn cards: [{g, x, y, card}] by index
  let handFocus = 0; // the hand's card that has the Tab stop (roving tabindex)
  const els = {
    result: h('p', { class: 'tc-result', role: 'status', tabindex: '-1' }),
    info: h('div', { class: 'tc-info' }),
    scores: h('div', { class: 'tc-scores' }),
    middle: h('div', { class: 'tc-middle' }),
    lastTrick: h('div', { class: 'tc-lasttrick' }),
    prompt: h('p', { class: 'tc-prompt', role: 'status' }),
    refusal: h('p', { class: 'tc-refusal', role: 'alert' }),
    actions: h('div', { class: 'tc-actions', role: 'group', 'aria-label': t('tamcuc.actions') }),
    hand: h('div', { class: 'tc-hand-box' }),
    extra: h('div', { class: 'tc-extra' }),
    log: h('div', { class: 'tc-log' }),
    recent: h('div', { class: 'tc-recent' }),
    // what just happened: the room's live region says it (announce below), not this copy
    happened: h('div', { class: 'tc-happened' }),
    chosen: h('p', { class: 'tc-sr', role: 'status' }),
    past: h('div', { class: 'tc-past' }),
    decl: h('div', { class: 'tc-decl-box' }),
  };
  // What a player acts on and what just happened first (in view without
  // scrolling on a phone and a desktop); the record of the deal below it
  // (docs/web-ui.md, "Tam Cúc").
  const main = h('div', { class: 'tc-main' }, els.result, els.info, els.middle, els.happened, els.lastTrick, els.prompt, els.actions, els.chosen, els.refusal, els.hand);
  const aside = h('div', { class: 'tc-aside' }, els.scores, els.recent, els.past, els.decl, els.log, els.extra);
  root.classList.add('tc');
  root.append(main, aside);
  // Escape anywhere in the table clears the cards chosen
  root.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && !ev.defaultPrevented && clearChoice()) ev.preventDefault();
  });

  // ---- words ----
  function cardLabel(card) {
    return cardName(t, card);
  }
  function cardsText(cards) {
    return cardsWords(cards, t);
  }
  function seatLabel(i) {
    return seatWords(t, state && state.seats, api.seat)(i);
  }

  // ---- drawing a card ----
  /** A card face (or its back when `card` is null) as an SVG <g> at x, y.
   * A hand's card (opts.focus) is focusable (roving: tabindex 0 or -1) and
   * named; a card in a row is part of its row's picture (aria-hidden, the
   * row is named). Red and black differ by shape too, not by colour alone:
   * a red card has a round mark in its corner, a black one a triangle. */
  function cardG(card, x, y, opts = {}) {
    const g = svg('g', {
      class: 'tc-card' + (card ? ' tc-' + (card[0] === 'r' ? 'red' : 'black') : ' tc-back') + (opts.cls ? ' ' + opts.cls : ''),
      transform: `translate(${x} ${y})${opts.rotate ? ` rotate(${opts.rotate} ${CW / 2} ${CH})` : ''}`,
      tabindex: opts.focus ? opts.focus : null,
      role: opts.focus ? opts.role || 'img' : null,
      'aria-label': opts.focus ? opts.label || (card ? cardLabel(card) : t('tamcuc.back')) : null,
      'aria-hidden': opts.focus ? null : 'true',
      dataset: card ? { card } : { back: '1' },
    });
    // the focus ring: dark, outside the card, so it stands out at 3:1 or
    // more against the table and the card (shown by CSS on :focus-visible)
    if (opts.focus) g.append(svg('rect', { class: 'tc-focus', x: -3, y: -3, width: CW + 6, height: CH + 6, rx: 7 }));
    g.append(svg('rect', { class: 'tc-frame', x: 1, y: 1, width: CW - 2, height: CH - 2, rx: 5 }));
    if (card) {
      const ink = card[0] === 'r' ? '#b3121f' : '#1d1d1f';
      g.append(
        card[0] === 'r'
          ? svg('circle', { class: 'tc-mark-red', cx: 7.5, cy: 7.5, r: 3.5, fill: ink })
          : svg('path', { class: 'tc-mark-black', d: 'M7.5 3.5 L11.5 11 L3.5 11 Z', fill: ink }),
        svg('circle', { cx: CW / 2, cy: 27, r: 17, fill: 'none', stroke: ink, 'stroke-width': 1.5 }),
        // the drawing is decorative: the card's name says it (aria-label)
        svg('text', { class: 'tc-char', x: CW / 2, y: 35, 'text-anchor': 'middle', fill: ink, 'font-size': 22, 'aria-hidden': 'true' }, CHAR[card[0]][card[1]]),
        svg('text', { class: 'tc-vn', x: CW / 2, y: 57, 'text-anchor': 'middle', fill: ink, 'font-size': 10, 'aria-hidden': 'true' }, VN[card[1]]),
      );
    } else {
      g.append(
        svg('rect', { x: 5, y: 5, width: CW - 10, height: CH - 10, rx: 3, fill: 'none', stroke: '#d9c38a', 'stroke-width': 1 }),
        svg('path', { d: `M${CW / 2} 12 L${CW - 10} ${CH / 2} L${CW / 2} ${CH - 12} L10 ${CH / 2} Z`, fill: 'none', stroke: '#d9c38a', 'stroke-width': 1.5 }),
      );
    }
    return g;
  }

  /** A row of cards (faces, or `backs` backs) as one small SVG. */
  function rowSvg(cards, backs = 0, opts = {}) {
    const n = cards.length + backs;
    const step = opts.step || CW + 4;
    const w = n ? CW + (n - 1) * step + 2 : CW;
    const s = svg('svg', {
      class: 'tc-row' + (opts.small ? ' tc-small' : ''),
      viewBox: `-1 -1 ${w} ${CH + 2}`,
      width: Math.round(w * (opts.small ? 0.62 : 0.9)),
      height: Math.round((CH + 2) * (opts.small ? 0.62 : 0.9)),
      role: 'img', // one picture, named by its cards in words
      'aria-label': opts.label || cardsText(cards) || t('tamcuc.group.down', { n: backs }),
      dataset: { zone: opts.zone || 'row' },
    });
    let x = 0;
    for (const c of cards) {
      s.append(cardG(c, x, 0, { cls: opts.cardCls }));
      x += step;
    }
    for (let i = 0; i < backs; i++) {
      s.append(cardG(null, x, 0));
      x += step;
    }
    return s;
  }

  // ---- the parts ----
  function stageText(v) {
    if (v.phase === 'over' || v.stage === 'over') return t('tamcuc.stage.over');
    return t('tamcuc.stage.' + v.stage);
  }

  function renderInfo(v) {
    clear(els.info);
    const bits = [t('tamcuc.deal', { n: v.deal }), t('tamcuc.dealer', { name: seatLabel(v.dealer) }), stageText(v)];
    // each part whole on a line where it fits (a phone's line holds two of the three)
    els.info.append(h('p', { class: 'tc-line' }, bits.map((b, i) => [i ? ' · ' : null, h('span', {}, b)])));
  }

  function renderScores(v) {
    clear(els.scores);
    const head = h('tr', {}, h('th', { scope: 'col' }, t('tamcuc.col.seat')), h('th', { scope: 'col' }, t('tamcuc.col.hand')), h('th', { scope: 'col' }, t('tamcuc.col.won')), h('th', { scope: 'col' }, t('tamcuc.col.deal')), h('th', { scope: 'col' }, t('tamcuc.col.total')));
    const body = [];
    for (let i = 0; i < v.seats; i++) {
      const marks = [];
      if (i === v.dealer) marks.push(t('tamcuc.mark.dealer'));
      if ((v.actors || []).includes(i)) marks.push(t('tamcuc.mark.acting'));
      body.push(
        h('tr', { class: (i === api.seat ? 'me ' : '') + ((v.actors || []).includes(i) ? 'acting' : ''), dataset: { seat: i } },
          h('th', { scope: 'row' }, seatLabel(i), marks.length ? h('span', { class: 'tc-mark' }, ' ' + marks.join(', ')) : null),
          // data-label: the column's name, shown before the value when the table is stacked (large text on a phone)
          h('td', { dataset: { label: t('tamcuc.col.hand') } }, String(v.hand_sizes ? v.hand_sizes[i] : '')),
          h('td', { dataset: { label: t('tamcuc.col.won') } }, String(v.won ? v.won[i].length : 0)),
          h('td', { dataset: { label: t('tamcuc.col.deal') } }, signed(v.deal_score ? v.deal_score[i] : 0)),
          h('td', { class: 'tc-total', dataset: { label: t('tamcuc.col.total') } }, signed(v.score ? v.score[i] : 0))),
      );
    }
    els.scores.append(h('table', { class: 'tc-score-table' }, h('caption', {}, t('tamcuc.scores')), h('thead', {}, head), h('tbody', {}, body)));
  }
  function signed(n) {
    return n > 0 ? '+' + n : String(n);
  }

  /** A phone's width: the trick's cards drawn small, to leave the hand in view. */
  function narrow() {
    return (root.clientWidth || 360) < 560;
  }

  function groupBox(who, g, extra) {
    // g: {state, count, cards}; a lead or a lay
    const box = h('div', { class: 'tc-group' + (lastSeats.includes(who) ? ' tc-latest' : ''), dataset: { seat: who, state: g.state } });
    let picture = null;
    let note = '';
    if (g.state === 'waiting') note = t('tamcuc.group.waiting');
    else if (g.state === 'up' || g.state === 'revealed') {
      picture = rowSvg(g.cards || [], 0, { zone: 'trick-up', small: narrow(), label: t('tamcuc.group.up', { cards: cardsText(g.cards || []) }) });
      note = g.state === 'up' ? t('tamcuc.group.lead') : t('tamcuc.group.revealed');
    } else {
      // down or hidden: backs for everyone; the owner sees his own cards
      const own = Array.isArray(g.cards) && g.cards.length;
      picture = own
        ? rowSvg(g.cards, 0, { zone: 'trick-own', small: narrow(), cardCls: 'tc-own-down', label: t('tamcuc.group.ownDown', { cards: cardsText(g.cards) }) })
        : rowSvg([], g.count, { zone: 'trick-down', small: narrow(), label: t('tamcuc.group.down', { n: g.count }) });
      note = g.state === 'down' ? t('tamcuc.group.down', { n: g.count }) : t('tamcuc.group.hidden', { n: g.count });
      if (own) note += ' ' + t('tamcuc.group.onlyYou');
    }
    if (g.state === 'waiting') {
      // "Ann has not laid yet": one line, no "laid" before it
      box.append(h('p', { class: 'tc-who' }, h('b', {}, seatLabel(who)), ' ', h('span', { class: 'tc-note' }, note)));
      return box;
    }
    // the group played last: a dashed outline, and said in words (not by the outline alone)
    box.append(h('p', { class: 'tc-who' }, h('b', {}, seatLabel(who)), ' ', extra || '', lastSeats.includes(who) ? h('span', { class: 'tc-sr' }, ' (' + t('tamcuc.a11y.latest') + ')') : null));
    if (picture) box.append(picture);
    box.append(h('p', { class: 'tc-note' }, note));
    return box;
  }

  function renderPast(v) {
    clear(els.past);
    if (v.last_trick) {
      const lt = v.last_trick;
      const list = h('div', { class: 'tc-groups' });
      // the winning group: a ring, and the words "took the trick" (not the colour alone)
      const took = (seat) => (lt.winner === seat ? h('span', { class: 'tc-took' }, ' ✓\u00a0' + t('tamcuc.a11y.tookIt')) : null);
      list.append(h('div', { class: 'tc-group' + (lt.winner === lt.leader ? ' tc-winner' : '') }, h('p', { class: 'tc-who' }, h('b', {}, seatLabel(lt.leader)), ' ', t('tamcuc.led'), took(lt.leader)), rowSvg(lt.lead || [], 0, { zone: 'last', small: true, label: cardsText(lt.lead || []) })));
      for (const lay of lt.lays || [])
        list.append(
          h('div', { class: 'tc-group' + (lt.winner === lay.seat ? ' tc-winner' : '') },
            h('p', { class: 'tc-who' }, h('b', {}, seatLabel(lay.seat)), ' ', lay.cards ? t('tamcuc.group.revealed') : t('tamcuc.group.hidden', { n: lt.count }), took(lay.seat)),
            lay.cards ? rowSvg(lay.cards, 0, { zone: 'last', small: true, label: cardsText(lay.cards) }) : rowSvg([], lt.count, { zone: 'last-down', small: true, label: t('tamcuc.group.hidden', { n: lt.count }) })),
        );
      els.past.append(h('section', { class: 'tc-section tc-last' }, h('h3', {}, t('tamcuc.last', { name: seatLabel(lt.winner), leader: seatLabel(lt.leader) })), list));
    }
  }

  /** The last trick in one line beside the table: who took it, with what. */
  function renderLastTrick(v) {
    clear(els.lastTrick);
    const lt = v.last_trick;
    if (!lt || v.phase === 'over') return;
    const lay = (lt.lays || []).find((l) => l.seat === lt.winner);
    const cards = lt.winner === lt.leader ? lt.lead || [] : (lay && lay.cards) || [];
    els.lastTrick.append(
      cards.length ? rowSvg(cards, 0, { zone: 'last', small: true, label: cardsText(cards) }) : null,
      h('p', { class: 'tc-who', dataset: { winner: lt.winner } }, t('tamcuc.lastTrick', { name: seatLabel(lt.winner) }), ' ', h('b', {}, cardsText(cards))),
    );
  }

  /** At the end, the result first: who wins, with what total. */
  function renderResult(v) {
    els.result.textContent = '';
    if (v.phase !== 'over' && v.stage !== 'over') return;
    const score = v.score || [];
    if (!score.length) return;
    const best = Math.max(...score);
    const names = score.map((x, i) => (x === best ? seatLabel(i) : null)).filter((x) => x !== null);
    els.result.textContent = t(names.length > 1 ? 'tamcuc.result.many' : 'tamcuc.result', { names: names.join(', '), total: signed(best) });
  }

  /** The last moves in words, newest first. */
  function renderRecent() {
    clear(els.recent);
    if (recent.length < 2) return;
    const ol = h('ol', { class: 'tc-recent-list', reversed: true });
    for (const r of recent.slice(0, -1).reverse()) ol.append(h('li', { dataset: { seq: r.seq } }, r.text, r.forced ? h('span', { class: 'tc-forced' }, ' (' + r.forced + ')') : null));
    els.recent.append(h('section', { class: 'tc-section' }, h('h3', {}, t('tamcuc.recent')), ol));
  }

  function renderRefusal() {
    clear(els.refusal);
    if (refusal) els.refusal.append(h('b', {}, t('tamcuc.refusal.title')), ' ', refusal.text);
  }

  /** Why an act was refused, in words (an `illegal` error's `refusal`,
   * docs/web-views.md, "tamcuc", "Refusals"), shown next to the hand; false
   * when there are no words for it (the room shows the server's error). */
  function showRefusal(err) {
    const text = refusalText(err, t);
    if (!text) return false;
    refusal = { seq: state ? state.seq : -1, text };
    renderRefusal();
    return true;
  }

  function renderMiddle(v) {
    clear(els.middle);
    if (v.counting) {
      const c = v.counting;
      const box = h('section', { class: 'tc-section tc-counting' }, h('h3', {}, t('tamcuc.counting', { name: seatLabel(c.provisional) })));
      // one card per seat, from the provisional dealer's right (seat P+1), P last
      const list = h('div', { class: 'tc-groups' });
      c.cards.forEach((card, k) => {
        const seat = (c.provisional + 1 + k) % v.seats;
        list.append(h('div', { class: 'tc-group' }, h('p', { class: 'tc-who' }, h('b', {}, seatLabel(seat))), rowSvg([card], 0, { zone: 'counting', small: true, label: cardLabel(card) })));
      });
      box.append(list);
      if (!v.trick && !v.last_trick && v.deal <= 1) els.middle.append(box); // until the first trick
    }
    if (v.trick) {
      const tr = v.trick;
      const title = t(tr.kind === 'extra' ? 'tamcuc.trick.extra' : 'tamcuc.trick', { name: seatLabel(tr.leader) }) + (tr.ban ? ' ' + t('tamcuc.trick.ban') : '');
      const list = h('div', { class: 'tc-groups' });
      if (tr.lead) list.append(groupBox(tr.leader, tr.lead, t('tamcuc.led')));
      else list.append(h('div', { class: 'tc-group', dataset: { seat: tr.leader, state: 'leading' } }, h('p', { class: 'tc-who' }, h('b', {}, seatLabel(tr.leader)), ' ', h('span', { class: 'tc-note' }, t('tamcuc.group.leading')))));
      for (const lay of tr.lays || []) list.append(groupBox(lay.seat, lay, t('tamcuc.laid')));
      els.middle.append(h('section', { class: 'tc-section tc-trick', 'aria-label': title }, h('h3', {}, title), list));
    }
    clear(els.decl);
    if ((v.declarations && v.declarations.length) || v.asking) {
      const ul = h('ul', { class: 'tc-decl' });
      for (const d of v.declarations || [])
        ul.append(h('li', {}, t(d.counter ? 'tamcuc.declared.counter' : 'tamcuc.declared', { name: seatLabel(d.seat), soldiers: soldiers(t, d.size, d.colour) })));
      if (v.asking) ul.append(h('li', { class: 'tc-asking' }, t(v.asking.counter ? 'tamcuc.asking.counter' : 'tamcuc.asking', { name: seatLabel(v.asking.seat), size: t('tamcuc.size.' + v.asking.size) })));
      (v.asking || v.stage === 'declare' ? els.middle : els.decl).append(h('section', { class: 'tc-section' }, h('h3', {}, t('tamcuc.declarations')), ul));
    }
    if (v.exchange) {
      const x = v.exchange;
      const box = h('section', { class: 'tc-section tc-exchange' }, h('h3', {}, t('tamcuc.exchange', { k: x.cards })));
      box.append(h('p', {}, t('tamcuc.exchange.done', { names: (x.done || []).map(seatLabel).join(', ') || '—' })));
      if (x.passed) box.append(h('p', {}, t('tamcuc.exchange.passed')), rowSvg(x.passed, 0, { zone: 'own-passed', small: true, label: cardsText(x.passed) }));
      if (x.received) box.append(h('p', {}, t('tamcuc.exchange.received')), rowSvg(x.received, 0, { zone: 'own-received', small: true, label: cardsText(x.received) }));
      if (v.stage === 'exchange' || x.received) els.middle.append(box);
    }
  }

  function renderExtra(v) {
    clear(els.extra);
    // won piles (public)
    const won = h('div', { class: 'tc-groups' });
    for (let i = 0; i < v.seats; i++) {
      const cards = (v.won && v.won[i]) || [];
      won.append(h('div', { class: 'tc-group', dataset: { seat: i } }, h('p', { class: 'tc-who' }, h('b', {}, seatLabel(i)), ' ', t('tamcuc.wonCount', { n: cards.length })), cards.length ? rowSvg(cards, 0, { zone: 'won', small: true, step: 30, label: cardsText(cards) }) : null));
    }
    els.extra.append(h('section', { class: 'tc-section tc-won' }, h('h3', {}, t('tamcuc.won')), won));
    // discards
    if (v.discards && v.discards.some((d) => d.public || d.secret)) {
      const ul = h('ul', { class: 'tc-discards' });
      v.discards.forEach((d, i) => {
        const li = h('li', {}, h('b', {}, seatLabel(i)), ' ', t('tamcuc.discard', { pub: d.public, sec: d.secret }));
        if (d.public_cards && d.public_cards.length) li.append(' ', rowSvg(d.public_cards, 0, { zone: 'discard', small: true, step: 30, label: cardsText(d.public_cards) }));
        if (d.secret_cards && d.secret_cards.length) li.append(' ', h('span', { class: 'tc-note' }, t('tamcuc.discard.mine')), ' ', rowSvg(d.secret_cards, 0, { zone: 'own-discard', small: true, step: 30, cardCls: 'tc-own-down', label: cardsText(d.secret_cards) }));
        ul.append(li);
      });
      els.extra.append(h('section', { class: 'tc-section' }, h('h3', {}, t('tamcuc.discards')), ul));
    }
    // two players: what the other may hold / holds
    if (v.opponent && v.opponent.cards) {
      const o = v.opponent;
      els.extra.append(h('section', { class: 'tc-section' }, h('h3', {}, t(o.knowledge === 'holds' ? 'tamcuc.opponent.holds' : 'tamcuc.opponent.may')), rowSvg(sortCards(o.cards), 0, { zone: 'opponent', small: true, step: 30, label: cardsText(o.cards) })));
    }
  }

  // ---- the hand and the actions ----
  function cardActions() {
    const acts = [];
    for (const a of (state && state.legal) || []) {
      if (a.seat !== undefined && a.seat !== api.seat) continue;
      const w = a.action.trim().split(/\s+/);
      if (CARD_ACTIONS.includes(w[0])) acts.push({ verb: w[0], cards: w.slice(1).map(norm), key: keyOf(w.slice(1)), a });
    }
    return acts;
  }

  /** The legal action the selection makes (or one built for a `lay`/`pass` list cut at the server's limit), or null. */
  function matching(acts, hand) {
    if (!sel.size || !acts.length) return null;
    const cards = [...sel].map((i) => hand[i]);
    const key = keyOf(cards);
    const hit = acts.find((x) => x.key === key);
    if (hit) return { action: hit.a.action, fields: hit.a.fields || {} };
    const verb = acts[0].verb;
    if ((verb === 'lay' || verb === 'pass') && (state.legal || []).length >= MAX_LEGAL && cards.length === acts[0].cards.length) {
      // a group the cut list leaves out: its fields as the listed ones of the same verb
      const action = verb + ' ' + sortCards(cards).join(' ');
      return { action, fields: { ...(acts[0].a.fields || {}), verb, count: cards.length, cards: sortCards(cards) } };
    }
    return null;
  }

  /** Hand indices that can still join the selection toward some legal group. */
  function extendable(acts, hand) {
    const ok = new Set();
    if (!acts.length) return ok;
    if ((state.legal || []).length >= MAX_LEGAL) {
      hand.forEach((_, i) => ok.add(i));
      return ok;
    }
    const chosen = [...sel].map((i) => hand[i]);
    const kinds = new Set();
    for (const x of acts) {
      const rest = x.cards.slice();
      let fits = true;
      for (const c of chosen) {
        const k = rest.indexOf(c);
        if (k < 0) {
          fits = false;
          break;
        }
        rest.splice(k, 1);
      }
      if (fits) for (const c of rest) kinds.add(c);
    }
    hand.forEach((c, i) => {
      if (sel.has(i) || kinds.has(c)) ok.add(i);
    });
    return ok;
  }

  /** The hand: one Tab stop (a roving tabindex: the card last focused has
   * tabindex 0, the others -1), arrow keys and Home/End move along it,
   * Enter or Space chooses a card, Escape clears the choice. A card that can
   * be chosen is a toggle button (aria-pressed), one that cannot join any
   * legal group aria-disabled; while the seat has no card to play, the
   * cards are pictures (role img), still focusable to be read. */
  function renderHand(v) {
    clear(els.hand);
    handCards = [];
    const hand = v.hand;
    if (!Array.isArray(hand)) return; // a spectator: no hand at all
    const n = hand.length;
    if (!n) return; // the hand is played out
    if (handFocus >= n) handFocus = n - 1;
    const canPick = cardActions().length > 0;
    // Cards at a size a person reads and taps (44 px wide on a phone, 56 on
    // a wide screen), in as few rows as keep each card's character in sight:
    // a row overlaps its cards down to HAND_MIN_STEP of a card, then wraps.
    const widthPx = Math.max(200, els.hand.clientWidth || root.clientWidth || 336);
    // larger text (the reader's setting, 200 %): larger cards, up to four a row
    const big = Math.max(1, Math.min(remPx() / 16, widthPx / (4 * CW * HAND_MIN_STEP + CW * (1 - HAND_MIN_STEP)) / (widthPx >= 560 ? 56 / CW : 1)));
    const scale = (widthPx >= 560 ? 56 / CW : Math.min(1, widthPx / 336)) * big;
    const width = widthPx / scale; // SVG units
    const gap = 4;
    let rows = 1;
    let per = n;
    let step = CW + gap;
    for (;;) {
      per = Math.ceil(n / rows);
      step = per > 1 ? Math.min(CW + gap, (width - CW) / (per - 1)) : CW + gap;
      if (step >= HAND_MIN_STEP * CW || per <= 1) break;
      rows++;
    }
    const rowH = CH + LIFT + 4;
    const w = CW + (per - 1) * step;
    const hgt = rows * rowH;
    const s = svg('svg', {
      class: 'tc-hand',
      viewBox: `-4 -4 ${w + 8} ${hgt + 8}`,
      width: Math.round((w + 8) * scale),
      height: Math.round((hgt + 8) * scale),
      role: 'group',
      'aria-label': t('tamcuc.hand', { n }),
      'aria-describedby': 'tc-keys',
      dataset: { zone: 'hand', rows },
    });
    hand.forEach((card, i) => {
      const r = Math.floor(i / per);
      const g = cardG(card, 0, 0, { focus: i === handFocus ? '0' : '-1', role: canPick ? 'button' : 'img', cls: canPick ? 'tc-pickable' : '' });
      g.dataset.index = String(i);
      handCards.push({ g, x: (i - r * per) * step, y: r * rowH + LIFT, card });
      g.addEventListener('click', () => toggle(i));
      g.addEventListener('focus', () => {
        handFocus = i;
        for (const c of handCards) c.g.setAttribute('tabindex', c.g === g ? '0' : '-1');
      });
      g.addEventListener('keydown', (ev) => onHandKey(ev, i));
      s.append(g);
    });
    paintHand();
    els.hand.append(
      h('h3', { class: 'tc-hand-title' }, t('tamcuc.yourHand', { n }), h('span', { class: 'tc-legend', 'aria-hidden': 'true' }, t('tamcuc.a11y.legend'))),
      s,
      h('p', { class: 'tc-keys', id: 'tc-keys' }, t(canPick ? 'tamcuc.a11y.keys' : 'tamcuc.a11y.keys.read')),
    );
  }

  /** The hand's cards' states (chosen, playable) in place: the focused card
   * stays the same element, so a screen reader hears only what changed. */
  function paintHand() {
    if (!handCards.length || !state || !state.view) return;
    const acts = cardActions();
    const canPick = acts.length > 0;
    const ok = extendable(acts, state.view.hand || []);
    handCards.forEach(({ g, x, y, card }, i) => {
      const chosen = sel.has(i);
      g.setAttribute('transform', `translate(${x} ${y - (chosen ? LIFT : 0)})`);
      g.classList.toggle('tc-selected', chosen);
      g.classList.toggle('tc-dim', canPick && !ok.has(i));
      g.setAttribute('aria-label', cardLabel(card));
      if (canPick) {
        g.setAttribute('aria-pressed', chosen ? 'true' : 'false');
        if (ok.has(i)) g.removeAttribute('aria-disabled');
        else g.setAttribute('aria-disabled', 'true');
      }
    });
  }

  /** Chooses or unchooses card i of the hand (when it can join a legal group). */
  function toggle(i) {
    const acts = cardActions();
    if (!acts.length || !state) return;
    const ok = extendable(acts, state.view.hand || []);
    if (!sel.has(i) && !ok.has(i)) return;
    if (sel.has(i)) sel.delete(i);
    else sel.add(i);
    paintHand();
    renderActions(state.view);
  }

  function clearChoice() {
    if (!sel.size) return false;
    sel = new Set();
    paintHand();
    renderActions(state.view);
    return true;
  }

  function onHandKey(ev, i) {
    const n = handCards.length;
    let to = -1;
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') to = (i + 1) % n;
    else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp') to = (i - 1 + n) % n;
    else if (ev.key === 'Home') to = 0;
    else if (ev.key === 'End') to = n - 1;
    else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      toggle(i);
      return;
    } else if (ev.key === 'Escape') {
      if (clearChoice()) ev.preventDefault();
      return;
    }
    if (to < 0) return;
    ev.preventDefault();
    handCards[to].g.focus();
  }

  function renderActions(v) {
    clear(els.actions);
    const acts = cardActions();
    const others = ((state && state.legal) || []).filter((a) => (a.seat === undefined || a.seat === api.seat) && !CARD_ACTIONS.includes(a.action.split(' ')[0]));
    let prompt = '';
    let chosen = '';
    if (acts.length) {
      const verb = acts[0].verb;
      const need = acts[0].cards.length;
      prompt = verb === 'lead' ? t('tamcuc.prompt.lead') : verb === 'lay' ? t('tamcuc.prompt.lay', { n: need }) : t('tamcuc.prompt.pass', { n: need });
      const m = matching(acts, v.hand || []);
      const what = m ? t('tamcuc.play', { what: fieldWords(m, t, seatLabel), cards: cardsText(m.action.split(' ').slice(1).map(norm)) }) : t('tamcuc.play.none', { n: sel.size });
      const play = h('button', {
        type: 'button',
        class: 'primary tc-play',
        id: 'tc-play',
        disabled: !m,
        dataset: m ? { action: m.action } : {},
        onclick: () => {
          if (!m) return;
          api.act(m.action);
          sel = new Set();
        },
      }, what);
      const reset = h('button', { type: 'button', class: 'tc-clear', id: 'tc-clear', disabled: !sel.size, onclick: () => clearChoice() }, t('tamcuc.clear'));
      els.actions.append(play, reset);
      const cards = [...sel].map((i) => (v.hand || [])[i]).filter(Boolean);
      chosen = !cards.length ? '' : m ? t('tamcuc.a11y.chosen.ready', { cards: cardsText(cards), what }) : t('tamcuc.a11y.chosen.notYet', { cards: cardsText(cards) });
    } else if (others.length) {
      const verb = others[0].action.split(' ')[0];
      prompt = t(verb === 'reveal' || verb === 'hide' ? 'tamcuc.prompt.reveal' : 'tamcuc.prompt.declare');
    } else if (v.phase !== 'over' && api.seat >= 0 && (v.actors || []).length) {
      prompt = t('tamcuc.prompt.wait');
    }
    for (const a of others) {
      els.actions.append(h('button', { type: 'button', class: 'act tc-act', dataset: { action: a.action }, onclick: () => api.act(a.action) }, h('span', { class: 'tc-long' }, fieldWords(a, t, seatLabel))));
    }
    els.prompt.textContent = prompt;
    // what is chosen, said to a screen reader as it changes (the play button shows it)
    if (els.chosen.textContent !== chosen) els.chosen.textContent = chosen;
  }

  /** Where the focus is in the table, to put it back after a redraw. */
  function focusKey() {
    const a = document.activeElement;
    if (!a || !root.contains(a)) return null;
    if (a.dataset && a.dataset.index !== undefined && els.hand.contains(a)) return { zone: 'hand' };
    if (a.id === 'tc-play' || a.id === 'tc-clear') return { zone: 'play' };
    if (a.dataset && a.dataset.action) return { zone: 'action', action: a.dataset.action };
    return { zone: 'other' };
  }

  /** The focus back after a redraw took its element away: the same action,
   * else a move to make now (a button), else the hand, else the result. */
  function restoreFocus(key) {
    if (!key || root.contains(document.activeElement)) return;
    const byAction = key.action ? [...els.actions.querySelectorAll('button[data-action]')].find((b) => b.dataset.action === key.action) : null;
    const firstAct = els.actions.querySelector('button.tc-act');
    const card = handCards.length ? handCards[Math.min(handFocus, handCards.length - 1)].g : null;
    const target = byAction || (key.zone === 'action' && firstAct) || (key.zone !== 'hand' && firstAct) || card || firstAct || (els.result.textContent ? els.result : null);
    if (target) target.focus();
  }

  /** Reads the trick winners and the deals' ends from the new history entries' events
   * (entries from `history_from` on replace those the page had). */
  function readHistory(st) {
    const from = typeof st.history_from === 'number' ? st.history_from : 0;
    for (const seq of [...tricks.keys()]) if (seq >= from) tricks.delete(seq);
    for (const seq of [...dealEnds]) if (seq >= from) dealEnds.delete(seq);
    const entries = st.history || [];
    for (const e of entries) {
      for (const ev of Array.isArray(e.events) ? e.events : []) {
        if (ev.type === 'trick') tricks.set(e.seq, { winner: ev.winner, cards: (ev.cards || []).map(norm), extra: !!ev.extra });
        if (ev.type === 'deal_end') dealEnds.add(e.seq);
      }
    }
    recent = recent.filter((r) => r.seq < from);
    for (const e of entries) {
      if (!e || typeof e.seq !== 'number') continue;
      const text = eventSentences(e.events, t, seatLabel).join(' ');
      if (!text) continue;
      const forced = e.forced ? t(e.seat === api.seat ? 'tamcuc.forced.you' : 'tamcuc.forced') : '';
      recent.push({ seq: e.seq, text, forced });
    }
    recent = recent.slice(-6);
    if (entries.length) {
      const last = entries[entries.length - 1];
      happened = eventSentences(last.events, t, seatLabel);
      if (last.forced) happened.push('(' + t(last.seat === api.seat ? 'tamcuc.forced.you' : 'tamcuc.forced') + ')');
      lastSeats = (Array.isArray(last.events) ? last.events : []).filter((ev) => ev && ['lead', 'lay', 'reveal', 'hide'].includes(ev.type) && typeof ev.seat === 'number').map((ev) => ev.seat);
    }
  }

  /** The deal a history entry belongs to: 1 + the deals ended before it. */
  function dealOf(seq) {
    let n = 1;
    for (const s of dealEnds) if (s < seq) n++;
    return n;
  }

  function renderHappened() {
    clear(els.happened);
    if (happened.length) els.happened.append(h('p', { class: 'tc-told' }, happened.join(' ')));
  }

  function renderLog(v) {
    clear(els.log);
    // a trick's event is public: a spectator's history tells it too
    if (!tricks.size) return;
    const ol = h('ol', { class: 'tc-tricks' });
    const many = dealEnds.size > 0 && [...tricks.keys()].some((seq) => dealOf(seq) > 1);
    for (const [seq, x] of [...tricks.entries()].sort((a, b) => a[0] - b[0]))
      ol.append(
        h('li', { dataset: { winner: x.winner, seq } },
          many ? t('tamcuc.deal', { n: dealOf(seq) }) + ': ' : '',
          t(x.extra ? 'tamcuc.tricks.extra' : 'tamcuc.tricks.one', { name: seatLabel(x.winner) }), ' ',
          rowSvg(x.cards, 0, { zone: 'tricks', small: true, step: 30, label: cardsText(x.cards) })),
      );
    els.log.append(h('section', { class: 'tc-section' }, h('h3', {}, t('tamcuc.tricks')), ol));
  }

  function update(st) {
    const focus = focusKey();
    state = st;
    readHistory(st);
    const v = st.view;
    if (!v || v.game !== 'tamcuc') return;
    const hk = (v.hand || []).join(',') + '|' + v.stage + '|' + (st.legal || []).map((a) => a.action).join(';');
    if (hk !== handKey) {
      sel = new Set();
      handKey = hk;
    }
    if (refusal && refusal.seq !== st.seq) refusal = null;
    renderResult(v);
    renderInfo(v);
    renderHappened();
    renderLastTrick(v);
    renderRecent();
    renderRefusal();
    renderScores(v);
    renderMiddle(v);
    renderPast(v);
    renderActions(v);
    renderHand(v);
    renderLog(v);
    renderExtra(v);
    restoreFocus(focus);
  }

  // the hand's rows follow the width (a phone turned, a window resized) and the text size
  let lastWidth = 0;
  let lastRem = 16;
  const onResize = () => {
    const wpx = els.hand.clientWidth;
    if (state && state.view && wpx && (Math.abs(wpx - lastWidth) > 8 || remPx() !== lastRem)) {
      const focus = focusKey();
      lastWidth = wpx;
      lastRem = remPx();
      renderHand(state.view);
      restoreFocus(focus);
    }
  };
  window.addEventListener('resize', onResize);
  const table = {
    update,
    showRefusal,
    event(msg) {
      // an illegal act: keep the selection so it can be changed; its reason in words next to the hand
      if (msg && msg.type === 'error' && msg.request === 'act' && state) {
        update(state);
        if (msg.refusal) showRefusal(msg);
      }
    },
    destroy() {
      if (current === table) current = null;
      window.removeEventListener('resize', onResize);
      clear(root);
      root.classList.remove('tc');
    },
  };
  current = table;
  return table;
}

let current = null; // the table mounted now (refused() shows its words there)

/** A refusal in words (docs/web-views.md, "tamcuc", "Refusals"), or '' for
 * an error without one or a word this page does not know. */
export function refusalText(err, t) {
  const r = err && err.refusal;
  if (!r || typeof r.why !== 'string') return '';
  const key = 'tamcuc.refusal.' + r.why + (r.why === 'not-now' || r.why === 'count' ? '.' + (r.verb === 'lead' || r.verb === 'lay' || r.verb === 'pass' ? r.verb : 'lead') : '');
  const vars = {
    cards: cardsWords(r.cards, t),
    count: r.count,
    given: r.given,
    size: r.size ? t('tamcuc.size.' + (r.size === 'five' ? 'five' : 'four')) : '',
    colour: r.colour ? t(r.colour === 'red' ? 'tamcuc.red' : 'tamcuc.black') : '',
  };
  const known = ['not-now.lead', 'not-now.lay', 'not-now.pass', 'not-in-hand', 'count.lay', 'count.pass', 'extra-four', 'not-a-set', 'big-leads-off', 'banned', 'black-general-last', 'reveal-later', 'declare-not-now', 'declare-round', 'declared-already', 'counter-red', 'declare-needs', 'nodeclare-not-now', 'must-declare'];
  return known.includes(key.slice('tamcuc.refusal.'.length)) ? t(key, vars) : '';
}

/** room.js: an `illegal` error of an act; true when the table showed its
 * reason in words next to the hand (the room then shows no error). */
export function refused(err, ctx) {
  if (!current || !err || !err.refusal) return false;
  void ctx;
  return current.showRefusal(err);
}
