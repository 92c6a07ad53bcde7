/* kradan serve: the screened setup (Sittuyin's, with sittuyin_setup=screened). Each side
 * arranges its camp here, unseen by the server and the other side, and hands in the whole of
 * it with "Done"; on one screen a screen hides the board while the sides change. Where a camp
 * is and which pieces stand on its back rank only come from the game's description
 * (info.camp: {ranks, back_rank}); the server checks the arrangement handed in. */
import { gamePath, request } from './api.js';
import { showPockets } from './board.js';
import { readPosition, writePosition } from './position.js';
import { engineSide, myColors, playing, tokenFor } from './state.js';
import { colorName, opposite, t, tn } from './words.js';

const $ = selector => document.querySelector(selector);

const inSetup = state => Boolean(playing(state) && state.game.setup);

/** The colour this browser arranges now: the first of its human seats not handed in. */
function setupColor(state) {
  if (!inSetup(state)) return null;
  const open = myColors(state).filter(color => !state.game.setup[color] && !engineSide(state, color));
  if (open.includes('white')) return 'white';
  return open.includes('black') ? 'black' : null;
}

const rankOf = key => parseInt(key.slice(1), 10);

/** Where ``role`` may stand in ``color``'s camp: empty squares, some roles on the back rank. */
function campSquares(state, position, color, role) {
  const { width, height, camp } = state.info;
  const depth = camp ? camp.ranks : Math.floor(height / 2);
  const backOnly = camp ? camp.back_rank || [] : [];
  const found = [];
  for (let rank = 1; rank <= height; rank += 1) {
    const inCamp = color === 'white' ? rank <= depth : rank > height - depth;
    const back = rank === (color === 'white' ? 1 : height);
    if (!inCamp || (backOnly.includes(role) && !back)) continue;
    for (let file = 0; file < width; file += 1) {
      const key = String.fromCharCode(97 + file) + rank;
      if (!position.pieces.has(key)) found.push(key);
    }
  }
  return found;
}

/** The start position with ``placed`` pieces of ``color`` on it and out of its pocket. */
function setupPosition(state, color, placed) {
  const { game, info } = state;
  const position = readPosition(game.start_fen || game.fen, info.width, info.height);
  for (const [key, role] of placed || []) {
    position.pieces.set(key, { role, color });
    if (position.pockets && position.pockets[color][role]) position.pockets[color][role] -= 1;
  }
  return position;
}

function setupDests(state, position, color, placed) {
  const found = new Map();
  for (const [role, count] of Object.entries(position.pockets ? position.pockets[color] : {})) {
    if (count > 0) found.set(role.toUpperCase() + '@', campSquares(state, position, color, role));
  }
  for (const [key, role] of placed) found.set(key, campSquares(state, position, color, role));
  return found;
}

const piecesLeft = (position, color) =>
  Object.values(position.pockets ? position.pockets[color] : {}).reduce((a, b) => a + b, 0);

/** Draw the setup while it lasts; returns whether it did (the board is then drawn). */
export function renderSetup(state) {
  const panel = $('#setup-panel');
  const screen = $('#setup-screen');
  if (!inSetup(state) || state.viewPly !== null) {
    state.arranging = null;
    panel.hidden = true;
    screen.hidden = true;
    return false;
  }
  const color = setupColor(state);
  if (!color) state.arranging = null;
  else if (!state.arranging || state.arranging.color !== color) state.arranging = { color, placed: new Map() };
  const arranging = state.arranging;
  const mine = myColors(state);
  const screened = Boolean(color && mine.length === 2 && state.unscreened !== color);
  screen.hidden = !screened;
  if (screened) {
    $('#setup-screen-text').textContent = t('{color} arranges the camp: {other}, look away', {
      color: colorName(color), other: colorName(opposite(color)),
    });
    $('#setup-reveal').textContent = t('Show {color}\'s camp', { color: colorName(color) });
  }
  let position;
  if (arranging && !screened) {
    position = setupPosition(state, color, arranging.placed);
  } else if (!color && mine.length === 1 && state.handedIn[mine[0]]) {
    position = setupPosition(state, mine[0], state.handedIn[mine[0]]); // seen by its own side only
  } else {
    position = setupPosition(state, null, null);
  }
  const movable = arranging && !screened ? arranging.color : undefined;
  showPockets(state, true);
  $('#board').classList.remove('history');
  state.board.set({
    fen: writePosition(position),
    turnColor: movable || state.game.turn,
    lastMove: undefined,
    check: false,
    movable: { color: movable, dests: movable ? setupDests(state, position, movable, arranging.placed) : new Map() },
  });
  state.board.cancelPremove();
  panel.hidden = false;
  showSetupText(state, position, movable);
  return true;
}

