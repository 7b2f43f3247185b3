// test_qr.mjs — the QR code of the invitation (web/js/qr.js), in node: the
// vendored qrcode-generator is the npm package's file unchanged, and the
// matrix qr.js makes for fixed texts (byte mode, level M) equals, module for
// module, the one an independent encoder (npm `qrcode` by soldair) makes for
// the same text, version and mask. Exits 77 without tests/web/node_modules.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const mods = path.join(here, 'node_modules');
if (!existsSync(path.join(mods, 'qrcode')) || !existsSync(path.join(mods, 'qrcode-generator'))) {
  console.log('SKIP qr: tests/web/node_modules is missing (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix tests/web)');
  process.exit(77);
}
const { qrMatrix } = await import('../../web/js/qr.js');
const QRCode = (await import('qrcode')).default;

let passed = 0, failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else failed++;
  console.log(`${cond ? 'ok' : 'not ok'} - qr: ${what}`);
}

const vendored = readFileSync(path.join(here, '../../web/js/vendor/qrcode-generator.mjs'));
const upstream = readFileSync(path.join(mods, 'qrcode-generator/dist/qrcode.mjs'));
check(vendored.equals(upstream), 'web/js/vendor/qrcode-generator.mjs is the npm file unchanged');
check(existsSync(path.join(here, '../../web/js/vendor/qrcode-generator.LICENSE')), 'its licence is beside it');

const texts = [
  'http://127.0.0.1:8080/room/eb442faba05f7531b750841dc6dc50a6',
  'https://parlour.example/room/0123456789abcdef0123456789abcdef',
  'HELLO WORLD',
  'Игра: карута — かるた',
  'x'.repeat(200),
];
for (const text of texts) {
  const m = qrMatrix(text);
  const n = m.length;
  const version = (n - 17) / 4;
  let same = [];
  for (let mask = 0; mask < 8; mask++) {
    const ref = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M', version, maskPattern: mask });
    const size = ref.modules.size;
    if (size !== n) continue;
    let eq = true;
    for (let r = 0; r < n && eq; r++) for (let c = 0; c < n && eq; c++) eq = !!ref.modules.get(r, c) === m[r][c];
    if (eq) same.push(mask);
  }
  check(version >= 1 && version <= 10 && same.length === 1, `"${text.slice(0, 40)}": version ${version}, equals the reference with mask ${same.join(',')}`);
}
// the encoder really depends on its input: two texts, two matrices
check(JSON.stringify(qrMatrix('a')) !== JSON.stringify(qrMatrix('b')), 'different texts give different codes');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
