/* kradan serve: playing without a mouse, and hearing the game. The move box under the board
 * takes a move as text (UCI, SAN or Thai SAN: the server reads it, GET .../read-move, and the
 * page plays the UCI it answers as a click would). The board frame takes the focus: the arrow
 * keys move a focus square, Enter or Space picks up and puts down (as two clicks do: chains,
 * promotions and the chooser follow), Escape lets go. Two polite live regions say the focus
 * square and the moves that come from the other side ("Black played Rb1, check"). */
import { gamePath, request } from './api.js';
import { positionAt } from './board.js';
import { readPosition, sideToMove } from './position.js';
import { movableColor, myColors, playing } from './state.js';
import { colorName, N_, t, terminationText } from './words.js';

const $ = selector => document.querySelector(selector);

const keyName = (file, rank) => String.fromCharCode(97 + file) + (rank + 1);

/** The focus square ({file, rank}, from 0), first near the middle of the side at the bottom. */
function focusOf(state) {
  if (!state.keyFocus) {
    const { width, height } = state.info;
    const bottom = state.board.state.orientation === 'white';
    state.keyFocus = { file: Math.floor((width - 1) / 2), rank: bottom ? 1 : height - 2 };
  }
  return state.keyFocus;
}

/** The move box and its hint, for a seat while the game goes on. */
export function renderMoveBox(state) {
  const shown = Boolean(state.game) && playing(state) && myColors(state).length > 0;
  $('#move-form').hidden = !shown;
  $('#board-keys').hidden = !shown;
}

/** Draw the focus square over the board (only seen while the board has the focus). */
export function drawFocus(state) {
  const marker = $('#key-focus');
  const frame = $('#board-frame');
  const board = $('#board cg-board');
  if (!state.board || !board || !marker) return;
  const { width, height } = state.info;
  const { file, rank } = focusOf(state);
  const white = state.board.state.orientation === 'white';
  const column = white ? file : width - 1 - file;
  const row = white ? height - 1 - rank : rank;
  const outer = frame.getBoundingClientRect();
  const inner = board.getBoundingClientRect();
  const size = { x: inner.width / width, y: inner.height / height };
  // set through the CSSOM, which the page's Content-Security-Policy allows
  marker.style.left = `${inner.left - outer.left + column * size.x}px`;
  marker.style.top = `${inner.top - outer.top + row * size.y}px`;
  marker.style.width = `${size.x}px`;
  marker.style.height = `${size.y}px`;
}

// the pieces by their letters, as players call them in English (Sittuyin's s is its elephant)
const PIECES = {
  p: N_('pawn'), n: N_('knight'), s: N_('khon'), m: N_('met'), f: N_('ferz'), r: N_('rook'),
  k: N_('king'),
};

function pieceWord(info, role) {
  if (info.family === 'alquerque') return role === 'k' ? t('king') : t('man');
  if (info.board === 'sittuyin' && role === 's') return t('elephant');
  return PIECES[role] ? t(PIECES[role]) : role.toUpperCase();
}

/** The focus square and what stands on it, in words. */
function squareText(state, key) {
  const { game, info } = state;
  const ply = state.viewPly === null ? (game.moves || []).length : state.viewPly;
  const piece = readPosition(positionAt(game, ply), info.width, info.height).pieces.get(key);
  const selected = state.board.state.selectable.selected === key;
  const what = piece
    ? t('{color} {piece}', { color: colorName(piece.color), piece: pieceWord(info, piece.role) })
    : t('empty');
  return selected ? t('{square}: {what}, picked up', { square: key, what })
    : t('{square}: {what}', { square: key, what });
}

function moveFocus(state, dx, dy) {
  const { width, height } = state.info;
  const focus = focusOf(state);
  const sign = state.board.state.orientation === 'white' ? 1 : -1;
  focus.file = Math.min(width - 1, Math.max(0, focus.file + dx * sign));
  focus.rank = Math.min(height - 1, Math.max(0, focus.rank + dy * sign));
  drawFocus(state);
  $('#key-square').textContent = squareText(state, keyName(focus.file, focus.rank));
}

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };

function onBoardKey(ctrl, event) {
  const { state } = ctrl;
  // the keys of the chooser's buttons (inside the frame) are theirs
  if (event.target !== event.currentTarget || !state.board || !state.game) return;
  const step = STEPS[event.key];
  if (step) {
    moveFocus(state, step[0], step[1]);
  } else if (event.key === 'Enter' || event.key === ' ') {
    const { file, rank } = focusOf(state);
    const key = keyName(file, rank);
    state.board.selectSquare(key); // as a click: a move, a chain's next point, the chooser
    setTimeout(() => {
      if (!$('#chooser').hidden) {
        const first = $('#chooser button');
        if (first) first.focus();
      }
      $('#key-square').textContent = squareText(state, key);
    }, 30);
  } else if (event.key === 'Escape') {
    state.board.selectSquare(null);
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation(); // not the move list's arrow keys
}

/** The move box: the server reads the text, the page plays the move it names. */
async function playTyped(ctrl) {
  const { state } = ctrl;
  const input = $('#move-input');
  const text = input.value.trim();
  if (!text || !state.game) return;
  const color = movableColor(state);
  if (!playing(state) || state.game.setup) {
    ctrl.showMessage(t('No move can be played now.'));
    return;
  }
  if (color !== state.game.turn) {
    ctrl.showMessage(t('It is not your move.'));
    return;
  }
  let read;
  try {
    read = await request('GET', gamePath(state.gameId, 'read-move') + '?move=' + encodeURIComponent(text));
  } catch (error) {
    input.setAttribute('aria-invalid', 'true');
    ctrl.showMessage(error.status === 422 ? t('Not a legal move: {move}', { move: text }) : error.message);
    return;
  }
  input.removeAttribute('aria-invalid');
  input.value = '';
  ctrl.send(read.uci);
}

/** Say the move that arrived from the other side (a spectator hears every move). */
export function announceMoves(state, previous, next) {
  if (!previous || !next || next.ply !== previous.ply + 1) return;
  const ply = next.ply;
  const mover = sideToMove((next.positions || [])[ply - 1] || next.fen);
  const mine = myColors(state);
  if (mine.includes(mover)) return; // our own move: we know it
  const written = state.notation === 'thai' && next.thai_san ? next.thai_san : next.san;
  const move = (written || [])[ply - 1];
  if (!move) return;
  let text = t('{color} played {move}', { color: colorName(mover), move });
  if (next.status === 'ended') {
    const how = terminationText(next.termination);
    text += how ? `. ${next.result}, ${how}` : `. ${next.result}`;
  } else if (next.check) {
    text += ', ' + t('check');
  }
  $('#announce').textContent = text;
}

export function initKeyboard(ctrl) {
  const frame = $('#board-frame');
  frame.addEventListener('keydown', event => onBoardKey(ctrl, event));
  frame.addEventListener('focus', () => {
    drawFocus(ctrl.state);
    if (ctrl.state.board && ctrl.state.game) {
      const { file, rank } = focusOf(ctrl.state);
      $('#key-square').textContent = squareText(ctrl.state, keyName(file, rank));
    }
  });
  window.addEventListener('resize', () => drawFocus(ctrl.state));
  $('#move-form').addEventListener('submit', event => {
    event.preventDefault();
    playTyped(ctrl);
  });
}
