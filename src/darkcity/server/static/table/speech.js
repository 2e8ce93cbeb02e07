// Speaking and ticking: the browser's speech synthesis in the table's language, and a
// short tick from Web Audio. Both are optional; the count is shown either way.
import { speechLang } from "./i18n.js";

let audio = null;

export function say(text) {
  const synth = window.speechSynthesis;
  if (!synth || !window.SpeechSynthesisUtterance) return false;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = speechLang();
  u.rate = 1.1;
  synth.speak(u);
  return true;
}

export function hush() {
  if (window.speechSynthesis) window.speechSynthesis.cancel();
}

export function tick(loud) {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = loud ? 1320 : 880;
    g.gain.setValueAtTime(0.25, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.12);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.13);
  } catch (e) { /* no audio here: the count is still shown */ }
}