function showSetupText(state, position, movable) {
  const text = $('#setup-text');
  const done = $('#setup-done');
  const clear = $('#setup-clear');
  done.hidden = clear.hidden = !movable;
  if (movable) {
    const left = piecesLeft(position, movable);
    text.textContent = left
      ? tn('{color}: arrange your camp ({n} piece left), then press Done',
        '{color}: arrange your camp ({n} pieces left), then press Done', left,
        { color: colorName(movable) })
      : t('{color}: your camp is ready; press Done to hand it in', { color: colorName(movable) });
    done.disabled = left > 0;
    clear.disabled = state.arranging.placed.size === 0;
  } else {
    const waiting = ['white', 'black'].filter(side => !state.game.setup[side]);
    text.textContent = waiting.length === 1
      ? t('Waiting for {color} to hand in its camp', { color: colorName(waiting[0]) })
      : t('Both sides arrange their camps unseen');
  }
}

/** A piece put from the pocket (``orig`` "R@") or moved within the camp. */
export function arrange(ctrl, orig, dest) {
  const { state } = ctrl;
  const { color, placed } = state.arranging;
  const position = setupPosition(state, color, placed);
  if (orig.endsWith('@')) {
    const role = orig[0].toLowerCase();
    const inHand = position.pockets && position.pockets[color][role] > 0;
    if (inHand && campSquares(state, position, color, role).includes(dest)) placed.set(dest, role);
  } else if (placed.has(orig)) {
    const role = placed.get(orig);
    if (campSquares(state, position, color, role).includes(dest)) {
      placed.delete(orig);
      placed.set(dest, role);
    }
  }
  ctrl.renderBoard();
}

async function handIn(ctrl) {
  const { state } = ctrl;
  if (!state.arranging) return;
  const { color, placed } = state.arranging;
  const arrangement = {};
  for (const [key, role] of placed) arrangement[key] = role.toUpperCase();
  $('#setup-done').disabled = true;
  try {
    const answer = await request('POST', gamePath(state.gameId, 'setup'), { arrangement },
      tokenFor(state, color));
    state.handedIn[color] = new Map(placed);
    state.arranging = null;
    state.unscreened = null;
    ctrl.applyGame(answer);
  } catch (error) {
    ctrl.showMessage(error.message);
    ctrl.renderBoard();
  }
}

/** Remember the camp the server says this seat handed in (after a reload). */
export function noteHandedIn(state, next) {
  if (next.seat && next.my_setup && next.setup) {
    state.handedIn[next.seat] = new Map(
      Object.entries(next.my_setup).map(([key, letter]) => [key, letter.toLowerCase()]));
  }
}

export function initSetup(ctrl) {
  $('#setup-done').addEventListener('click', () => handIn(ctrl));
  $('#setup-clear').addEventListener('click', () => {
    if (ctrl.state.arranging) ctrl.state.arranging.placed.clear();
    ctrl.renderBoard();
  });
  $('#setup-reveal').addEventListener('click', () => {
    ctrl.state.unscreened = setupColor(ctrl.state);
    ctrl.renderBoard();
  });
}
