/* kradan serve: the entry of the new-game page (body[data-page="new"]). */
import { listRecentGames, newGameForm } from './new-game.js';
import { t, translatePage } from './words.js';

window.kradan = { t };
translatePage();
newGameForm();
listRecentGames();
