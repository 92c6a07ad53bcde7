/* kradan serve: the leaderboards (/ratings): one table per game family, from
 * GET /api/ratings/<family>. */
import { request } from './api.js';
import { FAMILIES, ratingText } from './families.js';
import { showMessage } from './message.js';
import { t, translatePage } from './words.js';

function board(title, players) {
  const section = document.createElement('section');
  const heading = document.createElement('h2');
  heading.textContent = t(title);
  section.append(heading);
  if (!players.length) {
    const none = document.createElement('p');
    none.className = 'hint';
    none.textContent = t('Nobody is ranked yet.');
    section.append(none);
    return section;
  }
  const list = document.createElement('ol');
  list.className = 'leaderboard';
  for (const player of players) {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `/@/${encodeURIComponent(player.username)}`;
    link.textContent = player.username;
    item.append(link, ` ${ratingText(player)}`);
    list.append(item);
  }
  section.append(list);
  return section;
}

async function load() {
  const box = document.getElementById('leaderboards');
  for (const [family, title] of FAMILIES) {
    try {
      const data = await request('GET', `/api/ratings/${family}?limit=20`);
      box.append(board(title, data.players));
    } catch (error) {
      showMessage(error.message);
    }
  }
}

window.kradan = { t };
translatePage();
load();
