/* kradan serve: the game's actions besides moves: resign, the draws, the takeback, the count,
 * the abort before both sides have moved and the claim of a game the opponent left. Which
 * buttons show follows from the state; each is sent as the seat it belongs to. */
import { gamePath, request } from './api.js';
import { engineGame, myColors, playedMoves, playing, tokenFor } from './state.js';
import { claimReady } from './waits.js';
import { opposite, t } from './words.js';

/** The seat an action is sent as: the side answering a draw offer, else the side to move if
 * it is ours, else our one seat. */
function actorFor(state, action) {
  const { game } = state;
  if ((action === 'accept_draw' || action === 'decline_draw') && game.draw_offer) {
    return opposite(game.draw_offer);
  }
  if (action === 'claim_win' && game.gone) return opposite(game.gone.side);
  const mine = myColors(state);
  return mine.includes(game.turn) ? game.turn : mine[0];
}

async function act(ctrl, action) {
  const { state } = ctrl;
  const color = actorFor(state, action);
  try {
    const answer = await request('POST', gamePath(state.gameId, 'actions'), { action },
      color ? tokenFor(state, color) : undefined);
    if (answer) ctrl.applyGame(answer);
  } catch (error) {
    if (error.status === 403 && color && !tokenFor(state, color)) state.refused.add(color);
    ctrl.showMessage(error.message);
  }
}

/** Show the buttons of the actions this browser may take now. */
export function renderActions(state) {
  const { game } = state;
  const mine = myColors(state);
  const seated = playing(state) && mine.length > 0;
  const engine = engineGame(state);
  const answering = seated && Boolean(game.draw_offer) && mine.includes(opposite(game.draw_offer));
  const show = {
    resign: seated,
    offer_draw: seated && !game.draw_offer && !engine,
    accept_draw: answering,
    decline_draw: answering,
    takeback: seated && engine && playedMoves(state) > 0,
    claim_draw: seated && Boolean(game.can_claim_draw),
    declare_count: seated && Boolean(game.can_declare_count),
    stop_count: seated && Boolean(game.can_stop_count),
    abort: seated && Boolean(game.can_abort),
    claim_win: seated && claimReady(state),
  };
  for (const button of document.querySelectorAll('[data-action]')) {
    button.hidden = !show[button.dataset.action];
  }
}

export function initActions(ctrl) {
  for (const button of document.querySelectorAll('[data-action]')) {
    button.addEventListener('click', () => {
      if (button.dataset.action === 'resign' && !window.confirm(t('Resign this game?'))) return;
      act(ctrl, button.dataset.action);
    });
  }
}
