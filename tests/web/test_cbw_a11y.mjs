// test_cbw_a11y.mjs — City Behind Walls' table by keyboard and screen reader
// (issue 32 §2, §3), in a real browser, at phone size in Russian and at
// desktop size in English: Ann (seat 1) plays a whole game of two teams of
// two with three computers by keyboard alone (page.keyboard; never a click
// or a CSS selector for a move), deciding every key from the accessibility
// tree only (the hand, the board's cells and the focused node, by role and
// name): Tab to the hand (one Tab stop), the arrow keys to a card, Enter
// (the focus goes to the first cell it may take), the arrow keys over the
// board to the chosen cell (one Tab stop), Enter; Pass when no card can go;
// Escape puts a chosen card back. On the way the names are checked against
// the state the server sent (every card of the hand and of the table, its
// row and column, the cells where the chosen card may go), `describe` against
// it too, `announce` says where a card went, axe-core finds no serious or
// critical violation at the start, in the middle and at the end; the
// focus ring is drawn; at 200 % text the table still fits and nothing
// overlaps; with reduced motion nothing in the table moves. Screenshots
// cbw_a11y-focus-SIZE-LANG and cbw_a11y-described-SIZE-LANG.

import { run } from './harness.mjs';
import { t, setLang } from '../../web/js/i18n.js';
import { soundOf } from '../../web/games/cbw.js';

const SEATS = [{ kind: 'person' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }, { kind: 'ai', level: 'easy' }];
const cardName = (c) => t('cbw.card', { rank: t('cbw.rank.' + c.slice(0, -1)), suit: t('cbw.suit.' + c.slice(-1)) });
const team = (c) => (/[HD]$/.test(c) ? 0 : 1);

/** The drawn box of a view, as the board and describe() number rows and columns (web/games/cbw.js boxOf). */
function boxOf(v) {
  const ins = v.inside;
  const clampTo = (lo, hi, r) => [Math.max(lo, r[0]), Math.min(hi, r[1])];
  if (!v.span) {
    const [x0, x1] = clampTo(-1, 1, ins.x);
    const [y0, y1] = clampTo(-1, 1, ins.y);
    return { x0: Math.min(x0, 0), x1: Math.max(x1, 0), y0: Math.min(y0, 0), y1: Math.max(y1, 0) };
  }
  const [x0, x1] = clampTo(v.span.x[0] - 1, v.span.x[1] + 1, ins.x);
  const [y0, y1] = clampTo(v.span.y[0] - 1, v.span.y[1] + 1, ins.y);
  return { x0: Math.min(x0, v.span.x[0]), x1: Math.max(x1, v.span.x[1]), y0: Math.min(y0, v.span.y[0]), y1: Math.max(y1, v.span.y[1]) };
}
const rc = (b, x, y) => ({ r: b.y1 - y + 1, c: x - b.x0 + 1 });

