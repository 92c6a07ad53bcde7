/* kradan serve: the game's websocket, /api/games/{id}/socket. The server sends
 * {"type": "game", "game": ...} on opening and after every change, and {"type": "error",
 * "error": ...}; when the socket closes it is opened again, waiting a little longer each time
 * (up to 10 s). window.kradan.socketOpen says whether it is open (the tests wait on it). */
import { gamePath } from './api.js';

/** Listen to game ``gameId``: ``onGame(state)`` for each state, ``onError(text)`` for errors,
 * ``onLost()`` when an open socket (or the first try) closes: the states stop coming until the
 * next ``onGame``. */
export function connect(gameId, onGame, onError, onLost = () => {}) {
  let lost = false;
  let leaving = false; // the page goes away: its socket closes, nothing is lost
  window.addEventListener('pagehide', () => { leaving = true; });
  let retry = 500;
  function open() {
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${window.location.host}${gamePath(gameId, 'socket')}`);
    socket.addEventListener('open', () => {
      retry = 500;
      window.kradan.socketOpen = true;
    });
    socket.addEventListener('message', event => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.type === 'game') {
        lost = false;
        onGame(message.game);
      } else if (message.type === 'error') onError(message.error);
    });
    socket.addEventListener('close', () => {
      window.kradan.socketOpen = false;
      if (!lost && !leaving) {
        lost = true;
        onLost();
      }
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }
  open();
}
