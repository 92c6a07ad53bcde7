/* kradan serve: entering a move on the board and sending it. A move is entered segment by
 * segment (a drag or two clicks each): a chain of hops or a sutra goes on from where the
 * piece stands, until the segments make a legal move; a promotion or a huff that leaves a
 * choice is asked in the chooser. The server has the last word: its answer is the new state. */
import { gamePath, request } from './api.js';
import { chooseHuff, choosePromotion } from './chooser.js';
import { dests, matching } from './legal.js';
import { movableColor, playing, tokenFor } from './state.js';
import { opposite, t } from './words.js';

const $ = selector => document.querySelector(selector);

/** A click on ``key``: a second one on a pawn that may promote where it stands (Sittuyin's
 * promotion in place) asks whether to promote. */
export function onSelect(ctrl, key) {
  const { state } = ctrl;
  const now = Date.now();
  const again = state.lastSelect.key === key && now - state.lastSelect.at < 2000;
  state.lastSelect = { key, at: now };
  if (!again || state.entered.length || state.viewPly !== null) return;
  const inPlace = state.legal.filter(move => move.segments.length === 1 &&
    move.segments[0][0] === key && move.segments[0][1] === key && move.promotion);
  if (!inPlace.length || movableColor(state) !== state.game.turn) return;
  state.lastSelect = { key: null, at: 0 };
  state.board.selectSquare(null);
  choosePromotion(ctrl, inPlace, key);
}

/** Take away the piece a hop from ``from`` to ``to`` jumps over (games that capture so). */
function removeJumped(board, from, to) {
  const dx = to.charCodeAt(0) - from.charCodeAt(0);
  const dy = parseInt(to.slice(1), 10) - parseInt(from.slice(1), 10);
  if (Math.abs(dx) === 2 || Math.abs(dy) === 2) {
    const middle = String.fromCharCode(from.charCodeAt(0) + dx / 2) + (parseInt(from.slice(1), 10) + dy / 2);
    board.setPieces(new Map([[middle, undefined]]));
  }
}

/** A segment from ``orig`` to ``dest`` was played on the board. */
export function onSegment(ctrl, orig, dest) {
  const { state } = ctrl;
  const { game, board } = state;
  if (!game || state.viewPly !== null) return;
  if (!playing(state) || board.state.movable.color !== game.turn) return;
  state.entered.push([orig, dest]);
  const candidates = matching(state.legal, state.entered);
  if (!candidates.length) {
    ctrl.showMessage(t('Not a legal move: {move}', { move: orig + dest }));
    ctrl.renderBoard();
    return;
  }
  const complete = candidates.filter(move => move.segments.length === state.entered.length);
  const longer = candidates.filter(move => move.segments.length > state.entered.length);
  if (state.info.jump_captures) removeJumped(board, orig, dest);
  if (longer.length) {
    // a chain: the next point, or (when the rules allow stopping) "end the move here"
    const next = dests(longer, state.entered);
    board.set({ turnColor: game.turn, movable: { color: game.turn, dests: next } });
    // the piece that goes on is picked up already: the next click is its next point
    if (next.size === 1) board.selectSquare(next.keys().next().value);
    const finish = $('#finish-chain');
    finish.hidden = !complete.length;
    finish.onclick = () => finishMove(ctrl, complete, dest);
    return;
  }
  finishMove(ctrl, complete, dest);
}

function finishMove(ctrl, complete, dest) {
  $('#finish-chain').hidden = true;
  const promotions = complete.filter(move => move.promotion);
  const huffs = complete.filter(move => move.huff);
  if (huffs.length && complete.length > 1) {
    chooseHuff(ctrl, complete);
  } else if (promotions.length && (complete.length > 1 || ctrl.state.info.confirm_promotion)) {
    // a real choice, or a game where promoting is never forced on the player
    choosePromotion(ctrl, complete, dest);
  } else {
    ctrl.send(complete[0].uci);
  }
}

/** Send ``uci`` as the side to move; the answer (or the socket) brings the new state. */
export async function send(ctrl, uci) {
  const { state } = ctrl;
  const color = state.game.turn;
  const plyBefore = state.game.ply;
  // until the server answers, the board belongs to the other side (premoves stay possible)
  state.board.set({ turnColor: opposite(color), movable: { dests: new Map() } });
  state.sending = true;
  try {
    const answer = await request('POST', gamePath(state.gameId, 'moves'), { move: uci },
      tokenFor(state, color));
    if (answer && typeof answer.ply === 'number' && answer.ply > plyBefore && answer.ply >= state.game.ply) {
      ctrl.applyGame(answer);
    }
  } catch (error) {
    if (error.status === 403 && !tokenFor(state, color)) state.refused.add(color);
    ctrl.showMessage(error.message);
    ctrl.renderBoard();
  } finally {
    state.sending = false;
  }
}
