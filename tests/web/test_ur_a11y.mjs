// test_ur_a11y.mjs — the Royal Game of Ur's table for the keyboard and a screen
// reader (issue 32 §2, §3; web/games/ur.js, docs/web-ui.md, "The Royal Game of
// Ur: keyboard and screen reader"), in Chromium at phone and desktop size, in
// English and in Japanese:
//
// - a whole game (pieces=3) against the computer played with the keyboard
//   alone (page.keyboard only) and decided from the accessibility tree alone
//   (the names, roles and states Chromium gives a screen reader, read through
//   the DevTools protocol's Accessibility domain, page.getByRole and
//   ariaSnapshot), until the win is announced in the room's live region;
//   every way in: the number keys, the board (one Tab stop, arrow keys, Enter
//   to choose, Escape to let go, Enter on the piece or its landing square),
//   the moves (one Tab stop, arrow keys, Enter twice, or the Move button);
// - the board's names against the state the server sent ("B5, rosette, your
//   piece", the pieces that can move, the rest disabled); describe() through
//   "Describe the table" (Alt+Shift+D) against that state; announce() and
//   soundOf() of every history entry;
// - axe-core on the table at the start, in the middle and at the end (no
//   serious or critical violation);
// - the focus ring (at least 3:1 against the square and the frame round it);
//   Light and Dark told by shape, marked pieces by their pips;
// - 200 % text: the board, the prompt and the moves still show, nothing
//   overlaps or leaves the screen; reduced motion: nothing animates.
//
// Screenshots (looked at; copied into docs/screenshots/ur-a11y-*.png): the
// focus ring and the described table at both sizes.

import { run } from './harness.mjs';
import { squaresOf, squareWords, moveOf, moveSpoken, moveWords, describe, announce, soundOf } from '../../web/games/ur.js';
import en from '../../web/i18n/en.js';
import ru from '../../web/i18n/ru.js';
import ja from '../../web/i18n/ja.js';
import vi from '../../web/i18n/vi.js';

