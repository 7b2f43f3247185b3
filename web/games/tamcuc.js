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
// of the legal `lead`/`lay`/`pass` actions (its `long` text is the button's
// label). Cards that cannot complete any legal group are dimmed. The other
// legal actions (`reveal`, `hide`, `declare …`, `nodeclare`) are buttons with
// their `long` text. Cards are written as in docs/notation-tamcuc.md
// (`rG` red General … `bS` black Soldier).

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

let cssLinked = false;
function linkCss() {
  if (cssLinked || document.querySelector('link[data-tamcuc]')) return;
  cssLinked = true;
  document.head.append(h('link', { rel: 'stylesheet', href: '/games/tamcuc.css', dataset: { tamcuc: '1' } }));
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
  const tricks = new Map(); // history seq → {winner, cards, extra, deal}: who won which trick (from the `said` lines)
  let dealNo = 1;
  const els = {
    info: h('div', { class: 'tc-info' }),
    scores: h('div', { class: 'tc-scores' }),
    middle: h('div', { class: 'tc-middle' }),
    prompt: h('p', { class: 'tc-prompt', role: 'status' }),
    actions: h('div', { class: 'tc-actions', role: 'group', 'aria-label': t('tamcuc.actions') }),
    hand: h('div', { class: 'tc-hand-box' }),
    extra: h('div', { class: 'tc-extra' }),
    log: h('div', { class: 'tc-log' }),
    past: h('div', { class: 'tc-past' }),
  };
  root.classList.add('tc');
  root.append(els.info, els.middle, els.prompt, els.actions, els.hand, els.scores, els.past, els.log, els.extra);

  // ---- words ----
  function cardLabel(card) {
    return t('tamcuc.card', {
      colour: t(card[0] === 'r' ? 'tamcuc.red' : 'tamcuc.black'),
      rank: t('tamcuc.rank.' + card[1]),
      char: CHAR[card[0]][card[1]],
      vn: VN[card[1]],
    });
  }
  function cardsText(cards) {
    return cards.map((c) => CHAR[c[0]][c[1]] + ' ' + VN[c[1]]).join(', ');
  }
  function seatLabel(i) {
    const s = state && state.seats && state.seats[i];
    let name = t('tamcuc.seat', { n: i + 1 });
    if (s && s.kind === 'person' && s.name) name = s.name;
    else if (s && s.kind === 'ai') name = t('tamcuc.computer', { n: i + 1 });
    return i === api.seat ? t('tamcuc.you', { name }) : name;
  }

  // ---- drawing a card ----
  /** A card face (or its back when `card` is null) as an SVG <g> at x, y. */
  function cardG(card, x, y, opts = {}) {
    const g = svg('g', {
      class: 'tc-card' + (card ? ' tc-' + (card[0] === 'r' ? 'red' : 'black') : ' tc-back') + (opts.cls ? ' ' + opts.cls : ''),
      transform: `translate(${x} ${y})${opts.rotate ? ` rotate(${opts.rotate} ${CW / 2} ${CH})` : ''}`,
      tabindex: '0',
      role: opts.role || 'img',
      'aria-label': opts.label || (card ? cardLabel(card) : t('tamcuc.back')),
      dataset: card ? { card } : { back: '1' },
    });
    g.append(svg('rect', { class: 'tc-frame', x: 1, y: 1, width: CW - 2, height: CH - 2, rx: 5 }));
    if (card) {
      const ink = card[0] === 'r' ? '#b3121f' : '#1d1d1f';
      g.append(
        svg('circle', { cx: CW / 2, cy: 27, r: 17, fill: 'none', stroke: ink, 'stroke-width': 1.5 }),
        svg('text', { class: 'tc-char', x: CW / 2, y: 35, 'text-anchor': 'middle', fill: ink, 'font-size': 22 }, CHAR[card[0]][card[1]]),
        svg('text', { class: 'tc-vn', x: CW / 2, y: 57, 'text-anchor': 'middle', fill: ink, 'font-size': 10 }, VN[card[1]]),
      );
    } else {
      g.append(
        svg('rect', { x: 5, y: 5, width: CW - 10, height: CH - 10, rx: 3, fill: 'none', stroke: '#d9c38a', 'stroke-width': 1 }),
        svg('path', { d: `M${CW / 2} 12 L${CW - 10} ${CH / 2} L${CW / 2} ${CH - 12} L10 ${CH / 2} Z`, fill: 'none', stroke: '#d9c38a', 'stroke-width': 1.5 }),
      );
    }
    if (opts.title) g.append(svg('title', {}, opts.title));
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
      role: 'group',
      'aria-label': opts.label || '',
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
    els.info.append(h('p', { class: 'tc-line' }, bits.join(' · ')));
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
          h('td', {}, String(v.hand_sizes ? v.hand_sizes[i] : '')),
          h('td', {}, String(v.won ? v.won[i].length : 0)),
          h('td', {}, signed(v.deal_score ? v.deal_score[i] : 0)),
          h('td', { class: 'tc-total' }, signed(v.score ? v.score[i] : 0))),
      );
    }
    els.scores.append(h('table', { class: 'tc-score-table' }, h('caption', {}, t('tamcuc.scores')), h('thead', {}, head), h('tbody', {}, body)));
  }
  function signed(n) {
    return n > 0 ? '+' + n : String(n);
  }

  function groupBox(who, g, extra) {
    // g: {state, count, cards}; a lead or a lay
    const box = h('div', { class: 'tc-group', dataset: { seat: who, state: g.state } });
    let picture = null;
    let note = '';
    if (g.state === 'waiting') note = t('tamcuc.group.waiting');
    else if (g.state === 'up' || g.state === 'revealed') {
      picture = rowSvg(g.cards || [], 0, { zone: 'trick-up', label: t('tamcuc.group.up', { cards: cardsText(g.cards || []) }) });
      note = g.state === 'up' ? t('tamcuc.group.lead') : t('tamcuc.group.revealed');
    } else {
      // down or hidden: backs for everyone; the owner sees his own cards
      const own = Array.isArray(g.cards) && g.cards.length;
      picture = own
        ? rowSvg(g.cards, 0, { zone: 'trick-own', cardCls: 'tc-own-down', label: t('tamcuc.group.ownDown', { cards: cardsText(g.cards) }) })
        : rowSvg([], g.count, { zone: 'trick-down', label: t('tamcuc.group.down', { n: g.count }) });
      note = g.state === 'down' ? t('tamcuc.group.down', { n: g.count }) : t('tamcuc.group.hidden', { n: g.count });
      if (own) note += ' ' + t('tamcuc.group.onlyYou');
    }
    box.append(h('p', { class: 'tc-who' }, h('b', {}, seatLabel(who)), ' ', extra || ''));
    if (picture) box.append(picture);
    box.append(h('p', { class: 'tc-note' }, note));
    return box;
  }

  function renderPast(v) {
    clear(els.past);
    if (v.last_trick) {
      const lt = v.last_trick;
      const list = h('div', { class: 'tc-groups' });
      list.append(h('div', { class: 'tc-group' + (lt.winner === lt.leader ? ' tc-winner' : '') }, h('p', { class: 'tc-who' }, h('b', {}, seatLabel(lt.leader)), ' ', t('tamcuc.led')), rowSvg(lt.lead || [], 0, { zone: 'last', small: true, label: cardsText(lt.lead || []) })));
      for (const lay of lt.lays || [])
        list.append(
          h('div', { class: 'tc-group' + (lt.winner === lay.seat ? ' tc-winner' : '') },
            h('p', { class: 'tc-who' }, h('b', {}, seatLabel(lay.seat)), ' ', lay.cards ? t('tamcuc.group.revealed') : t('tamcuc.group.hidden', { n: lt.count })),
            lay.cards ? rowSvg(lay.cards, 0, { zone: 'last', small: true, label: cardsText(lay.cards) }) : rowSvg([], lt.count, { zone: 'last-down', small: true, label: t('tamcuc.group.hidden', { n: lt.count }) })),
        );
      els.past.append(h('section', { class: 'tc-section tc-last' }, h('h3', {}, t('tamcuc.last', { name: seatLabel(lt.winner), leader: seatLabel(lt.leader) })), list));
    }
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
    if ((v.declarations && v.declarations.length) || v.asking) {
      const ul = h('ul', { class: 'tc-decl' });
      for (const d of v.declarations || [])
        ul.append(h('li', {}, t(d.counter ? 'tamcuc.declared.counter' : 'tamcuc.declared', { name: seatLabel(d.seat), size: t('tamcuc.size.' + d.size), colour: t('tamcuc.' + d.colour) })));
      if (v.asking) ul.append(h('li', { class: 'tc-asking' }, t(v.asking.counter ? 'tamcuc.asking.counter' : 'tamcuc.asking', { name: seatLabel(v.asking.seat), size: t('tamcuc.size.' + v.asking.size) })));
      els.middle.append(h('section', { class: 'tc-section' }, h('h3', {}, t('tamcuc.declarations')), ul));
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
    if (hit) return { action: hit.a.action, long: hit.a.long };
    const verb = acts[0].verb;
    if ((verb === 'lay' || verb === 'pass') && (state.legal || []).length >= MAX_LEGAL && cards.length === acts[0].cards.length) {
      const action = verb + ' ' + sortCards(cards).join(' ');
      return { action, long: action };
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

  function renderHand(v) {
    clear(els.hand);
    const hand = v.hand;
    if (!Array.isArray(hand)) return; // a spectator: no hand at all
    const acts = cardActions();
    const canPick = acts.length > 0;
    const ok = extendable(acts, hand);
    const n = hand.length;
    if (!n) return; // the hand is played out
    const step = 40;
    // as many cards a row as the width holds at full size (8 on a 360 px phone), rows of equal length
    const width = els.hand.clientWidth || root.clientWidth || 336;
    const fit = Math.max(5, Math.floor((width - CW - 16) / step) + 1);
    const rows = Math.ceil(n / fit);
    const per = Math.ceil(n / rows);
    const lift = 14;
    const w = CW + (per - 1) * step + 16;
    const hgt = rows * (CH + lift + 8) + 4;
    const s = svg('svg', {
      class: 'tc-hand',
      viewBox: `-8 -${lift + 2} ${w} ${hgt}`,
      role: 'group',
      'aria-label': t('tamcuc.hand', { n }),
      dataset: { zone: 'hand' },
    });
    s.style.maxWidth = Math.round(w * 1.6) + 'px';
    hand.forEach((card, i) => {
      const r = Math.floor(i / per);
      const k = i - r * per;
      const inRow = Math.min(per, n - r * per);
      const mid = (inRow - 1) / 2;
      const rot = (k - mid) * 2.5;
      const y = r * (CH + lift + 8) + Math.abs(k - mid) * 1.5 - (sel.has(i) ? lift : 0);
      const g = cardG(card, k * step, y, {
        rotate: rot,
        role: canPick ? 'button' : 'img',
        cls: (sel.has(i) ? 'tc-selected' : '') + (canPick && !ok.has(i) ? ' tc-dim' : '') + (canPick ? ' tc-pickable' : ''),
        label: cardLabel(card) + (sel.has(i) ? ', ' + t('tamcuc.selected') : ''),
      });
      g.dataset.index = String(i);
      if (canPick) {
        g.setAttribute('aria-pressed', sel.has(i) ? 'true' : 'false');
        if (!ok.has(i)) g.setAttribute('aria-disabled', 'true');
        const toggle = () => {
          if (!sel.has(i) && !ok.has(i)) return;
          if (sel.has(i)) sel.delete(i);
          else sel.add(i);
          renderHand(state.view);
          renderActions(state.view);
          const again = els.hand.querySelector(`[data-index="${i}"]`);
          if (again) again.focus();
        };
        g.addEventListener('click', toggle);
        g.addEventListener('keydown', (ev) => {
          if (ev.key === 'Enter' || ev.key === ' ') {
            ev.preventDefault();
            toggle();
          }
        });
      }
      g.addEventListener('keydown', (ev) => {
        // arrows move along the hand
        const d = ev.key === 'ArrowRight' || ev.key === 'ArrowDown' ? 1 : ev.key === 'ArrowLeft' || ev.key === 'ArrowUp' ? -1 : 0;
        if (!d) return;
        const next = els.hand.querySelector(`[data-index="${(i + d + n) % n}"]`);
        if (next) {
          ev.preventDefault();
          next.focus();
        }
      });
      s.append(g);
    });
    els.hand.append(h('h3', { class: 'tc-hand-title' }, t('tamcuc.yourHand', { n })), s);
  }

  function renderActions(v) {
    clear(els.actions);
    const acts = cardActions();
    const others = ((state && state.legal) || []).filter((a) => (a.seat === undefined || a.seat === api.seat) && !CARD_ACTIONS.includes(a.action.split(' ')[0]));
    let prompt = '';
    if (acts.length) {
      const verb = acts[0].verb;
      const need = acts[0].cards.length;
      prompt = verb === 'lead' ? t('tamcuc.prompt.lead') : verb === 'lay' ? t('tamcuc.prompt.lay', { n: need }) : t('tamcuc.prompt.pass', { n: need });
      const m = matching(acts, v.hand || []);
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
      }, m ? t('tamcuc.play', { what: m.long, cards: cardsText(m.action.split(' ').slice(1).map(norm)) }) : t('tamcuc.play.none', { n: sel.size }));
      const reset = h('button', { type: 'button', class: 'tc-clear', id: 'tc-clear', disabled: !sel.size, onclick: () => {
        sel = new Set();
        renderHand(state.view);
        renderActions(state.view);
      } }, t('tamcuc.clear'));
      els.actions.append(play, reset);
    } else if (others.length) {
      const verb = others[0].action.split(' ')[0];
      prompt = t(verb === 'reveal' || verb === 'hide' ? 'tamcuc.prompt.reveal' : 'tamcuc.prompt.declare');
    } else if (v.phase !== 'over' && api.seat >= 0 && (v.actors || []).length) {
      prompt = t('tamcuc.prompt.wait');
    }
    for (const a of others) {
      const verb = a.action.split(' ')[0];
      const gloss = t('tamcuc.do.' + (verb === 'declare' ? a.action.replace(' ', '.') : verb));
      els.actions.append(h('button', { type: 'button', class: 'act tc-act', dataset: { action: a.action }, onclick: () => api.act(a.action) }, h('span', { class: 'tc-long' }, a.long || a.action), ' — ', gloss));
    }
    els.prompt.textContent = prompt;
  }

  /** Reads the trick winners from the new history entries ("Seat 2 won the trick with rC."). */
  function readHistory(st) {
    if (st.history_from === 0) {
      tricks.clear();
      dealNo = 1;
    }
    for (const e of st.history || []) {
      const said = e.said || '';
      const m = /(You|Seat (\d+)) won the (extra )?trick with ([^.]*)\./.exec(said);
      if (m && !tricks.has(e.seq))
        tricks.set(e.seq, { winner: m[2] === undefined ? api.seat : Number(m[2]), cards: m[4].trim().split(/\s+/).map(norm), extra: !!m[3], deal: dealNo });
      if (/Deal \d+ scores/.test(said)) dealNo++;
    }
  }

  function renderLog(v) {
    clear(els.log);
    // a spectator's history has no line where the seats read different words ("You won …"),
    // so its list would miss tricks: it has the last trick and the won piles instead
    if (!tricks.size || api.seat < 0) return;
    const ol = h('ol', { class: 'tc-tricks' });
    const many = [...tricks.values()].some((x) => x.deal > 1);
    for (const [seq, x] of [...tricks.entries()].sort((a, b) => a[0] - b[0]))
      ol.append(
        h('li', { dataset: { winner: x.winner } },
          many ? t('tamcuc.deal', { n: x.deal }) + ': ' : '',
          t(x.extra ? 'tamcuc.tricks.extra' : 'tamcuc.tricks.one', { name: seatLabel(x.winner) }), ' ',
          rowSvg(x.cards, 0, { zone: 'tricks', small: true, step: 30, label: cardsText(x.cards) })),
      );
    els.log.append(h('section', { class: 'tc-section' }, h('h3', {}, t('tamcuc.tricks')), ol));
  }

  function update(st) {
    state = st;
    readHistory(st);
    const v = st.view;
    if (!v || v.game !== 'tamcuc') return;
    const hk = (v.hand || []).join(',') + '|' + v.stage + '|' + (st.legal || []).map((a) => a.action).join(';');
    if (hk !== handKey) {
      sel = new Set();
      handKey = hk;
    }
    renderInfo(v);
    renderScores(v);
    renderMiddle(v);
    renderPast(v);
    renderActions(v);
    renderHand(v);
    renderLog(v);
    renderExtra(v);
  }

  return {
    update,
    event(msg) {
      // an illegal act (room.js shows the explanation): keep the selection so it can be changed
      if (msg && msg.type === 'error' && msg.request === 'act' && state) update(state);
    },
    destroy() {
      clear(root);
      root.classList.remove('tc');
    },
  };
}
