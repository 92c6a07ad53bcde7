/* kradan serve: the sound of a move, a short wooden knock made by the browser (a lower one for
 * a capture; no sound file is needed), and the button that turns it off and on. The choice is
 * kept in this browser; window.kradan.sounds counts the knocks (for the tests). */
import { remember } from './api.js';
import { SOUND_KEY } from './state.js';
import { t } from './words.js';

let audio = null; // the AudioContext, made on the first sound (browsers want a gesture first)

export function knock(state, capture) {
  if (!state.sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'triangle';
    tone.frequency.setValueAtTime(capture ? 180 : 260, now);
    tone.frequency.exponentialRampToValueAtTime(90, now + 0.08);
    gain.gain.setValueAtTime(0.25, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.13);
    window.kradan.sounds += 1;
  } catch (error) {
    /* no audio here: play on in silence */
  }
}

/** Knock for the moves ``next`` adds to ``previous`` (a capture's SAN has an "x"). */
export function knockForNewMoves(state, previous, next) {
  if (!previous || (next.moves || []).length <= (previous.moves || []).length) return;
  const played = (next.san || []).slice((previous.san || []).length);
  knock(state, played.some(text => text.includes('x')));
}

function renderSound(state) {
  const button = document.querySelector('#sound');
  button.textContent = state.sound ? t('Sound off') : t('Sound on');
  button.setAttribute('aria-pressed', String(state.sound));
}

export function initSound(state) {
  document.querySelector('#sound').addEventListener('click', () => {
    state.sound = !state.sound;
    remember(SOUND_KEY, state.sound ? 'on' : 'off');
    renderSound(state);
  });
  renderSound(state);
}