const cats = { en, ru, ja, vi };
// the page's t() (web/js/i18n.js): {name} replaced, KEY.one for n = 1, English when a key is missing
const tr = (lang) => (k, vars) => {
  if (vars && vars.n === 1 && (cats[lang][k + '.one'] !== undefined || en[k + '.one'] !== undefined)) k += '.one';
  const s = cats[lang][k] ?? en[k];
  if (s === undefined) throw new Error('no key ' + k);
  return vars ? s.replace(/\{(\w+)\}/g, (m, x) => (vars[x] === undefined ? m : String(vars[x]))) : s;
};
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** WCAG's contrast ratio of two CSS colours 'rgb(r, g, b)' or '#rrggbb'. */
function contrast(a, b) {
  const rgb = (c) => (c.startsWith('#') ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) : c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number));
  const lum = (c) => {
    const [r, g, bb] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bb;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

run('ur_a11y', async (h) => {
  await h.step('the words for a screen reader, from a view (node): cells, describe, announce, sounds', async () => {
    const eq = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const view = {
      game: 'ur', stage: 'move', turn: 0, roll: 2, options: { pieces: 3 }, reserve: [1, 0], off: [1, 1],
      squares: { plain: ['A3', 'B2', 'B5'], rosette: ['A1', 'A7', 'B4', 'C1', 'C7'], 'lane-eyes': ['A2', 'A4', 'C2', 'C4'], 'b7-eyes': ['B7'], safe: ['B3', 'B6'], finish: ['B1'], conversion: ['A8', 'C8'] },
      board: { B4: [{ owner: 0, marked: false }], B7: [{ owner: 0, marked: true }, { owner: 1, marked: false }], C2: [{ owner: 1, marked: false }] },
    };
    const cells = new Map(squaresOf(view).map((b) => [b.square, b]));
    const en0 = { t: tr('en'), seat: 0 };
    h.check(squareWords(cells.get('B4'), en0) === 'B4, rosette, your piece', 'a rosette with the reader’s piece: ' + squareWords(cells.get('B4'), en0));
    h.check(squareWords(cells.get('B5'), en0) === 'B5, empty', 'a plain square says no kind');
    h.check(squareWords(cells.get('B7'), en0) === 'B7, small block’s depot, 2 pieces, from the top: Dark piece; your piece, marked side up', 'a stack from the top: ' + squareWords(cells.get('B7'), en0));
    h.check(squareWords(cells.get('C2'), { t: tr('en'), seat: -1 }) === 'C2, depot, Dark piece', 'a spectator: no “your”');
    h.check(squareWords(cells.get('B4'), { t: tr('ja'), seat: 0 }) === 'B4、ロゼット、自分の駒', 'in Japanese: ' + squareWords(cells.get('B4'), { t: tr('ja'), seat: 0 }));
    h.check(squareWords(cells.get('B4'), { t: tr('vi'), seat: 0 }) === 'B4, ô hoa thị, quân của bạn', 'in Vietnamese');
    // the moves said without arrows (a screen reader reads "→" as "right arrow")
    const f = (from, to, more = {}) => moveOf({ action: 'x', fields: { from, depth: 1, to, captures: false, flips: false, off: false, again: false, ...more } });
    h.check(moveSpoken(f('reserve', 'A3'), tr('en')) === 'a new piece to A3' && moveSpoken(f('B2', 'off', { off: true }), tr('en')) === 'B2 off the board'
      && moveSpoken(f('B5', 'B8', { captures: true }), tr('en')) === 'B5 to B8, captures', 'moves in words');
    const legal = [{ action: 'B4', seat: 0, fields: { from: 'B4', depth: 1, to: 'B6' } }, { action: 'enter', seat: 0, fields: { from: 'reserve', depth: 1, to: 'A3' } }];
    const said = describe(view, { t: tr('en'), seat: 0, names: ['Ann', 'computer 2 (easy)'], state: { legal } });
    h.check(eq(said, [
      'Your move: you threw 2.',
      'Your pieces (Light): 1 in reserve; on the board: B4 (rosette), B7 (small block’s depot, marked); 1 of 3 borne off.',
      'Dark — computer 2 (easy): 0 in reserve; on the board: B7 (small block’s depot), C2 (depot); 1 of 3 borne off.',
      'On B7: 2 pieces, from the top: Dark piece; your piece, marked side up.',
      'You may play: 1: B4 to B6; 2: a new piece to A3.',
      en['ur.a11y.d.keys'],
    ]), 'described to Light: ' + JSON.stringify(said));
    const dark = describe(view, { t: tr('en'), seat: 1, names: ['Ann', 'Bob'], state: { legal: [] } });
    h.check(dark[0] === 'Light — Ann threw 2 and is moving.' && dark[1].startsWith('Your pieces (Dark): 0 in reserve') && dark[dark.length - 1] === 'Waiting for Light — Ann.', 'described to Dark: ' + JSON.stringify(dark));
    const over = describe({ ...view, stage: 'over', off: [3, 1] }, { t: tr('ja'), seat: 0 });
    h.check(over[0] === ja['ur.a11y.d.won.you'], 'the end described in Japanese: ' + over[0]);
    // announced: shorter than `tell`, no arrows; the win with the last piece borne off
    const ev = { seq: 9, seat: 1, events: [{ type: 'move', seat: 1, from: 'C2', to: 'B1' }, { type: 'capture', seat: 1, owner: 0, square: 'B1', count: 1, to: 'reserve' }] };
    h.check(eq(announce(ev, { t: tr('en'), seat: 0 }), ['Dark: C2 to B1.', 'Your piece on B1 was captured: back to the reserve.']), 'a capture announced to its victim: ' + announce(ev, { t: tr('en'), seat: 0 }));
    h.check(eq(announce(ev, { t: tr('en'), seat: 1 }), ['You: C2 to B1.', 'You captured a Light piece on B1.']), 'to the capturer');
    h.check(eq(announce({ seq: 3, seat: -1, events: [{ type: 'throw', seat: 1, value: 3, lots: 3, marked: 3 }] }, { t: tr('en'), seat: 0 }), ['Dark threw 3.']), 'the opponent’s throw');
    h.check(eq(announce({ seq: 4, seat: 1, events: [{ type: 'move', seat: 1, from: 'C3', to: 'C4' }, { type: 'again', seat: 1, square: 'C4' }] }, { t: tr('en'), seat: 0 }), ['Dark: C3 to C4.', 'Dark: a rosette, another throw.']), 'a rosette: throws again');
    const last = { seq: 40, seat: 0, events: [{ type: 'move', seat: 0, from: 'B1', to: 'off' }, { type: 'bear-off', seat: 0, count: 3, of: 3 }] };
    h.check(eq(announce(last, { t: tr('en'), seat: 0 }), ['You: B1 off the board.', 'You have borne off every piece: you win!']), 'the win announced');
    h.check(announce(last, { t: tr('en'), seat: 1 })[1] === 'Light has borne off every piece and wins.', 'the loss announced');
    const every = [{ type: 'first', seat: 1 }, { type: 'throw', seat: 1, value: 1 }, { type: 'pass', seat: 0, roll: 2 }, { type: 'move', seat: 0, from: 'reserve', to: 'A3' },
      { type: 'move', seat: 0, from: 'B1', to: 'off' }, { type: 'move', seat: 1, from: 'A8', to: 'B8' }, { type: 'capture', seat: 1, owner: 0, square: 'B8', count: 1 },
      { type: 'flip', seat: 1, square: 'B8' }, { type: 'bear-off', seat: 0, count: 2, of: 7 }, { type: 'again', seat: 0, square: 'C1' }];
    for (const lang of ['en', 'ru', 'ja', 'vi'])
      for (const seat of [-1, 0, 1]) {
        const s = announce({ seq: 1, seat: 0, events: every }, { t: tr(lang), seat });
        h.check(s.length === every.length && s.every((x) => x && !/[{}⟦→]/.test(x)), `every event announced in ${lang} to seat ${seat}: ${s.join(' ')}`);
      }
    h.check(soundOf(ev) === 'capture' && soundOf(last) === 'move' && soundOf({ events: [{ type: 'throw', seat: 0, value: 2 }] }) === 'move', 'sounds: a capture, else a move');
    // every key of this area in all four catalogues, and not English in the other three
    const mine = Object.keys(en).filter((k) => k.startsWith('ur.a11y.'));
    h.check(mine.length > 40, 'the a11y.ur keys');
    for (const lang of ['ru', 'ja', 'vi'])
      for (const k of mine) {
        h.check(typeof cats[lang][k] === 'string', `${k} in ${lang}`);
        if (/[A-Za-z]{3}/.test(en[k].replace(/\{\w+\}|Enter|Escape/g, ''))) h.check(cats[lang][k] !== en[k], `${k} translated in ${lang}`);
      }
  });

  for (const [size, lang] of [['desktop', 'en'], ['phone', 'ja']]) await playByKeyboard(h, size, lang);

  await h.step('reduced motion: nothing in the table animates or moves by itself', async () => {
    const page = await h.page('desktop', { lang: 'en' });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(h.url('/'));
    const { room } = await h.createRoom(page, { game: 'ur', options: { pieces: '3' }, seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] });
    await h.join(page, room, 'Ann');
    // a state after the computer's move: the moved piece would slide in (test_ur.mjs checks it does without reduce)
    await h.waitState(page, (st) => st.over || (st.legal && st.legal.length > 0 && st.history_from > 0));
    await page.locator('.ur-board .ur-square').nth(19).waitFor();
    const moving = await page.evaluate(() => {
      const out = [];
      for (const el of document.querySelectorAll('.ur-table, .ur-table *')) {
        const cs = getComputedStyle(el);
        const secs = (v) => Math.max(...v.split(',').map((x) => parseFloat(x) * (x.trim().endsWith('ms') ? 0.001 : 1)));
        if ((cs.animationName !== 'none' && secs(cs.animationDuration) > 0.001) || secs(cs.transitionDuration) > 0.001)
          out.push(`${el.tagName}.${el.getAttribute('class')}: ${cs.animationName} ${cs.animationDuration} / ${cs.transitionDuration}`);
      }
      return out;
    });
    h.check(moving.length === 0, 'still with reduced motion: ' + moving.slice(0, 5).join('; '));
  });
});

