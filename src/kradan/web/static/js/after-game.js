/* kradan serve: what a game's page offers once the game has ended: the rating change of a
 * rated game, a rematch (POST /api/games/<id>/rematch: offered, or agreed when the other side
 * offered; the new game opens for both as soon as it is agreed) and a new game. */
import { gamePath, request, saveSeat } from './api.js';
import { myColors, tokenFor } from './state.js';
import { showMessage } from './message.js';
import { colorName, t } from './words.js';

const $ = selector => document.querySelector(selector);

function changeText(game) {
  const changes = game.rating_changes;
  if (!changes) return '';
  return ['white', 'black'].map(color => {
    const change = changes[color];
    const sign = change.change >= 0 ? '+' : '';
    return t('{color} {name}: {before} → {after} ({change})', {
      color: colorName(color), name: game.players[color],
      before: Math.round(change.before), after: Math.round(change.after),
      change: `${sign}${change.change.toFixed(1)}`,
    });
  }).join(' · ');
}

async function ask(state, color) {
  return request('POST', gamePath(state.gameId, 'rematch'), {}, tokenFor(state, color));
}

/** Offer (or agree to) a rematch for each seat this browser holds; open the new game once it
 * is agreed. */
async function rematch(state) {
  const button = $('#rematch');
  button.disabled = true;
  try {
    let answer = null;
    for (const color of myColors(state)) {
      answer = await ask(state, color);
      if (answer.status === 'agreed') break;
    }
    if (answer && answer.status === 'agreed') openRematch(answer);
  } catch (error) {
    showMessage(error.message);
    button.disabled = false;
  }
}

function openRematch(answer) {
  saveSeat(answer.game, answer.color, answer.token);
  window.location.assign(`/games/${answer.game}`);
}

export function renderAfterGame(state) {
  const game = state.game;
  const box = $('#after-game');
  if (!box) return;
  box.hidden = game.status !== 'ended';
  if (box.hidden) return;
  const change = $('#rating-change');
  change.textContent = changeText(game);
  change.hidden = !change.textContent;
  const mine = myColors(state);
  const button = $('#rematch');
  button.hidden = !mine.length;
  const offer = game.rematch;
  if (offer && offer.game) {
    // agreed: the side that offered collects its seat in the new game, once
    if (!state.rematchCollected && mine.length) {
      state.rematchCollected = true;
      ask(state, mine[0]).then(answer => { if (answer.game) openRematch(answer); })
        .catch(error => showMessage(error.message));
    }
    button.disabled = true;
    button.textContent = t('Opening the rematch…');
  } else if (offer && offer.offered_by && mine.includes(offer.offered_by) && mine.length === 1) {
    button.disabled = true;
    button.textContent = t('Rematch offered: waiting for {color}', {
      color: colorName(offer.offered_by === 'white' ? 'black' : 'white'),
    });
  } else if (offer && offer.offered_by) {
    button.disabled = false;
    button.textContent = t('Accept the rematch');
  } else {
    button.textContent = t('Rematch');
  }
}

export function initAfterGame(state) {
  const button = $('#rematch');
  if (button) button.addEventListener('click', () => rematch(state));
}