/** The nodes of an aria snapshot (YAML lines): [{role, name, attrs}]. */
function nodes(yaml) {
  const out = [];
  for (let line of yaml.split('\n')) {
    line = line.trim();
    if (!line.startsWith('- ')) continue;
    line = line.slice(2);
    if (line.startsWith("'")) line = line.slice(1, line.lastIndexOf("'")).replace(/''/g, "'");
    const m = /^([a-z]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/.exec(line);
    if (m) out.push({ role: m[1], name: (m[2] || '').replace(/\\"/g, '"'), attrs: m[3] });
  }
  return out;
}

/** The texts of the paragraphs of an aria snapshot. */
function paragraphs(yaml) {
  const out = [];
  for (let line of yaml.split('\n')) {
    const m = /^\s*- paragraph: (.*)$/.exec(line);
    if (!m) continue;
    let v = m[1];
    if (v.startsWith('"')) v = JSON.parse(v);
    else if (v.startsWith("'")) v = v.slice(1, -1).replace(/''/g, "'");
    out.push(v);
  }
  return out;
}

/** The focused node of the page's accessibility tree ({role, name}), or null. */
async function focused(page) {
  const snap = await page.accessibility.snapshot({ interestingOnly: false });
  let found = null;
  const walk = (n) => {
    if (!n) return;
    if (n.focused && n.role !== 'RootWebArea' && n.role !== 'WebArea') found = n;
    for (const c of n.children || []) walk(c);
  };
  walk(snap);
  return found;
}

/** "row 2, column 3" → {r, c} (the words of cbw.a11y.pos in the page's language). */
function posOf(name) {
  const tpl = t('cbw.a11y.pos', { r: '\u0001', c: '\u0002' });
  const re = new RegExp(tpl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\u0001', '(\\d+)').replace('\u0002', '(\\d+)'));
  const m = re.exec(name);
  return m ? { r: Number(m[1]), c: Number(m[2]) } : null;
}

run('cbw_a11y', async (h) => {
  await h.step('soundOf: a capture, a move, nothing', async () => {
    h.check(soundOf({ events: [{ type: 'place', card: 'QH', x: 0, y: 0, seat: 0 }, { type: 'capture', by: 0, cards: [{ card: '9S', x: 1, y: 0 }] }] }) === 'capture', 'a capture');
    h.check(soundOf({ events: [{ type: 'place', card: 'QH', x: 0, y: 0, seat: 0 }] }) === 'move', 'a placement');
    h.check(soundOf({ events: [{ type: 'pass', seat: 0, passes: 1 }] }) === 'move', 'a pass');
    h.check(soundOf({ events: [{ type: 'first', team: 1 }] }) === null, 'the draw of the opening team');
  });

  for (const [size, lang] of [['desktop', 'en'], ['phone', 'ru']]) {
    setLang(lang);
    const where = `${size}, ${lang}`;
    const page = await h.page(size, { lang });
    let st;
    await h.step(`${where}: a room of two teams of two, Ann and three computers`, async () => {
      await page.goto(h.url('/'));
      // 52 cards: 13 a hand, room for ten placements and a pass by keyboard
      const { room } = await h.createRoom(page, { game: 'cbw', options: { players: '4', deck: '52', first: 'red' }, seats: SEATS });
      h.check((await h.join(page, room, 'Ann')) === 0, 'Ann has seat 1');
      st = await h.waitState(page, (s) => s.legal.length > 0);
      await page.locator('.cbw-board svg').waitFor();
    });

    const handGroup = () => page.getByRole('group', { name: t('cbw.hand.mine', { n: 1 }), exact: true });
    const boardPrefix = t('cbw.board', { w: '\u0001', h: 0, n: 0 }).split('\u0001')[0];
    const board = () => page.getByRole('group', { name: new RegExp('^' + boardPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });

    /** The names on the page against the state: the hand in order (the
     * cards no free cell takes now aria-disabled), every card of the table
     * with its team, row and column, the free cells. */
    async function checkNames(s) {
      const hand = nodes(await handGroup().ariaSnapshot()).filter((n) => n.role === 'button');
      const playable = new Set(s.legal.filter((a) => a.fields && a.fields.move === 'place').map((a) => a.fields.card));
      h.check(JSON.stringify(hand.map((n) => n.name.split(t('cbw.a11y.sep'))[0])) === JSON.stringify(s.view.hand.map(cardName)), `the hand named as the view holds it: ${hand.map((n) => n.name)}`);
      for (const [i, n] of hand.entries())
        h.check(n.attrs.includes('[disabled]') === (s.legal.length > 0 && !playable.has(s.view.hand[i])), `${n.name}: disabled exactly when no cell takes it (${n.attrs})`);
      const cells = nodes(await board().ariaSnapshot());
      const b = boxOf(s.view);
      const imgs = cells.filter((n) => n.role === 'img');
      h.check(imgs.length === s.view.table.length, `one named card a card on the table (${imgs.length} / ${s.view.table.length})`);
      for (const c of s.view.table) {
        const { r, c: col } = rc(b, c.x, c.y);
        const want = t('cbw.a11y.cell.card', { card: cardName(c.card), team: t('cbw.team.' + team(c.card)), pos: t('cbw.a11y.pos', { r, c: col }) });
        h.check(imgs.some((n) => n.name === want || n.name.startsWith(want + t('cbw.a11y.sep'))), `the board names ${c.card}: "${want}"`);
      }
      const free = cells.filter((n) => n.role === 'button');
      h.check(free.length === (b.x1 - b.x0 + 1) * (b.y1 - b.y0 + 1) - s.view.table.length, 'every other cell drawn is a free cell button');
      h.check(!cells.some((n) => /-?\d+,-?\d+|@|CBW-R/.test(n.name)), 'no notation in the names');
    }

    /** "Describe the table" (Alt+Shift+D, the room's) reads describe(): its
     * region takes the focus; its sentences checked against the state. */
    async function checkDescribe(s) {
      await page.keyboard.press('Alt+Shift+D');
      const region = page.getByRole('region', { name: t('room.a11y.words'), exact: true });
      await region.waitFor();
      const f = await focused(page);
      h.check(f && f.role === 'region', `the described table takes the focus (${f && f.role})`);
      const words = paragraphs(await region.ariaSnapshot());
      const text = words.join(' ');
      const v = s.view;
      const b = boxOf(v);
      if (s.over) h.check(words[0] === (v.outcome.winner === null ? t('cbw.over.draw', { score: v.score.join(' : ') }) : t('cbw.over.win', { team: t('cbw.team.' + v.outcome.winner), score: v.score.join(' : ') })), 'the outcome first: ' + words[0]);
      else if (s.legal.length) h.check(words[0] === t('cbw.a11y.d.yours'), 'your turn first: ' + words[0]);
      for (const c of v.table) {
        const { r, c: col } = rc(b, c.x, c.y);
        const row = words.find((w) => w.startsWith(t('cbw.a11y.d.row', { r, cells: '' }).replace(/[.。]$/, '')));
        h.check(!!row && row.includes(t('cbw.a11y.d.inCol', { card: cardName(c.card), c: col })), `describe puts ${c.card} in row ${r}, column ${col}: ${row}`);
      }
      for (const tm of [0, 1]) h.check(words.some((w) => w.includes(t('cbw.team.' + tm)) && w.includes(String(v.score[tm]))), `team ${tm}'s score ${v.score[tm]}`);
      for (let i = 0; i < 4; i++) h.check(text.includes('— ' + v.hand_sizes[i]), `seat ${i + 1} holds ${v.hand_sizes[i]}`);
      if (v.hand.length) h.check(words.includes(t('cbw.a11y.d.hand', { cards: v.hand.map(cardName).join(t('cbw.a11y.sep')) })), 'your cards, by name');
      h.check(!/-?\d+,-?\d+|@|CBW-R|⟦/.test(text), 'no notation, no missing key: ' + text);
      if (lang !== 'en') h.check(!/\b(the|of|row|column|cards|you)\b/.test(text), 'no English: ' + text);
      return words;
    }

    /** Tab until the focus is on a card of the hand (one Tab stop), or,
     * the hand empty, on Pass: its node. */
    async function tabToHand() {
      const names = new Set(nodes(await handGroup().ariaSnapshot()).filter((n) => n.role === 'button').map((n) => n.name));
      if (!names.size) names.add(t('cbw.pass'));
      const seen = [];
      for (let i = 0; i < 80; i++) {
        const f = await focused(page);
        if (f && f.role === 'button' && names.has(f.name)) return f;
        seen.push(f ? f.role + ' ' + f.name : 'none');
        await page.keyboard.press('Tab');
      }
      const s = await h.state(page);
      throw new Error(`Tab never reached the hand (${[...names].join(' | ')}); the focus went: ${seen.join(' → ')}; legal ${JSON.stringify(s.legal).slice(0, 300)}; hand ${s.view.hand}`);
    }

    await h.step(`${where}: the start: axe clean; the hand and the board one Tab stop each; the names as the state says`, async () => {
      await h.expectAxeClean(page, `${where}, start`, { include: '.table-root' });
      await checkNames(st);
      await tabToHand();
      // one Tab from the hand leaves it (to Pass): one Tab stop for the whole hand
      const hand = nodes(await handGroup().ariaSnapshot()).filter((n) => n.role === 'button').map((n) => n.name);
      await page.keyboard.press('Tab');
      const f = await focused(page);
      h.check(f && !hand.includes(f.name), `one Tab leaves the hand (now on ${f && f.name})`);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab'); // back over the hand: the board's one stop
      const g = await focused(page);
      h.check(g && posOf(g.name), `Shift+Tab before the hand is a cell of the board: ${g && g.name}`);
      await page.keyboard.press('Shift+Tab');
      const before = await focused(page);
      h.check(before && !posOf(before.name), `one Shift+Tab more leaves the board: ${before && before.name}`);
      await page.keyboard.press('Tab');
    });

    let moves = 0;
    let viaArrows = 0;
    let escaped = false;
    let passed = false; // Pass pressed by keyboard once
    let middleChecked = false;
    for (let turn = 0; turn < 60; turn++) {
      st = await h.waitState(page, (s) => s.over || s.legal.length > 0, undefined, 60000);
      if (st.over) break;
      if (st.legal.length === 1) {
        // the only move (a pass): the room plays it by itself (room.js playOnlyMove)
        await h.waitState(page, (s, q) => s.over || s.seq !== q, st.seq, 60000);
        continue;
      }
      const f = await tabToHand();
      const hand = nodes(await handGroup().ariaSnapshot()).filter((n) => n.role === 'button');
      const from = hand.findIndex((n) => n.name === f.name);
      const pick = hand.findIndex((n) => !n.attrs.includes('[disabled]'));
      const seq = st.seq;
      if (pick < 0 || (moves >= 10 && !passed)) {
        passed = true;
        await h.step(`${where}: move ${moves + 1}: Tab to Pass, Enter`, async () => {
          if (f.name !== t('cbw.pass')) await page.keyboard.press('Tab');
          const p = await focused(page);
          h.check(p && p.role === 'button' && p.name === t('cbw.pass'), `Tab from the hand reaches Pass: ${p && p.name}`);
          await page.keyboard.press('Enter');
          const after = await h.waitState(page, (s, q) => s.seq !== q, seq);
          h.check(after.view.history.some((e) => e.seat === 0 && e.move === 'pass'), 'Ann passed');
        });
        moves++;
        continue;
      }
      await h.step(`${where}: move ${moves + 1}: a card by the arrow keys and Enter, a cell by the arrow keys and Enter`, async () => {
        for (let i = from; i < pick; i++) await page.keyboard.press('ArrowRight');
        for (let i = from; i > pick; i--) await page.keyboard.press('ArrowLeft');
        const c = await focused(page);
        h.check(c && c.name === hand[pick].name, `the arrows reach ${hand[pick].name} (${c && c.name})`);
        if (!escaped) {
          // Escape puts a chosen card back, the focus on it in the hand
          await page.keyboard.press('Enter');
          await page.keyboard.press('Escape');
          const back = await focused(page);
          h.check(back && back.name === hand[pick].name, `Escape: the focus back on ${hand[pick].name} (${back && back.name})`);
          const again = nodes(await handGroup().ariaSnapshot()).filter((n) => n.role === 'button');
          h.check(!again.some((n) => n.attrs.includes('[pressed]')), 'no card chosen after Escape');
          escaped = true;
        }
        await page.keyboard.press('Enter');
        const chosen = nodes(await handGroup().ariaSnapshot()).find((n) => n.attrs.includes('[pressed]'));
        h.check(chosen && chosen.name === hand[pick].name, `${hand[pick].name} pressed`);
        // the focus went to the first cell the card may take; the lit cells are those legal says
        const cell = await focused(page);
        const may = t('cbw.a11y.cell.target', { card: hand[pick].name });
        h.check(cell && cell.role === 'button' && cell.name.includes(may), `the focus on a cell it may take: ${cell && cell.name}`);
        const s = await h.state(page);
        const card = s.view.hand.find((x) => cardName(x) === hand[pick].name);
        const b = boxOf(s.view);
        const legalAt = s.legal.filter((a) => a.fields && a.fields.card === card).map((a) => rc(b, a.fields.x, a.fields.y));
        const lit = nodes(await board().ariaSnapshot()).filter((n) => n.role === 'button' && n.name.includes(may));
        h.check(lit.length === legalAt.length && lit.every((n) => legalAt.some((p) => p.r === posOf(n.name).r && p.c === posOf(n.name).c)), `the cells named as taking it are the legal ones (${lit.length} / ${legalAt.length})`);
        // the last lit cell, reached by the arrow keys from the focused one
        const goal = posOf(lit[lit.length - 1].name);
        let at = posOf(cell.name);
        for (let k = 0; k < 40 && (at.r !== goal.r || at.c !== goal.c); k++) {
          await page.keyboard.press(at.c < goal.c ? 'ArrowRight' : at.c > goal.c ? 'ArrowLeft' : at.r < goal.r ? 'ArrowDown' : 'ArrowUp');
          at = posOf((await focused(page)).name);
        }
        if (lit.length > 1) viaArrows++;
        const onGoal = await focused(page);
        h.check(onGoal.name === lit[lit.length - 1].name, `the arrows reach ${lit[lit.length - 1].name}`);
        if (!middleChecked && s.view.table.length >= 6) {
          await h.shot(page, `focus-${size}-${lang}`, { fullPage: false });
          // the focus ring: drawn, two-tone, around the focused cell
          const ring = await page.evaluate(() => [...document.activeElement.querySelectorAll('.cbw-focus')].map((r) => getComputedStyle(r).display + ' ' + getComputedStyle(r).stroke));
          h.check(ring.length === 2 && ring.every((r) => !r.startsWith('none')), 'the focus ring is drawn: ' + ring);
          await h.expectAxeClean(page, `${where}, middle, a card chosen`, { include: '.table-root' });
        }
        await page.keyboard.press('Enter');
        const after = await h.waitState(page, (x, q) => x.seq !== q, seq);
        const placed = after.view.history.filter((e) => e.seat === 0 && e.move === 'place').pop();
        const p = placed && rc(b, placed.x, placed.y);
        h.check(placed && placed.card === card && p.r === goal.r && p.c === goal.c, `the server placed ${card} on row ${goal.r}, column ${goal.c}: ${JSON.stringify(placed)}`);
      });
      moves++;
      if (!middleChecked && st.view.table.length >= 6) {
        middleChecked = true;
        await h.step(`${where}: the middle: the names and describe() as the state says, axe clean; announce() says where`, async () => {
          const s = await h.waitState(page, (x) => x.over || x.legal.length > 0, undefined, 60000);
          if (s.over) return;
          await checkNames(s);
          await checkDescribe(s);
          await h.expectAxeClean(page, `${where}, middle`, { include: '.table-root' });
          // announce: the room's live region says the computers' placements with the card each was laid beside
          const log = paragraphs(await page.getByRole('log', { name: t('room.a11y.announcements'), exact: true }).ariaSnapshot());
          const e = (await page.evaluate(() => window.__parlour.page.room.history)).filter((x) => x && x.seat !== 0 && (x.events || []).some((v) => v.type === 'place')).pop();
          const pl = e.events.find((v) => v.type === 'place');
          const said = log.find((l) => l.includes(cardName(pl.card)));
          h.check(!!said, `the live region names ${pl.card}: ${log.join(' | ')}`);
          const beside = ['left', 'right', 'above', 'below'].some((w) => t('cbw.a11y.beside.' + w, { card: '\u0001' }).split('\u0001').every((part) => said.includes(part)));
          h.check(beside, `and says beside which card: ${said}`);
          await page.keyboard.press('Alt+Shift+D');
          await page.getByRole('region', { name: t('room.a11y.words'), exact: true }).waitFor();
          await h.shot(page, `described-${size}-${lang}`, { fullPage: false });
          await page.keyboard.press('Escape');
        });
      }
    }
    await h.step(`${where}: the end: ${moves} moves by keyboard; axe clean; describe tells the outcome`, async () => {
      st = await h.waitState(page, (s) => s.over, undefined, 120000);
      h.check(moves >= 10, `at least ten moves by keyboard (${moves})`);
      h.check(viaArrows > 0 && escaped && middleChecked && passed, 'the arrows over the board, Escape, Pass and the middle checks ran');
      await checkDescribe(st);
      await h.expectAxeClean(page, `${where}, end`, { include: '.table-root' });
    });
  }

  for (const size of ['phone', 'desktop']) {
    setLang('en');
    await h.step(`${size}: 200 % text: the essentials shown, nothing overlaps or leaves the screen; reduced motion: nothing moves`, async () => {
      const page = await h.page(size);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(h.url('/'));
      const { room } = await h.createRoom(page, { game: 'cbw', options: { players: '4', first: 'red' }, seats: SEATS });
      await h.join(page, room, 'Ann');
      for (let k = 0; k < 2; k++) {
        const s = await h.waitState(page, (x) => x.legal.length > 0);
        const a = s.legal.find((x) => x.fields && x.fields.move === 'place');
        await page.keyboard.press('Escape');
        await h.act(page, a.action);
        await h.waitState(page, (x, q) => x.seq !== q, s.seq);
      }
      await h.waitState(page, (x) => x.legal.length > 0);
      await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; window.dispatchEvent(new Event('resize')); });
      await page.getByRole('button', { name: t('cbw.pass') }).waitFor();
      // the table's own elements (the page around it is the room's): none overlaps, none past the screen's right edge
      h.expectLayout((await h.layout(page, { root: '.table-root', allowScrollX: true })).filter((f) => !f.startsWith('horizontal scroll')), `${size}, 200 % text`);
      const wide = await page.evaluate((vw) => {
        const inScroller = (e) => !!e.closest('.cbw-board');
        return [...document.querySelectorAll('.table-root *')].filter((e) => !inScroller(e) && e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > vw + 1)
          .map((e) => (e.getAttribute('class') || e.tagName) + ' to ' + Math.round(e.getBoundingClientRect().right) + ' px');
      }, size === 'phone' ? 360 : 1366); // the screen's width (the room's header may widen a phone's page: not the table's)
      h.check(wide.length === 0, `${size}, 200 % text: nothing of the table past the screen's right edge (${wide.join(", ")})`);
      // the essentials shown (a phone scrolls down to them at this size)
      for (const name of [t('cbw.hand.mine', { n: 1 }), t('cbw.seats')])
        h.check(await page.getByRole('group', { name, exact: true }).isVisible(), `${name} shown`);
      const prefix = t('cbw.board', { w: '\u0001', h: 0, n: 0 }).split('\u0001')[0];
      h.check(await page.getByRole('group', { name: new RegExp('^' + prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).isVisible(), 'the board shown');
      await h.shot(page, `text200-${size}`);
      // reduced motion: no animation or transition anywhere in the table, a
      // captured card (drawn as the table draws one) included
      const moving = await page.evaluate(() => {
        const svgEl = document.querySelector('.cbw-svg');
        const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
        g.setAttribute('class', 'cbw-ghost');
        svgEl.append(g);
        const gain = document.createElement('span');
        gain.className = 'cbw-gain';
        document.querySelector('.cbw-team').append(gain);
        const out = [];
        for (const el of document.querySelectorAll('.cbw, .cbw *')) {
          const cs = getComputedStyle(el);
          const dur = (s) => Math.max(...s.split(',').map((x) => parseFloat(x) || 0));
          // (a duration under a millisecond is nothing a player sees move: the room's own rule sets 0.01 ms)
          if ((cs.animationName !== 'none' && dur(cs.animationDuration) > 0.001) || dur(cs.transitionDuration) > 0.001) out.push(el.getAttribute('class') + ': ' + cs.animationName + ' ' + cs.animationDuration + ' / ' + cs.transitionDuration);
        }
        g.remove();
        gain.remove();
        return out;
      });
      h.check(moving.length === 0, 'nothing moves with reduced motion: ' + moving.join('; '));
    });
  }
});