// ---- the accessibility tree (Chromium's, as a screen reader gets it) ----

const sessions = new Map();
/** The page's accessibility tree now: {focused: {role, name, …}, find(role, name), kids(node)}. */
async function ax(page) {
  if (!sessions.has(page)) sessions.set(page, await page.context().newCDPSession(page));
  const { nodes } = await sessions.get(page).send('Accessibility.getFullAXTree');
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const prop = (n, p) => {
    const x = (n.properties || []).find((q) => q.name === p);
    return x ? x.value.value : undefined;
  };
  const info = (n) => ({ role: n.role && n.role.value, name: (n.name && n.name.value) || '', disabled: !!prop(n, 'disabled'), selected: prop(n, 'selected'), pressed: prop(n, 'pressed'), id: n.nodeId });
  const kidsOf = (n) => (n.childIds || []).map((id) => byId.get(id)).filter(Boolean).flatMap((c) => (c.ignored ? kidsOf(c) : [c]));
  const live = nodes.filter((n) => !n.ignored);
  const f = live.find((n) => n.role && n.role.value !== 'RootWebArea' && prop(n, 'focused'));
  return {
    focused: f ? info(f) : null,
    find: (role, name) => {
      const n = live.find((x) => x.role && x.role.value === role && (name === undefined || (x.name && x.name.value) === name));
      return n ? info(n) : null;
    },
    kids: (node, role) => kidsOf(byId.get(node.id)).filter((c) => !role || (c.role && c.role.value === role)).map(info),
  };
}

