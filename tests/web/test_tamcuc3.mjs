// test_tamcuc3.mjs — Tam Cúc with 3 players in a real browser: a whole game
// through the tables, laid out right at 360 px (Russian) and on a desktop,
// the score table's words unbroken (tests/web/tamcuc_play.mjs).

import { run } from './harness.mjs';
import { playWhole } from './tamcuc_play.mjs';

run('tamcuc3', (h) => playWhole(h, 3));
