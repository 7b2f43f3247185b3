// sound.js — the room's optional sounds (issue 32, §3): a move, a capture,
// your turn, a karuta reading's start. Off unless the reader turns them on
// (kept in localStorage 'parlour.sound'); made with the Web Audio API (short
// tones, no sound files, nothing fetched). Browsers start audio only after a
// gesture: the switch that turns sounds on is one.

const TONES = {
  move: [[520, 0.07]],
  capture: [[330, 0.08], [220, 0.14]],
  turn: [[660, 0.08], [880, 0.12]],
  reading: [[740, 0.1], [988, 0.1], [1175, 0.18]],
};
export const KINDS = Object.keys(TONES);

let audio = null;
let on = null;

/** Whether the reader has turned the sounds on. */
export function enabled() {
  if (on === null) {
    try {
      on = localStorage.getItem('parlour.sound') === 'on';
    } catch {
      on = false;
    }
  }
  return on;
}

/** Turns the sounds on or off (kept for the next visit). */
export function setEnabled(v) {
  on = !!v;
  try {
    localStorage.setItem('parlour.sound', on ? 'on' : 'off');
  } catch {}
  if (on) context();
}

function context() {
  if (audio) return audio;
  const AC = typeof window !== 'undefined' && (window.AudioContext || window.webkitAudioContext);
  if (!AC) return null;
  try {
    audio = new AC();
  } catch {
    audio = null;
  }
  return audio;
}

/** Plays the sound of `kind` (KINDS) when sounds are on; returns whether
 * it played (the browser tests count them through `window.parlourSounds`). */
export function play(kind) {
  if (!enabled() || !TONES[kind]) return false;
  if (typeof window !== 'undefined') (window.parlourSounds = window.parlourSounds || []).push(kind);
  const ac = context();
  if (!ac) return true;
  let at = ac.currentTime + 0.01;
  for (const [freq, len] of TONES[kind]) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.frequency.value = freq;
    osc.type = 'sine';
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + len);
    osc.connect(gain).connect(ac.destination);
    osc.start(at);
    osc.stop(at + len + 0.02);
    at += len;
  }
  return true;
}
