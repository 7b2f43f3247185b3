// qr.js — a QR code drawn as SVG, with Kazuhiko Arase's qrcode-generator
// (MIT; vendored unchanged as js/vendor/qrcode-generator.mjs with its licence
// beside it: a well-kept, dependency-free encoder, so the page carries no
// home-made Reed–Solomon code). Loaded only when an invitation is shown.
// Error correction level M, byte mode, the smallest version that fits.

import qrcode from './vendor/qrcode-generator.mjs';

/** The QR matrix of `text`: an array of rows of booleans (true: dark). */
export function qrMatrix(text) {
  const q = qrcode(0, 'M');
  q.addData(unescape(encodeURIComponent(text)), 'Byte'); // UTF-8 bytes
  q.make();
  const n = q.getModuleCount();
  const rows = [];
  for (let r = 0; r < n; r++) {
    const row = [];
    for (let c = 0; c < n; c++) row.push(q.isDark(r, c));
    rows.push(row);
  }
  return rows;
}

/** An <svg> of the code of `text` with a 4-module quiet zone; `label` is its accessible name. */
export function qrSvg(text, label) {
  const m = qrMatrix(text);
  const n = m.length + 8;
  let d = '';
  m.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (dark) d += 'M' + (c + 4) + ' ' + (r + 4) + 'h1v1h-1z';
    }),
  );
  const NS = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(NS, 'svg');
  s.setAttribute('viewBox', '0 0 ' + n + ' ' + n);
  s.setAttribute('class', 'qr');
  s.setAttribute('role', 'img');
  s.setAttribute('aria-label', label);
  s.setAttribute('shape-rendering', 'crispEdges');
  const bg = document.createElementNS(NS, 'rect');
  bg.setAttribute('width', n);
  bg.setAttribute('height', n);
  bg.setAttribute('fill', '#fff');
  const p = document.createElementNS(NS, 'path');
  p.setAttribute('d', d);
  p.setAttribute('fill', '#000');
  s.append(bg, p);
  return s;
}
