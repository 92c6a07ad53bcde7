/* kradan serve: the entry of the board page (body[data-page="game"]). It makes the page's one
 * state, the controller the other modules call back through (ctrl), and feeds both with the
 * game as the server sends it: first GET /api/games/{id}, then every state of the websocket
 * and every answer to a move or an action. window.kradan shows the state to the tests. */
import { gameDescriptions, gamePath, request, saveSeat } from './api.js';
import { initActions } from './actions.js';
import { initAfterGame } from './after-game.js';
import { initChat } from './chat-panel.js';
import { createBoard, drawPosition } from './board.js';
import { hideChooser } from './chooser.js';
import { renderClocks, setClocks, startClocks } from './clock.js';
import { initExports } from './exports.js';
import { initInvite, renderInvite } from './invite.js';
import { announceMoves, drawFocus, initKeyboard, renderMoveBox } from './keyboard.js';
import { onSegment, onSelect, send } from './input.js';
import { parseMove } from './legal.js';
import { initMoveList, renderMoves } from './movelist.js';
import { arrange, initSetup, noteHandedIn, renderSetup } from './setup.js';
import { initSide, renderSide, showMessage } from './side.js';
import { knockForNewMoves, initSound } from './sound.js';
import { connect } from './socket.js';
import { noteWaits, startWaits } from './waits.js';
import { createState, myColors } from './state.js';
import { t, translatePage } from './words.js';

const gameId = document.body.dataset.gameId;
const state = createState(gameId, gameDescriptions());

const ctrl = {
  state,
  showMessage,
  send: uci => send(ctrl, uci),
  onSelect: key => onSelect(ctrl, key),
  onSegment: (orig, dest) => (state.arranging ? arrange(ctrl, orig, dest) : onSegment(ctrl, orig, dest)),
  renderBoard() {
    if (!state.board) return;
    state.entered = [];
    document.querySelector('#finish-chain').hidden = true;
    hideChooser();
    if (!renderSetup(state)) drawPosition(state);
  },
  renderMoves: () => renderMoves(ctrl),
  render() {
    ctrl.renderBoard();
    renderMoves(ctrl);
    renderSide(state);
    renderInvite(state);
    renderMoveBox(state);
    drawFocus(state);
  },
  applyGame,
};

/** Take ``next``, a game view of the server, as the state of the page. */
function applyGame(next) {
  if (!next || !next.variant) return;
  const previous = state.game;
  // an HTTP answer can reach the page after a newer state came over the socket: keep the newer
  if (previous && next.revision < previous.revision) return;
  const first = previous === null;
  const changed = first || next.ply !== previous.ply ||
    (next.moves || []).length !== (previous.moves || []).length;
  noteHandedIn(state, next);
  knockForNewMoves(state, previous, next);
  if (state.info) announceMoves(state, previous, next);
  state.game = next;
  window.kradan.game = next;
  window.kradan.updates += 1;
  if (first) {
    state.info = state.descriptions[next.variant];
    const mine = myColors(state);
    state.orientation = mine.length === 1 ? mine[0] : 'white';
  }
  if (!state.info) return; // a game this board cannot draw
  state.legal = (next.legal_moves || []).map(parseMove);
  setClocks(state, next.clock);
  noteWaits(state);
  if (changed) state.viewPly = null;
  if (!state.board) createBoard(ctrl);
  ctrl.render();
}

/** The game's socket closed: say so, and stop the clocks until the server's state comes back. */
function connectionLost() {
  state.lostAt = performance.now();
  renderClocks(state);
  const banner = document.querySelector('#connection');
  banner.textContent = t('Connection lost, reconnecting…');
  banner.hidden = false;
}

/** A state over the socket: the connection is back, if it was lost. */
function socketGame(next) {
  if (state.lostAt !== null) {
    state.lostAt = null;
    const banner = document.querySelector('#connection');
    banner.hidden = true;
    banner.textContent = '';
  }
  applyGame(next);
}

/** The first state, by HTTP: it also says which seat this browser's cookie holds. */
async function load() {
  try {
    const view = await request('GET', gamePath(gameId));
    state.serverSeat = view && (view.seat === 'white' || view.seat === 'black') ? view.seat : null;
    const early = state.game !== null; // the socket's first state came before this answer
    applyGame(view);
    const mine = myColors(state);
    if (early && state.board && mine.length === 1 && state.orientation !== mine[0]) {
      state.orientation = mine[0];
      state.board.set({ orientation: state.orientation });
      renderSide(state);
    }
  } catch (error) {
    document.querySelector('#status').textContent =
      error.status === 404 ? t('There is no such game.') : error.message;
  }
}

window.kradan = { t, updates: 0, sounds: 0, sending: () => state.sending };
translatePage();
const joined = /^#as-(white|black)$/.exec(window.location.hash);
if (joined) {
  // arrived by an invitation link: the seat cookie holds the token, this notes the side
  saveSeat(gameId, joined[1], '');
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
}
initSetup(ctrl);
initActions(ctrl);
initMoveList(ctrl);
initSide(ctrl);
initSound(state);
initExports(ctrl);
initAfterGame(state);
initChat(gameId);
initInvite();
initKeyboard(ctrl);
startClocks(state);
startWaits(state);
load();
connect(gameId, socketGame, showMessage, connectionLost);
const warning = sessionStorage.getItem(`kradan-warning-${gameId}`);
if (warning) {
  sessionStorage.removeItem(`kradan-warning-${gameId}`);
  showMessage(t('Odd start position: {problems}', { problems: warning }));
}
