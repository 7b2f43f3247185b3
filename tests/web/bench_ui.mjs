// bench_ui.mjs — figures of the browser UI for docs/benchmarks.md ("The
// browser UI"); not a test (no timed assertion). On loopback, Debian's
// chromium through playwright-core:
//   - time to first render of the lobby: navigation start → the games list
//     drawn (the page's performance mark 'parlour:lobby'), and → the form
//     ready with the server's `games` (mark 'parlour:games'); median of 10
//     fresh contexts (cold: nothing cached), desktop size;
//   - the bytes of script and style (uncompressed: decodedBodySize) that the
//     lobby and a room (ur, joined, its table drawn) load, with the list;
//   - karuta's table during readings: requestAnimationFrame intervals on the
//     desktop page of a person in a kyōgi room (25 cards a side against a
//     computer), from each reading's `reading` message to its judgement, for
//     READINGS readings; the intervals over 25 ms and where they fall (ms
//     after the `reading` message; the first kana comes ~1 s after it).
// Usage: node tests/web/bench_ui.mjs --parlour build/release/parlour --source .

import { Harness, skipReason } from './harness.mjs';

const why = skipReason();
if (why) {
  console.log('SKIP: ' + why);
  process.exit(77);
}
const h = new Harness('bench');
await h.start();
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const times = [], formTimes = [];
for (let i = 0; i < 10; i++) {
  const page = await h.page('desktop');
  await page.goto(h.url('/'));
  await page.waitForFunction(() => performance.getEntriesByName('parlour:lobby').length > 0);
  await page.waitForFunction(() => performance.getEntriesByName('parlour:games').length > 0);
  times.push(await page.evaluate(() => performance.getEntriesByName('parlour:lobby')[0].startTime));
  formTimes.push(await page.evaluate(() => performance.getEntriesByName('parlour:games')[0].startTime));
  await page.context().close();
}

async function bytes(page) {
  return page.evaluate(() => {
    const out = { script: 0, style: 0, files: [] };
    for (const e of performance.getEntriesByType('resource')) {
      const u = new URL(e.name);
      const kind = /\.m?js$/.test(u.pathname) ? 'script' : /\.css$/.test(u.pathname) ? 'style' : null;
      if (!kind) continue;
      out[kind] += e.decodedBodySize;
      out.files.push(`${u.pathname} ${e.decodedBodySize}`);
    }
    return out;
  });
}

const page = await h.page('desktop');
await page.goto(h.url('/'));
await page.waitForFunction(() => performance.getEntriesByName('parlour:lobby').length > 0);
const lobby = await bytes(page);
const { room } = await h.createRoom(page, { game: 'ur', seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] });
await h.join(page, room, 'Ann');
await page.locator('.table-root').waitFor();
await page.waitForTimeout(300);
const roomBytes = await bytes(page);

const READINGS = 4;
const kpage = await h.page('desktop');
await kpage.goto(h.url('/'));
const deal = Array.from({ length: 25 }, (_, i) => i + 1).join(';') + '/' + Array.from({ length: 25 }, (_, i) => i + 26).join(';');
const kroom = await h.createRoom(kpage, { game: 'karuta', options: { variant: 'kyogi', deal, memo_s: '0', upper_ms: '1000', lower_ms: '1000', yoin_ms: '0', pause_ms: '0' },
  seats: [{ kind: 'person' }, { kind: 'ai', level: 'easy' }] });
await h.join(kpage, kroom.room, 'Ann');
await kpage.locator('.kar-card').nth(49).waitFor();
await kpage.evaluate(() => {
  // every frame, tagged with the reading it fell in (from its `reading` message to its judgement)
  const k = window.__karuta;
  k.bench = [];
  const tick = (ts) => {
    const st = window.__parlour.page.room.state;
    const on = k.readingAt && k.reading && st && st.view.readings === k.reading.n && st.view.stage === 'touch';
    if (on || (k.bench.length && k.bench[k.bench.length - 1].n === (k.reading && k.reading.n) && ts - k.readingAt < 300))
      k.bench.push({ n: k.reading.n, ts, at: ts - k.readingAt });
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});
const first = (await h.state(kpage)).view.readings + 1;
await h.waitState(kpage, (s, n) => s.over || (s.view.readings >= n && s.view.stage !== 'touch'), first + READINGS - 1, 120000);
const frames = await kpage.evaluate(() => window.__karuta.bench);
const faults = await h.close();

const ms = times.map((t) => t.toFixed(1));
console.log(`lobby first render (navigation start → games drawn), ms: median ${median(times).toFixed(1)}, min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)} (${ms.join(' ')})`);
console.log(`lobby form ready (the server's games and options in the form), ms: median ${median(formTimes).toFixed(1)}, min ${Math.min(...formTimes).toFixed(1)}, max ${Math.max(...formTimes).toFixed(1)}`);
console.log(`lobby: script ${lobby.script} B, style ${lobby.style} B\n  ${lobby.files.join('\n  ')}`);
console.log(`room (ur, joined): script ${roomBytes.script} B, style ${roomBytes.style} B\n  ${roomBytes.files.join('\n  ')}`);
const byReading = new Map();
for (const f of frames) if (f.n >= first) (byReading.get(f.n) || byReading.set(f.n, []).get(f.n)).push(f);
let all = 0, over = 0, max = 0;
for (const [n, fs] of byReading) {
  const d = fs.slice(1).map((f, i) => [f.ts - fs[i].ts, fs[i].at]);
  const long = d.filter(([x]) => x > 25);
  all += d.length;
  over += long.length;
  max = Math.max(max, ...d.map(([x]) => x));
  console.log(`karuta reading ${n}: ${d.length} frame intervals over ${Math.round(fs[fs.length - 1].ts - fs[0].ts)} ms, ${long.length} > 25 ms${long.length ? ' (' + long.map(([x, at]) => `${x.toFixed(0)} ms at ${at.toFixed(0)}`).join(', ') + ')' : ''}`);
}
console.log(`karuta, ${byReading.size} readings: ${all} frame intervals, ${over} > 25 ms, max ${max.toFixed(1)} ms`);
if (faults.length) console.log('faults: ' + faults.join('; '));
