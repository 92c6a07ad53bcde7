/* kradan serve: the two clocks. The server sends each side's time and which clock runs; the
 * page counts the running one down from the moment the state came, ten times a second. While
 * the connection is lost (state.lostAt) the clocks stand still where they were: the server
 * keeps the time, and its next state says what is left. */
import { playing } from './state.js';
import { digits, opposite } from './words.js';

const $ = selector => document.querySelector(selector);

/** ``ms`` as m:ss, with tenths under ten seconds. */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  const minutes = Math.floor(clamped / 60000);
  const seconds = Math.floor((clamped % 60000) / 1000);
  const text = `${minutes}:${String(seconds).padStart(2, '0')}`;
  if (clamped < 10000) return `${text}.${Math.floor((clamped % 1000) / 100)}`;
  return text;
}

/** Keep the clocks of a new state (null: a game without clocks). */
export function setClocks(state, clock) {
  state.clock = clock ? Object.assign({ at: performance.now() }, clock) : null;
}

export function renderClocks(state) {
  const top = $('#clock-top');
  const bottom = $('#clock-bottom');
  if (!state.game || !state.clock) {
    top.textContent = '';
    bottom.textContent = '';
    return;
  }
  const now = state.lostAt === null ? performance.now() : state.lostAt;
  for (const [element, color] of [[top, opposite(state.orientation)], [bottom, state.orientation]]) {
    let ms = state.clock[color + '_ms'];
    const running = playing(state) && state.clock.running === color;
    if (running) ms -= Math.max(0, now - state.clock.at);
    element.textContent = digits(formatClock(ms));
    element.classList.toggle('running', running);
    element.classList.toggle('low', ms < 10000);
  }
}

export function startClocks(state) {
  setInterval(() => renderClocks(state), 100);
}
