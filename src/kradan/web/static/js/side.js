/* kradan serve: the panel beside the board: the players, whose turn it is or how the game
 * ended, the count, a draw offer, the waits of a game nobody plays, the buttons that turn the board and its words, and the
 * messages of the server. */
import { showMessage } from './message.js';
import { remember } from './api.js';
import { renderActions } from './actions.js';
import { showLabels } from './board.js';
import { renderClocks } from './clock.js';
import { renderAfterGame } from './after-game.js';
import { renderExports } from './exports.js';
import { renderWaits } from './waits.js';
import { LABELS_KEY, NOTATION_KEY, playing } from './state.js';
import {
  colorName, countingText, labelsSwitchText, opposite, otherLabels, playerText, t, terminationText,
} from './words.js';

const $ = selector => document.querySelector(selector);

function statusText(state) {
  const { game } = state;
  if (playing(state) && game.setup) return t('The setup: each side arranges its camp unseen');
  if (playing(state)) {
    const thinking = String((game.players || {})[game.turn] || '').startsWith('engine');
    return thinking
      ? t('{color} to move (the engine is thinking)', { color: colorName(game.turn) })
      : t('{color} to move', { color: colorName(game.turn) });
  }
  if (game.termination === 'aborted') return t('Game aborted');
  const how = terminationText(game.termination);
  return how ? `${game.result} · ${how}` : game.result;
}

export function renderSide(state) {
  const { game, info, orientation } = state;
  if (!game) return;
  const top = opposite(orientation);
  const players = game.players || {};
  $('#name-top').textContent = `${colorName(top)}: ${playerText(players[top])}`;
  $('#name-bottom').textContent = `${colorName(orientation)}: ${playerText(players[orientation])}`;
  const moving = playing(state) && !game.setup;
  $('.player-top').classList.toggle('to-move', moving && game.turn === top);
  $('.player-bottom').classList.toggle('to-move', moving && game.turn === orientation);
  $('#title').textContent = info.title;
  document.title = `kradan: ${info.title}`;

  const status = $('#status');
  status.classList.toggle('ended', !playing(state));
  status.textContent = statusText(state);
  if (state.viewPly !== null) {
    const note = document.createElement('span');
    note.className = 'history-note';
    note.textContent = ' ' + t('(viewing move {n})', { n: state.viewPly });
    status.append(note);
  }
  const counting = $('#counting');
  counting.hidden = !game.counting;
  counting.textContent = game.counting ? countingText(game.counting) : '';
  const offer = $('#draw-offer');
  offer.hidden = !(playing(state) && game.draw_offer);
  if (game.draw_offer) offer.textContent = t('{color} offers a draw', { color: colorName(game.draw_offer) });

  renderActions(state);
  renderWaits(state);
  $('#labels').textContent = labelsSwitchText(state.labels);
  const notation = $('#notation');
  notation.hidden = !game.thai_san;
  notation.textContent = state.notation === 'thai' ? t('Moves in SAN') : t('Moves in Thai SAN');
  renderExports(state);
  renderAfterGame(state);
  renderClocks(state);
}

/** The buttons that turn the board, switch its coordinates and the notation of the moves. */
export function initSide(ctrl) {
  const { state } = ctrl;
  $('#flip').addEventListener('click', () => {
    if (!state.board) return;
    state.orientation = opposite(state.orientation);
    state.board.toggleOrientation();
    renderSide(state);
  });
  $('#notation').addEventListener('click', () => {
    state.notation = state.notation === 'thai' ? 'san' : 'thai';
    remember(NOTATION_KEY, state.notation);
    ctrl.renderMoves();
    renderSide(state);
  });
  $('#labels').addEventListener('click', () => {
    state.labels = otherLabels(state.labels);
    remember(LABELS_KEY, state.labels);
    if (state.board) {
      showLabels(state);
      ctrl.renderBoard();
    }
    renderSide(state);
  });
}

export { showMessage };
