// harness.mjs — what every browser test of the web UI (tests/web/test_*.mjs)
// uses: `parlour serve` on a free port with a temporary database and
// --test-seed, Debian's /usr/bin/chromium driven by playwright-core (never a
// downloaded browser), browser contexts at phone (360×740) and desktop
// (1366×768) size, a record of every request (any not to the server fails the
// test), uncaught page errors and missing i18n keys (fail too), screenshots
// into a folder, and a layout check (elements overlapping or outside the
// viewport, horizontal scroll on a phone).
//
// Command line of a test (CTest passes them; tests/CMakeLists.txt):
//   node tests/web/test_X.mjs --parlour BUILD/parlour --source SRC [--shots DIR]
// or the environment: PARLOUR_BIN, PARLOUR_SOURCE, PARLOUR_WEB_SHOTS.
// Exit: 0 passed, 1 failed, 77 skipped (chromium or tests/web/node_modules
// missing: scripts/deps.sh installs both).
//
// A test:
//   import { run } from './harness.mjs';
//   run('lobby', async (h) => {
//     const page = await h.page('phone', { lang: 'ru' });   // a new context
//     await page.goto(h.url('/'));
//     await h.step('renders', async () => { ... h.check(cond, 'what') ... });
//     h.expectLayout(await h.layout(page));                  // [] when fine
//     await h.shot(page, 'lobby-phone');                     // SHOTS/lobby-lobby-phone.png
//   });

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CHROMIUM = process.env.PARLOUR_CHROMIUM || '/usr/bin/chromium';
export const SIZES = {
  phone: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1366, height: 768 }, deviceScaleFactor: 1 },
};

function argValue(name) {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

export const config = {
  parlour: argValue('parlour') || process.env.PARLOUR_BIN || path.join(here, '../../build/release/parlour'),
  source: path.resolve(argValue('source') || process.env.PARLOUR_SOURCE || path.join(here, '../..')),
  shots: path.resolve(argValue('shots') || process.env.PARLOUR_WEB_SHOTS || path.join(process.cwd(), 'web-shots')),
};

export class TestFailure extends Error {}

/** The reason the browser tests cannot run here, or null. */
export function skipReason() {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing (scripts/deps.sh installs Debian's chromium)`;
  if (!existsSync(path.join(here, 'node_modules/playwright-core')))
    return 'tests/web/node_modules is missing (run: PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix tests/web; scripts/deps.sh does)';
  return null;
}

/** `parlour serve --port 0` on a temporary database; resolves once it listens. */
export async function startServer({ seed = 42, extra = [] } = {}) {
  const tmp = mkdtempSync(path.join(tmpdir(), 'parlour-web-'));
  const args = ['serve', '--port', '0', '--db', path.join(tmp, 'parlour.db'), '--web', path.join(config.source, 'web'), '--test-seed', String(seed), ...extra];
  const proc = spawn(path.resolve(config.parlour), args, { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout.on('data', (d) => (log += d));
  proc.stderr.on('data', (d) => (log += d));
  const exited = new Promise((res) => proc.on('exit', (code, sig) => res({ code, sig })));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('parlour serve did not listen in 30 s:\n' + log)), 30000);
    const look = () => {
      const m = log.match(/listening on http:\/\/[^:/ ]+:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    proc.stdout.on('data', look);
    proc.on('error', (e) => reject(e));
    exited.then((x) => reject(new Error(`parlour serve exited (${x.code ?? x.sig}) before listening:\n${log}`)));
  });
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    log: () => log,
    /** SIGTERM; resolves to the exit code (0 expected). */
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 20000);
      const x = await exited;
      clearTimeout(t);
      rmSync(tmp, { recursive: true, force: true });
      return x.code === null ? 'signal ' + x.sig : x.code;
    },
  };
}

