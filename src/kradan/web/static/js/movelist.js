/* kradan serve: the move list, and stepping through the game with it (a click on a move, the
 * buttons under the list, the arrow keys, Home and End). The positions come from the server,
 * one per ply: the page replays nothing. */
import { moveNumber, sideToMove } from './position.js';
import { digits, opposite, t } from './words.js';

const $ = selector => document.querySelector(selector);

const total = game => (game.moves || []).length;
export const shownPly = state => (state.viewPly === null ? total(state.game) : state.viewPly);
/** Whether the server sent a position for each ply (older servers did not). */
const browsable = game => (game.positions || []).length === total(game) + 1;

function cell(text, className) {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = text;
  return span;
}

/** The moves, numbered, in SAN or Thai SAN; the one on view marked. */
export function renderMoves(ctrl) {
  const { state } = ctrl;
  const { game } = state;
  const list = $('#moves');
  list.textContent = '';
  const moves = game.moves || [];
  const thai = state.notation === 'thai' && game.thai_san && game.thai_san.length === moves.length;
  const san = thai ? game.thai_san : game.san && game.san.length === moves.length ? game.san : moves;
  list.classList.toggle('thai-san', thai);
  const start = game.start_fen || game.fen;
  const firstColor = sideToMove(start);
  let number = moveNumber(start, state.info.move_number_field);
  const shown = shownPly(state);
  let row = null;
  san.forEach((text, index) => {
    const color = index % 2 === 0 ? firstColor : opposite(firstColor);
    if (color === 'white' || !row) {
      if (row && color === 'white') number += 1;
      row = document.createElement('li');
      row.append(cell(digits(number) + '.', 'number'));
      list.append(row);
      if (color === 'black') row.append(cell('…', 'move placeholder'));
    }
    const move = cell(text, 'move');
    move.dataset.ply = String(index + 1);
    if (index + 1 === shown) move.classList.add('current');
    move.addEventListener('click', () => browse(ctrl, index + 1));
    row.append(move);
  });
  const current = list.querySelector('.current');
  if (current && typeof current.scrollIntoView === 'function') current.scrollIntoView({ block: 'nearest' });
}

/** Show the position after ``ply`` plies (the last one: the game as it stands). */
export function browse(ctrl, ply) {
  const { state } = ctrl;
  if (!state.game) return;
  const last = total(state.game);
  const target = Math.max(0, Math.min(last, ply));
  const can = browsable(state.game);
  state.viewPly = target === last || !can ? null : target;
  if (!can && target !== last) ctrl.showMessage(t('This game cannot be stepped through here.'));
  ctrl.render();
}

export function initMoveList(ctrl) {
  const { state } = ctrl;
  $('#nav-first').addEventListener('click', () => browse(ctrl, 0));
  $('#nav-prev').addEventListener('click', () => browse(ctrl, shownPly(state) - 1));
  $('#nav-next').addEventListener('click', () => browse(ctrl, shownPly(state) + 1));
  $('#nav-last').addEventListener('click', () => browse(ctrl, Infinity));
  document.addEventListener('keydown', event => {
    if (!state.game || event.target.closest('input, select, textarea')) return;
    if (event.key === 'ArrowLeft') browse(ctrl, shownPly(state) - 1);
    else if (event.key === 'ArrowRight') browse(ctrl, shownPly(state) + 1);
    else if (event.key === 'Home') browse(ctrl, 0);
    else if (event.key === 'End') browse(ctrl, Infinity);
    else return;
    event.preventDefault();
  });
}
