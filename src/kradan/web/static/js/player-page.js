/* kradan serve: an account's page (/@/<username>): its ratings per game family and its newest
 * games, from GET /api/accounts/<username>. */
import { request } from './api.js';
import { FAMILIES, ratingText } from './families.js';
import { showMessage } from './message.js';
import { t, translatePage } from './words.js';

const $ = selector => document.querySelector(selector);
const username = document.body.dataset.username;

function cell(tag, text) {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}

function showRatings(ratings) {
  const table = $('#player-ratings');
  table.textContent = '';
  const head = document.createElement('tr');
  head.append(cell('th', t('Game')), cell('th', t('Rating')), cell('th', t('Rated games')));
  table.append(head);
  for (const [family, title] of FAMILIES) {
    const rating = ratings[family];
    const row = document.createElement('tr');
    row.dataset.family = family;
    row.append(cell('th', t(title)), cell('td', rating ? ratingText(rating) : '–'),
      cell('td', rating ? String(rating.games) : '0'));
    table.append(row);
  }
}

function gameLine(entry) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = `/games/${entry.id}`;
  link.textContent = `${entry.players.white} – ${entry.players.black}`;
  const meta = document.createElement('span');
  meta.className = 'meta';
  let text = ` ${entry.result} · ${entry.created.slice(0, 10)}`;
  if (entry.rated) text += ' · ' + t('rated');
  if (entry.rating_change !== null) {
    text += ` · ${entry.rating_change >= 0 ? '+' : ''}${entry.rating_change.toFixed(1)}`;
  }
  meta.textContent = text;
  item.append(link, meta);
  return item;
}

async function load() {
  try {
    const data = await request('GET', `/api/accounts/${encodeURIComponent(username)}`);
    $('#player-name').textContent = data.username;
    showRatings(data.ratings);
    const list = $('#player-games');
    list.textContent = '';
    if (!data.games.length) list.append(cell('li', t('No games yet.')));
    for (const entry of data.games) list.append(gameLine(entry));
    $('#player-pgn').href = `/api/accounts/${encodeURIComponent(data.username)}/games.pgn`;
    window.kradan.loaded = data;
  } catch (error) {
    showMessage(error.message);
  }
}

window.kradan = { t };
translatePage();
load();