/** The layout check, run in the page (see Harness.layout). */
function layoutInPage(opts) {
  const vw = document.documentElement.clientWidth;
  const faults = [];
  const sx = window.scrollX, sy = window.scrollY;
  if (!opts.allowScrollX && document.documentElement.scrollWidth > vw + 1)
    faults.push(`horizontal scroll: the page is ${document.documentElement.scrollWidth} px wide, the viewport ${vw} px`);
  const root = document.querySelector(opts.root || 'body');
  if (!root) return [`no element ${opts.root}`];
  const ATOM = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'IMG', 'CANVAS', 'VIDEO', 'svg']);
  const items = [];
  const visible = (el) => {
    // checkVisibility: false inside a closed <details> (content-visibility) too
    if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0;
  };
  if (opts.items) items.push(...root.querySelectorAll(opts.items));
  else {
    const walk = (el) => {
      if (!visible(el) || el.closest('[data-layout-skip]')) return;
      if (ATOM.has(el.tagName) || el.tagName === 'svg') {
        items.push(el);
        return;
      }
      if ([...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) items.push(el);
      for (const c of el.children) walk(c);
    };
    walk(root);
  }
  // an element's boxes (line boxes for inline text), clipped by scrolling ancestors
  const clipOf = (el) => {
    let c = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
        const r = a.getBoundingClientRect();
        c = { l: Math.max(c.l, r.left), t: Math.max(c.t, r.top), r: Math.min(c.r, r.right), b: Math.min(c.b, r.bottom) };
      }
    }
    return c;
  };
  const boxes = [];
  for (const el of items) {
    if (!visible(el)) continue;
    const c = clipOf(el);
    const clipped = c.l > -Infinity;
    const rects = getComputedStyle(el).display.startsWith('inline') && !ATOM.has(el.tagName) ? [...el.getClientRects()] : [el.getBoundingClientRect()];
    for (const r of rects) {
      const b = { l: Math.max(r.left, c.l), t: Math.max(r.top, c.t), r: Math.min(r.right, c.r), b: Math.min(r.bottom, c.b) };
      if (b.r - b.l < 1 || b.b - b.t < 1) continue;
      boxes.push({ el, b, clipped, raw: r });
    }
  }
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = el.getAttribute('class');
    if (cls) s += '.' + cls.trim().split(/\s+/).join('.');
    const text = (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 30);
    return text ? `${s} "${text}"` : s;
  };
  for (const { el, raw, clipped } of boxes) {
    if (clipped) continue; // inside a scrolling box: it scrolls into view
    if (raw.left + sx < -1 || raw.right + sx > vw + (opts.allowScrollX ? Infinity : 1) || raw.top + sy < -1)
      faults.push(`outside the viewport: ${name(el)} at x ${Math.round(raw.left + sx)}..${Math.round(raw.right + sx)}, y ${Math.round(raw.top + sy)} (viewport ${vw} px wide)`);
  }
  const allow = opts.allowOverlap ? (el) => el.closest(opts.allowOverlap) : () => false;
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const A = boxes[i], B = boxes[j];
      if (A.el === B.el || A.el.contains(B.el) || B.el.contains(A.el)) continue;
      if (allow(A.el) && allow(B.el)) continue;
      const w = Math.min(A.b.r, B.b.r) - Math.max(A.b.l, B.b.l);
      const hgt = Math.min(A.b.b, B.b.b) - Math.max(A.b.t, B.b.t);
      if (w > 1 && hgt > 1) faults.push(`overlap: ${name(A.el)} and ${name(B.el)} (${Math.round(w)}×${Math.round(hgt)} px)`);
    }
  return [...new Set(faults)].slice(0, 40);
}

export class Harness {
  constructor(name) {
    this.name = name;
    this.server = null;
    this.browser = null;
    this.contexts = [];
    this.foreign = []; // requests not to the server
    this.pageErrors = [];
    this.missingSeen = new Set(); // i18n keys a page did not find (its console warnings)
    this.passed = 0;
    this.shotsTaken = [];
  }

