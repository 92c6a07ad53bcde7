/* kradan serve: the game's websocket, /api/games/{id}/socket. The server sends
 * {"type": "game", "game": ...} after every change and {"type": "error", "error": ...}; when
 * the socket closes it is opened again, waiting a little longer each time (up to 10 s).
 * window.kradan.socketOpen says whether it is open (the tests wait on it). */
import { gamePath } from './api.js';

/** Listen to game ``gameId``: ``onGame(state)`` for each state, ``onError(text)`` for errors. */
export function connect(gameId, onGame, onError) {
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
      if (message.type === 'game') onGame(message.game);
      else if (message.type === 'error') onError(message.error);
    });
    socket.addEventListener('close', () => {
      window.kradan.socketOpen = false;
      setTimeout(open, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }
  open();
}
