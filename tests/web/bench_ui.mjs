// bench_ui.mjs — figures of the browser UI for docs/benchmarks.md ("The
// browser UI"); not a test (no timed assertion). On loopback, Debian's
// chromium through playwright-core:
//   - time to first render of the lobby: navigation start → the games list
//     drawn (the page's performance mark 'parlour:lobby'), and → the form
//     ready with the server's `games` (mark 'parlour:games'); median of 10
//     fresh contexts (cold: nothing cached), desktop size;
//   - the bytes of script and style (uncompressed: decodedBodySize) that the
//     lobby and a room (ur, joined, its table drawn) load, with the list.
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
const faults = await h.close();

const ms = times.map((t) => t.toFixed(1));
console.log(`lobby first render (navigation start → games drawn), ms: median ${median(times).toFixed(1)}, min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)} (${ms.join(' ')})`);
console.log(`lobby form ready (the server's games and options in the form), ms: median ${median(formTimes).toFixed(1)}, min ${Math.min(...formTimes).toFixed(1)}, max ${Math.max(...formTimes).toFixed(1)}`);
console.log(`lobby: script ${lobby.script} B, style ${lobby.style} B\n  ${lobby.files.join('\n  ')}`);
console.log(`room (ur, joined): script ${roomBytes.script} B, style ${roomBytes.style} B\n  ${roomBytes.files.join('\n  ')}`);
if (faults.length) console.log('faults: ' + faults.join('; '));