async function playByKeyboard(h, size, lang) {
  const t = tr(lang);
  const page = await h.page(size, { lang });
  const seat = 0; // the person joins first: Light, seat 0; the computer plays Dark
  const you = t('ur.you', { side: t('ur.side.' + seat) });
  const movesName = t('ur.moves');
  const where = `${size} ${lang}`;
  let room;

  // the board as the tree gives it: rows of cells, each {role, name, disabled, selected}
  const grid = (a) => {
    const g = a.find('grid', t('ur.board'));
    return g ? a.kids(g, 'row').map((r) => a.kids(r, 'gridcell')) : null;
  };
  // a cell's key from its name: a square, or this seat's reserve / borne-off box
  const reserveRe = new RegExp('^' + esc(t('ur.reserve', { side: '\u0001', n: '\u0002' })).replace('\u0001', '(.+?)').replace('\u0002', '\\d+'));
  const offRe = new RegExp('^' + esc(t('ur.off', { side: '\u0001', n: '\u0002' })).replace('\u0001', '(.+?)').replace('\u0002', '\\d+'));
  const keyOf = (name) => {
    const sq = /^([A-C][1-8])[,、]/.exec(name);
    if (sq) return sq[1];
    const r = reserveRe.exec(name);
    if (r) return r[1] === you ? 'reserve' : 'reserve-other';
    const o = offRe.exec(name);
    if (o) return o[1] === you ? 'off' : 'off-other';
    return null;
  };
  // the moves offered, from the toolbar's buttons: "1 new piece → A4" → {n, from, to}
  const movesOf = (a) => {
    const tb = a.find('toolbar', movesName);
    if (!tb) return [];
    return a.kids(tb, 'button').map((b) => {
      const m = /^(\d+)\s+(.*?) → (.*)$/.exec(b.name);
      if (!m) throw new Error(`${where}: a move I cannot read: ${b.name}`);
      const from = m[2] === t('ur.enter') ? 'reserve' : /^[A-C][1-8]/.exec(m[2])[0];
      const to = m[3].startsWith(t('ur.to.off')) ? 'off' : /^[A-C][1-8]/.exec(m[3])[0];
      return { n: Number(m[1]), name: b.name, from, to, captures: m[3].includes(t('ur.captures')), pressed: b.pressed };
    });
  };
  const toldOf = async () => page.getByRole('list', { name: t('ur.told') }).ariaSnapshot().catch(() => '');
  const overText = t('ur.stage.over');
  // waits (polling the tree) until pred(tree) holds; a guard of 60 s against a hang, never a timing check
  async function until(pred, what) {
    for (let i = 0; i < 1500; i++) {
      const a = await ax(page);
      const v = await pred(a);
      if (v) return v;
      await page.waitForTimeout(40);
    }
    throw new Error(`${where}: never ${what}`);
  }
  const press = async (key, n = 1) => {
    for (let i = 0; i < n; i++) await page.keyboard.press(key);
  };
  const focusedName = async () => ((await ax(page)).focused || {}).name || '';

  // Tab (forward) until the focus is on a board cell / a move; the board and the moves are one Tab stop each
  async function tabTo(role, inside) {
    for (let i = 0; i < 80; i++) {
      await press('Tab');
      const a = await ax(page);
      if (a.focused && a.focused.role === role && inside(a, a.focused)) return a.focused;
    }
    throw new Error(`${where}: Tab never reached a ${role}`);
  }
  const onBoard = (a, f) => (grid(a) || []).some((r) => r.some((c) => c.id === f.id));
  const inMoves = (a, f) => {
    const tb = a.find('toolbar', movesName);
    return !!tb && a.kids(tb, 'button').some((b) => b.id === f.id);
  };
  // arrow keys on the board from the focused cell to the cell `want` (a key), reading the focus after each
  async function arrowTo(want) {
    for (let i = 0; i < 30; i++) {
      const a = await ax(page);
      const rows = grid(a);
      const at = (k) => {
        for (let r = 0; r < rows.length; r++) for (let c = 0; c < rows[r].length; c++) if (keyOf(rows[r][c].name) === k) return [r, c];
        return null;
      };
      const [fr, fc] = at(keyOf(a.focused.name)) || [];
      const [wr, wc] = at(want) || [];
      if (wr === undefined || fr === undefined) throw new Error(`${where}: no cell ${want} or no focus on the board (${a.focused && a.focused.name})`);
      if (fr === wr && fc === wc) return a.focused;
      await press(fr < wr ? 'ArrowDown' : fr > wr ? 'ArrowUp' : fc < wc ? 'ArrowRight' : 'ArrowLeft');
    }
    throw new Error(`${where}: the arrow keys never reached ${want}`);
  }

  await h.step(`${where}: a room against the computer (pieces=3)`, async () => {
    await page.goto(h.url('/'));
    room = (await h.createRoom(page, { game: 'ur', options: { pieces: '3' }, seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] })).room;
    h.check((await h.join(page, room, 'Ann')) === seat, 'Ann is Light');
  });

  let turns = 0;
  const used = new Set();
  let namesChecked = 0;
  let describedChecked = 0;
  let escaped = false;
  const sawAnnounced = new Set(); // what the log said: the computer's throw, its move, a capture
  await h.step(`${where}: a whole game by keyboard alone, read from the accessibility tree`, async () => {
    for (;;) {
      const a = await until(async (x) => (movesOf(x).length || (await page.getByText(overText, { exact: true }).first().isVisible()) ? x : null), 'my move or the end');
      const moves = movesOf(a);
      if (!moves.length) break;
      const st = await h.state(page); // the state the server sent: stable while it waits for this move
      if (turns === 0) await firstTurnChecks(st);
      if (turns === 0 || turns === 6 || turns % 9 === 4) {
        await namesMatch(a, st);
        namesChecked++;
      }
      if (turns === 1 || turns === 7) {
        await describedMatches(st);
        describedChecked++;
      }
      if (turns === 5) {
        await h.expectAxeClean(page, `${where}, the table in the middle of the game`, { include: '.ur-table' });
        await twiceTheText();
      }
      // the move: a bear-off or a capture first, else one in turn
      let k = moves.findIndex((m) => m.to === 'off');
      if (k < 0) k = moves.findIndex((m) => m.captures);
      if (k < 0) k = turns % moves.length;
      const m = moves[k];
      const way = ['numbers', 'board', 'moves', 'board', 'move-button'][turns % 5];
      used.add(way);
      const before = await toldOf();
      if (way === 'numbers') {
        await press(String(m.n));
        const f = await focusedName();
        h.check(keyOf(f) === m.from && f.includes(t('ur.a11y.sel')), `${where}: key ${m.n} puts the focus on the chosen piece: ${f}`);
        await press('Enter');
      } else if (way === 'board') {
        await tabTo('gridcell', onBoard);
        await arrowTo(m.from);
        await press('Enter');
        let b = await ax(page);
        h.check(b.focused.selected === true && b.focused.name.includes(t('ur.a11y.sel')), `${where}: Enter chooses the piece: ${b.focused.name}`);
        if (!escaped) {
          // Escape lets the piece go; Enter chooses it again
          escaped = true;
          await press('Escape');
          b = await ax(page);
          h.check(b.focused.selected === false && !b.focused.name.includes(t('ur.a11y.sel')), `${where}: Escape lets it go: ${b.focused.name}`);
          await press('Enter');
        }
        // to the landing square (or the borne-off box), which says so, and Enter there
        const land = await arrowTo(m.to);
        h.check(land.name.includes(t('ur.a11y.target')) && !land.disabled, `${where}: the landing cell says so: ${land.name}`);
        await press('Enter');
      } else {
        await tabTo('button', inMoves);
        for (let i = 0; i < 12 && !(await focusedName()).startsWith(m.n + ' '); i++) await press('ArrowRight');
        h.check((await focusedName()).startsWith(m.n + ' '), `${where}: the arrow keys reach move ${m.n}`);
        await press('Enter');
        const b = await ax(page);
        h.check(b.focused.pressed === 'true' || b.focused.pressed === true, `${where}: Enter chooses the move (pressed): ${JSON.stringify(b.focused)}`);
        if (way === 'moves') await press('Enter'); // a second time plays it
        else {
          await press('Shift+Tab');
          const mv = await ax(page);
          h.check(mv.focused.role === 'button' && mv.focused.name === t('ur.move') && !mv.focused.disabled, `${where}: Shift+Tab reaches Move: ${JSON.stringify(mv.focused)}`);
          await press('Enter');
        }
      }
      turns++;
      await until(async () => (await toldOf()) !== before, 'a change after the move');
      // the focus stays in the table, where the piece went
      const after = await ax(page);
      h.check(after.focused && onBoard(after, after.focused) && keyOf(after.focused.name) === m.to, `${where}: the focus went with the piece to ${m.to}: ${after.focused && after.focused.name}`);
      const log = await page.getByRole('log').locator('p').allTextContents();
      for (const l of log) sawAnnounced.add(l);
      h.check(turns < 200, 'the game ends');
    }
    // the end: announced in the room's log, in the page's words (this table's announce())
    const st = await h.waitState(page, (s) => s.over);
    const won = st.view.off[0] >= 3 ? 0 : 1;
    const sayWon = won === seat ? t('ur.a11y.say.won.you') : t('ur.a11y.say.won', { side: t('ur.side.' + won) });
    const log = page.getByRole('log');
    await log.getByText(sayWon, { exact: true }).waitFor({ state: 'attached' });
    console.log(`# ${where}: ${turns} moves by keyboard (${[...used].join(', ')}); ${namesChecked} boards and ${describedChecked} descriptions checked against the state; ${won === seat ? 'won' : 'lost'}`);
    h.check(used.size === 4 && namesChecked >= 2 && describedChecked >= 1, 'every way in was used and checked');
    // the log said the computer's throws and moves as announce() words them
    const history = await page.evaluate(() => window.__parlour.page.room.history.filter(Boolean));
    const theirs = history.filter((e) => e.events.some((x) => x.seat === 1 && (x.type === 'throw' || x.type === 'move')));
    const throwsSaid = new Set(theirs.flatMap((e) => e.events.filter((x) => x.seat === 1 && x.type === 'throw').map((x) => t('ur.a11y.say.throw', { who: t('ur.side.1'), n: x.value }))));
    const movesSaid = new Set(theirs.flatMap((e) => announce({ ...e, events: e.events.filter((x) => x.type === 'move') }, { t, seat })));
    const heard = [...sawAnnounced];
    h.check(heard.some((l) => throwsSaid.has(l)) && heard.some((l) => movesSaid.has(l)), `${where}: the computer's throws and moves announced: ${heard.slice(0, 8).join(' | ')}`);
    await h.expectAxeClean(page, `${where}, the table at the end`, { include: '.ur-table' });
  });

  // The first turn: axe, one Tab stop for the board and one for the moves, the focus ring, the
  // sides by shape.
  async function firstTurnChecks(st) {
    await h.expectAxeClean(page, `${where}, the table at the start`, { include: '.ur-table' });
    // Tab through the table: the board is one stop, the moves one
    const stops = [];
    let prev = null;
    for (let i = 0; i < 80; i++) {
      await press('Tab');
      const a = await ax(page);
      const f = a.focused;
      if (!f) continue;
      const place = onBoard(a, f) ? 'board' : inMoves(a, f) ? 'moves' : f.name === t('ur.move') ? 'move' : null;
      if (place && place === prev) throw new Error(`${where}: two Tab stops in a row on the ${place}: ${f.name}`);
      if (place) stops.push(place);
      prev = place || 'out';
      if (stops.length >= 2 && stops.includes('board') && stops.includes('moves')) break;
    }
    h.check(stops.includes('board') && stops.includes('moves'), `${where}: Tab reaches the board and the moves: ${stops}`);
    const cell = await tabTo('gridcell', onBoard);
    // the ring: shown on the focused cell, dark inside white, at least 3:1 on the square and the frame round it
    const ring = await page.evaluate(() => {
      const g = document.querySelector('.ur-focusring');
      const act = document.activeElement;
      if (!g || g.getAttribute('visibility') !== 'visible' || !act || !act.matches(':focus-visible')) return null;
      const [o, i] = [g.querySelector('.ur-focus-out'), g.querySelector('.ur-focus-in')];
      const under = act.querySelector('.ur-sq, .ur-zone-bg');
      const frame = document.querySelector('.ur-frame');
      const r = i.getBoundingClientRect(), c = act.getBoundingClientRect();
      return { outer: getComputedStyle(o).stroke, inner: getComputedStyle(i).stroke, width: parseFloat(getComputedStyle(i).strokeWidth), under: getComputedStyle(under).fill,
        frame: getComputedStyle(frame).fill, page: getComputedStyle(document.body).backgroundColor, around: r.left <= c.left + 2 && r.right >= c.right - 2 && r.top <= c.top + 2 && r.bottom >= c.bottom - 2 };
    });
    h.check(ring !== null, `${where}: a focus ring on the focused cell (${cell.name})`);
    h.check(ring.around, `${where}: the ring goes round the cell`);
    for (const [what, bg] of [['the cell', ring.under], ['the page', ring.page]])
      h.check(contrast(ring.inner, bg) >= 3, `${where}: the ring ${ring.inner} on ${what} ${bg}: ${contrast(ring.inner, bg).toFixed(2)} ≥ 3`);
    h.check(contrast(ring.outer, ring.frame) >= 3 && contrast(ring.outer, ring.inner) >= 3, `${where}: the ring's white edge on the frame ${ring.frame}`);
    await arrowTo('B4');
    await h.shot(page, `focus-${size}-${lang}`, { fullPage: false });
    // Light and Dark differ by shape (Dark's inner ring), a marked piece by its pips, not by colour alone
    const shapes = await page.evaluate(() => ({
      light: [...document.querySelectorAll('.ur-board .ur-p0')].map((g) => !!g.querySelector('.ur-inring')),
      dark: [...document.querySelectorAll('.ur-board .ur-p1')].map((g) => !!g.querySelector('.ur-inring')),
      pips: [...document.querySelectorAll('.ur-board .ur-marked')].every((g) => g.querySelectorAll('.ur-pip').length === 5),
    }));
    h.check(shapes.dark.length > 0 && shapes.dark.every(Boolean) && shapes.light.length > 0 && !shapes.light.some(Boolean) && shapes.pips, `${where}: the sides by shape: ${JSON.stringify(shapes)}`);
    // back to where the turn starts: no piece chosen
    await press('Escape');
    h.check(st.legal.length > 0, 'a move to make');
  }

  // Every cell's name against the server's state: the square, its kind, its pieces from the top;
  // "can move" on exactly the pieces of the legal moves, the rest disabled.
  async function namesMatch(a, st) {
    const rows = grid(a);
    const cells = rows.flat();
    const byKey = new Map(cells.map((c) => [keyOf(c.name), c]));
    const words = { t, seat };
    for (const b of squaresOf(st.view)) {
      const c = byKey.get(b.square);
      h.check(c && c.name.startsWith(squareWords(b, words)), `${where}: ${b.square} is “${squareWords(b, words)}…”, the tree says “${c && c.name}”`);
    }
    h.check(cells.length === 24 && rows.length === 5, `${where}: 20 squares and 4 boxes in 5 rows`);
    h.check(byKey.get('reserve').name.startsWith(t('ur.reserve', { side: you, n: st.view.reserve[seat] })), `${where}: my reserve: ${byKey.get('reserve').name}`);
    h.check(byKey.get('off').name.startsWith(t('ur.off', { side: you, n: st.view.off[seat] })), `${where}: my borne off: ${byKey.get('off').name}`);
    const from = new Set(st.legal.map((e) => (e.fields.from === 'reserve' ? 'reserve' : e.fields.from)));
    for (const c of cells) {
      const k = keyOf(c.name);
      const can = c.name.includes(t('ur.a11y.can'));
      h.check(can === from.has(k), `${where}: ${k} ${from.has(k) ? 'can' : 'cannot'} move: ${c.name}`);
      h.check(c.disabled === !from.has(k), `${where}: ${k} disabled only when nothing can be done there: ${c.name}`);
      h.check(!can || c.selected === false, `${where}: a piece that can move is selectable: ${JSON.stringify(c)}`);
    }
    // the last move in words where the board draws its arrow
    const moved = [];
    for (const e of st.history || []) for (const x of e.events || []) if (x.type === 'move') moved.push(x);
    const lastTo = moved.length ? moved[moved.length - 1].to : null;
    if (lastTo && /^[A-C][1-8]$/.test(lastTo)) h.check(byKey.get(lastTo).name.includes(t('ur.a11y.last.to')), `${where}: the last move said on ${lastTo}: ${byKey.get(lastTo).name}`);
  }

  // "Describe the table" (Alt+Shift+D): the region takes the focus and says what describe() says
  // of the server's state: the throw, each side's squares and counts, every move offered
  async function describedMatches(st) {
    await press('Alt+Shift+KeyD');
    const a = await until(async (x) => (x.focused && x.focused.role === 'region' ? x : null), 'a focused region');
    const region = page.getByRole('region', { name: a.focused.name });
    const text = await region.innerText();
    const want = describe(st.view, { t, seat, names: st.seats.map((s) => s.name || ''), state: st });
    h.check(want[0] === t('ur.a11y.d.move.you', { n: st.view.roll }), `${where}: describe starts with the throw: ${want[0]}`);
    for (const line of want.filter((l) => !l.includes(' — ') && !l.includes('・'))) h.check(text.includes(line), `${where}: the region says “${line}”:\n${text}`);
    const mine = squaresOf(st.view).filter((b) => b.stack.some((p) => p.owner === seat)).map((b) => b.square);
    const yours = text.split('\n').find((l) => l.startsWith(t('ur.a11y.d.pieces.you', { side: t('ur.side.' + seat), reserve: st.view.reserve[seat], off: st.view.off[seat], of: 3, board: '\u0001' }).split('\u0001')[0]));
    h.check(yours && mine.every((sq) => yours.includes(sq)), `${where}: my pieces on ${mine} in “${yours}”`);
    for (const e of st.legal) h.check(text.includes(moveSpoken(moveOf(e), t)), `${where}: the move ${e.action} said`);
    await h.shot(page, `described-${size}-${lang}`, { fullPage: false });
    await press('Escape');
  }

  // 200 % text: the board, the prompt and the moves show, nothing overlaps or leaves the screen
  async function twiceTheText() {
    await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
    const faults = await h.layout(page, { root: '.ur-table' });
    const parts = await page.evaluate(() => {
      const shown = (sel) => {
        const el = document.querySelector(sel);
        if (!el) return false;
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.left >= -1 && r.right <= document.documentElement.clientWidth + 1;
      };
      return { board: shown('.ur-board'), whose: shown('#ur-whose'), moves: shown('.ur-moves'), button: shown('.ur-mv'), wide: document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1,
        big: parseFloat(getComputedStyle(document.querySelector('.ur-mv')).fontSize) >= 24 };
    });
    await h.shot(page, `text200-${size}-${lang}`);
    await page.evaluate(() => (document.documentElement.style.fontSize = ''));
    h.check(Object.values(parts).every(Boolean), `${where}, 200 % text: ${JSON.stringify(parts)}`);
    h.expectLayout(faults, `${where}, 200 % text`);
  }
}