  async start(opts = {}) {
    const { chromium } = await import('playwright-core');
    this.server = await startServer(opts);
    this.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: (process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : []).concat(['--disable-dev-shm-usage']),
    });
    mkdirSync(config.shots, { recursive: true });
  }

  /** The server's URL of `p` ("/room/CODE"). */
  url(p = '/') {
    return this.server.origin + p;
  }

  /** A new browser context of `size` ('phone' or 'desktop'), its language `lang`. */
  async context(size = 'desktop', { lang = 'en' } = {}) {
    const ctx = await this.browser.newContext({
      ...SIZES[size],
      locale: { ru: 'ru-RU', ja: 'ja-JP', vi: 'vi-VN' }[lang] || 'en-US',
      acceptDownloads: true,
      serviceWorkers: 'block',
    });
    ctx.setDefaultTimeout(20000);
    const origin = this.server.origin;
    const wsOrigin = origin.replace('http:', 'ws:');
    const ok = (u) => u.startsWith(origin + '/') || u.startsWith(wsOrigin + '/') || /^(data|blob|about):/.test(u);
    ctx.on('request', (r) => {
      if (!ok(r.url())) this.foreign.push(r.url());
    });
    ctx.on('page', (p) => this._watch(p, ok));
    this.contexts.push(ctx);
    return ctx;
  }

  _watch(p, ok) {
    p.on('websocket', (ws) => {
      if (!ok(ws.url())) this.foreign.push(ws.url());
    });
    p.on('pageerror', (e) => this.pageErrors.push(String(e && e.stack ? e.stack : e)));
    p.on('console', (m) => {
      const k = /^parlour: missing i18n key (.*)$/.exec(m.text());
      if (k) this.missingSeen.add(k[1]);
    });
  }

  /** axe-core (npm, tests/web/node_modules) run on `page` as it is now:
   * returns the violations of impact `serious` or `critical` (WCAG 2.x A
   * and AA rules and axe's best practices), each {id, impact, help, nodes:
   * [selector…]}. `opts.include` / `opts.exclude`: CSS selectors to limit
   * the run. The tests fail on any (issue 32). */
  async axe(page, opts = {}) {
    const has = await page.evaluate(() => typeof window.axe === 'object');
    // evaluated through the DevTools protocol: the page's Content-Security-Policy (script-src 'self') stays as it is
    if (!has) await page.evaluate(readFileSync(path.join(here, 'node_modules/axe-core/axe.min.js'), 'utf8') + '\n;0');
    const res = await page.evaluate(async (o) => {
      const ctx = o.include || o.exclude ? { include: o.include ? [o.include] : undefined, exclude: o.exclude ? [o.exclude] : [] } : document;
      const r = await window.axe.run(ctx, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ') + (n.failureSummary ? ' — ' + n.failureSummary.replace(/\s+/g, ' ').slice(0, 200) : '')) }));
    }, opts);
    return res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  /** Fails the test when axe finds a serious or critical violation on
   * `page` (see axe()); `what` names the page in the message. */
  async expectAxeClean(page, what, opts = {}) {
    const v = await this.axe(page, opts);
    this.check(v.length === 0, `${what}: axe finds ${v.length} serious or critical violations: ` +
      v.map((x) => `${x.id} (${x.impact}: ${x.help}) at ${x.nodes.slice(0, 3).join(' | ')}`).join('; '));
  }

  /** A page in a new context (see context()). */
  async page(size = 'desktop', opts = {}) {
    const ctx = await this.context(size, opts);
    return ctx.newPage();
  }

  /** A named step: prints ok / not ok; a failure ends the test. */
  async step(title, fn) {
    try {
      await fn();
      this.passed++;
      console.log(`ok - ${this.name}: ${title}`);
    } catch (e) {
      console.log(`not ok - ${this.name}: ${title}`);
      throw e;
    }
  }

  check(cond, what) {
    if (!cond) throw new TestFailure('check failed: ' + what);
  }

  /** A screenshot saved as SHOTS/NAME-what.png (the full page, or with
   * { fullPage: false } the viewport only); returns its path. */
  async shot(page, what, { fullPage = true } = {}) {
    const file = path.join(config.shots, `${this.name}-${what}.png`);
    await page.screenshot({ path: file, fullPage });
    this.shotsTaken.push(file);
    return file;
  }

  /** Layout faults of the page (strings; [] when none): horizontal scroll
   * (unless allowScrollX), elements outside the viewport, elements that
   * overlap. opts: root (a selector, default body), items (a selector of the
   * elements to check; default: every visible element with its own text, and
   * buttons, inputs, selects, images, svg — an svg as one), allowOverlap (a
   * selector: elements inside it may overlap each other), allowScrollX.
   * Elements marked data-layout-skip are left out. */
  async layout(page, opts = {}) {
    return page.evaluate(layoutInPage, opts);
  }

  /** What a player sees without scrolling (issue 31, "fits the screen"):
   * `parts` maps a name to a CSS selector; returns the names (with where the
   * element lies) whose first visible match is missing, or not wholly inside
   * the viewport at the current scroll (scrolled to the top first unless
   * opts.keepScroll); [] when every part is in view. */
  async unseen(page, parts, opts = {}) {
    return page.evaluate(
      ({ parts, keepScroll }) => {
        if (!keepScroll) window.scrollTo(0, 0);
        const vw = window.innerWidth, vh = window.innerHeight, out = [];
        for (const [name, sel] of Object.entries(parts)) {
          const el = [...document.querySelectorAll(sel)].find((e) => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
          });
          if (!el) { out.push(`${name} (${sel}): not shown`); continue; }
          const r = el.getBoundingClientRect();
          if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1)
            out.push(`${name} (${sel}): at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${vw}×${vh}`);
        }
        return out;
      },
      { parts, keepScroll: !!opts.keepScroll },
    );
  }

  /** Fails the test when `unseen` names any part. */
  async expectInView(page, parts, where = '', opts = {}) {
    const out = await this.unseen(page, parts, opts);
    if (out.length) throw new TestFailure(`not in view without scrolling${where ? ' (' + where + ')' : ''}:\n  ` + out.join('\n  '));
  }

  expectLayout(faults, where = '') {
    if (faults.length) throw new TestFailure(`layout faults${where ? ' (' + where + ')' : ''}:\n  ` + faults.join('\n  '));
  }

  /** The keys the page could not find in its catalogues (should be []). */
  async missingKeys(page) {
    return page.evaluate(() => (window.__parlour ? [...window.__parlour.missing] : ['no window.__parlour']));
  }

  /** Makes a room over the page's own WebSocket (a create message); resolves to {room, link}. */
  async createRoom(page, spec) {
    return page.evaluate(
      (spec) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws', 'parlour.v1');
          ws.onopen = () => ws.send(JSON.stringify({ type: 'create', ...spec }));
          ws.onmessage = (ev) => {
            const m = JSON.parse(ev.data);
            if (m.type === 'created') {
              ws.close();
              resolve(m);
            } else if (m.type === 'error') {
              ws.close();
              reject(new Error(m.message));
            }
          };
        }),
      spec,
    );
  }

  /** The room page's last `state` message (null before the first). */
  async state(page) {
    return page.evaluate(() => {
      const p = window.__parlour && window.__parlour.page;
      return p && p.room ? p.room.state : null;
    });
  }

  /** Waits until the room page's last state satisfies pred(state, arg) (run
   * here in node on a copy; the page's CSP forbids eval); resolves to it.
   * Fails after `timeout` ms (default 20 s). */
  async waitState(page, pred, arg, timeout = 20000) {
    const until = Date.now() + timeout;
    let st = null;
    for (;;) {
      st = await this.state(page);
      if (st && pred(st, arg)) return st;
      if (Date.now() > until)
        throw new TestFailure(`waitState: ${pred.toString()} not true within ${timeout} ms; last state: ${JSON.stringify(st).slice(0, 600)}`);
      await new Promise((r) => setTimeout(r, 40));
    }
  }

  /** Opens /room/CODE and joins with `name` by the form; resolves to the seat. */
  async join(page, room, name) {
    await page.goto(this.url('/room/' + room));
    await page.fill('#join-name', name);
    await page.click('#join-button');
    const st = await this.waitState(page, (st) => st.seat >= 0);
    return st.seat;
  }

  /** Sends an act as a table would (api.act; `seat` for a partner seat): for tests of illegal moves. */
  async act(page, text, seat) {
    await page.evaluate(([text, seat]) => {
      const p = window.__parlour.page;
      const msg = { type: 'act', action: text };
      if (p.room.state) msg.seq = p.room.state.seq;
      if (seat !== undefined && seat !== null) msg.seat = seat;
      window.__parlour.net.send(msg);
    }, [text, seat]);
  }

  /** Closes everything; returns the faults found on the way (strings). */
  async close() {
    const faults = [];
    for (const ctx of this.contexts) await ctx.close().catch(() => {});
    if (this.browser) await this.browser.close().catch(() => {});
    if (this.foreign.length) faults.push('requests outside the server: ' + [...new Set(this.foreign)].join(', '));
    if (this.pageErrors.length) faults.push('uncaught errors in the page:\n  ' + this.pageErrors.join('\n  '));
    if (this.missingSeen.size) faults.push('missing i18n keys: ' + [...this.missingSeen].join(', '));
    if (this.server) {
      const rc = await this.server.stop();
      if (rc !== 0) faults.push(`parlour serve exited with ${rc} after SIGTERM:\n${this.server.log().slice(-4000)}`);
    }
    return faults;
  }
}

/** Runs a browser test: skips (77) when chromium or node_modules are
 * missing, prints "N passed, N failed" and exits 0 or 1. */
export async function run(name, fn, opts = {}) {
  const why = skipReason();
  if (why) {
    console.log(`SKIP ${name}: ${why}`);
    process.exit(77);
  }
  const h = new Harness(name);
  let failed = 0;
  try {
    await h.start(opts);
    await fn(h);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e && e.stack ? e.stack : e}`);
    if (h.server) console.log('--- server log (tail) ---\n' + h.server.log().slice(-3000));
  }
  let faults = [];
  try {
    faults = await h.close();
  } catch (e) {
    faults.push('closing: ' + e);
  }
  for (const f of faults) console.log(`FAIL ${name}: ${f}`);
  failed += faults.length;
  if (h.shotsTaken.length) console.log(`screenshots: ${h.shotsTaken.join(' ')}`);
  console.log(`${h.passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

/** The text of a file of the source tree. */
export function sourceFile(rel) {
  return readFileSync(path.join(config.source, rel), 'utf8');
}
