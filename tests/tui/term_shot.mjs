// term_shot.mjs TEXT... — draws terminal screens (tmux capture-pane text, one
// file each) as PNG pictures beside them (NAME.txt → NAME.png): a dark
// terminal of 80 columns: Japanese (a name ending in -ja.txt) in Noto Sans
// Mono CJK, where a kana or kanji is exactly two columns as in the
// terminal; the others in DejaVu Sans Mono, which has every Vietnamese letter
// at one column (Noto's CJK mono font lacks some and falls back to
// proportional ones). For docs/screenshots/terminal-*
// (docs/terminal.md); not a test. Needs tests/web/node_modules
// (playwright-core) and Debian's chromium.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const { chromium } = createRequire(new URL('../web/', import.meta.url))('playwright-core');

const browser = await chromium.launch({ executablePath: process.env.PARLOUR_CHROMIUM || '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 900, height: 560 }, deviceScaleFactor: 1 });
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  const fonts = /-ja\.txt$/.test(file) ? "'Noto Sans Mono CJK JP','DejaVu Sans Mono'" : "'DejaVu Sans Mono','Noto Sans Mono CJK JP'";
  await page.setContent('<!doctype html><meta charset="utf-8"><body style="margin:0;background:#1d1f21">' +
    `<pre id="t" style="margin:0;padding:8px;color:#e0e0e0;background:#1d1f21;font:16px/22px ${fonts},monospace;` +
    'width:80ch;height:528px"></pre>');
  await page.evaluate((t) => { document.getElementById('t').textContent = t; }, text);
  await page.locator('#t').screenshot({ path: file.replace(/\.txt$/, '.png') });
}
await browser.close();
