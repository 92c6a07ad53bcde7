/* kradan serve: the entry of the new-game page (body[data-page="new"]). */
import { initLobby } from './lobby.js';
import { listRecentGames, newGameForm } from './new-game.js';
import { t, translatePage } from './words.js';

window.kradan = { t };
translatePage();
newGameForm();
listRecentGames();
initLobby();
