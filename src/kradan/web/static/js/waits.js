/* kradan serve: the waits of a game nobody plays (the server's rules: docs/club.md). Before
 * both sides have moved, the player sees how long the side to move has for its first move
 * before the server aborts the game (the view's abort_in_ms); once the opponent has left a
 * started game (the view's gone), a notice counts down to the moment the game may be claimed,
 * then "Claim the win" shows. The server sends each wait as it stood when it sent the state;
 * the page counts it down from the moment the state came. A spectator, and a board that plays
 * both sides, see none of this. */
import { myColors, playing } from './state.js';
import { t } from './words.js';

const $ = selector => document.querySelector(selector);

/** Keep the moment a new state came: its waits count down from there. */
export function noteWaits(state) {
  state.waitsAt = performance.now();
}

const left = (state, ms) => Math.max(0, ms - (performance.now() - (state.waitsAt || 0)));

/** The one seat this browser plays (null: a spectator, or both sides on one screen). */
function soleSeat(state) {
  const mine = myColors(state);
  return mine.length === 1 ? mine[0] : null;
}

/** The opponent who left, when this browser's player may claim the game (null: none). */
function opponentGone(state) {
  const me = soleSeat(state);
  const gone = state.game && state.game.gone;
  return playing(state) && me && gone && gone.side !== me ? gone : null;
}

/** Whether the claim of the game may be made now. */
export function claimReady(state) {
  const gone = opponentGone(state);
  return Boolean(gone) && left(state, gone.claim_in_ms) === 0;
}

/** The notice of the waits, and the claim's button. */
export function renderWaits(state) {
  const notice = $('#waits');
  const { game } = state;
  const me = soleSeat(state);
  const gone = opponentGone(state);
  let text = '';
  if (gone) {
    const seconds = Math.ceil(left(state, gone.claim_in_ms) / 1000);
    text = seconds > 0
      ? t('Your opponent left the game. You can claim the win in {n} s.', { n: seconds })
      : t('Your opponent left the game.');
  } else if (me && playing(state) && typeof game.abort_in_ms === 'number') {
    const n = Math.ceil(left(state, game.abort_in_ms) / 1000);
    text = game.turn === me
      ? t('Make your first move within {n} s, or the game is aborted.', { n })
      : t('The game is aborted if your opponent does not move within {n} s.', { n });
  }
  if (notice.textContent !== text) notice.textContent = text;
  notice.hidden = !text;
  const claim = $('[data-action="claim_win"]');
  if (claim) claim.hidden = !claimReady(state);
}

/** Count the waits down, four times a second. */
export function startWaits(state) {
  setInterval(() => renderWaits(state), 250);
}
