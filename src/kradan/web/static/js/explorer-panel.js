/* kradan serve: the opening explorer beside the analysis board (section.explorer). For the
 * position on view it asks GET /api/explorer?variant=&fen= (and the filters: a player, the
 * dates, a result) what the archive's games played from there: each move with how many games
 * played it and how they ended (a White / draw / Black bar), and a few of the games, each of
 * which opens on the board (/analysis?archive=ID). A click on a move plays it on the board, as
 * a click on an engine line does.
 *
 * The page calls explore() on every position it shows; the request goes out once the position
 * has stayed for DEBOUNCE_MS, and the latest request wins: an answer that comes back after a
 * newer position or filter was asked for is dropped. window.kradan.explorer shows the state to
 * the tests. */
import { request } from './api.js';
import { t, tn } from './words.js';

const $ = selector => document.querySelector(selector);
const DEBOUNCE_MS = 150;
const FILTERS = {
  player: '#explorer-player', since: '#explorer-since', until: '#explorer-until', result: '#explorer-result',
};

/** The explorer of the page. ``onPick(uci)`` plays a move; ``thai()`` says whether the moves
 * are written in Thai SAN. */
export function createExplorer(onPick, thai) {
  const explorer = {
    onPick, thai, variant: null, fen: null, timer: null, id: 0, answer: null, shown: 0,
  };
  window.kradan.explorer = explorer;
  for (const selector of Object.values(FILTERS)) {
    $(selector).addEventListener('change', () => schedule(explorer));
  }
  $('#explorer-player').addEventListener('input', () => schedule(explorer));
  // the page switches the notation in its own click handler: draw again once it has
  $('#notation').addEventListener('click', () => setTimeout(() => render(explorer), 0));
  return explorer;
}

/** Show what the archive played from ``fen`` (a position of ``variant``). */
export function explore(explorer, variant, fen) {
  if (explorer.variant === variant && explorer.fen === fen && explorer.answer) return;
  explorer.variant = variant;
  explorer.fen = fen;
  schedule(explorer);
}

function schedule(explorer) {
  clearTimeout(explorer.timer);
  explorer.id += 1; // an answer on its way is stale from now on
  $('.explorer').classList.add('loading');
  explorer.timer = setTimeout(() => ask(explorer), DEBOUNCE_MS);
}

function query(explorer) {
  const params = new URLSearchParams({ variant: explorer.variant, fen: explorer.fen });
  for (const [name, selector] of Object.entries(FILTERS)) {
    const value = $(selector).value.trim();
    if (value) params.set(name, value);
  }
  return params;
}

async function ask(explorer) {
  if (!explorer.variant || !explorer.fen) return;
  const id = explorer.id;
  let answer;
  try {
    answer = await request('GET', '/api/explorer?' + query(explorer).toString());
  } catch (error) {
    if (id !== explorer.id) return;
    explorer.answer = null;
    showProblem(error.message);
    return;
  }
  if (id !== explorer.id) return; // the position or the filters changed meanwhile
  explorer.answer = answer;
  render(explorer);
}

function showProblem(text) {
  $('.explorer').classList.remove('loading');
  $('#explorer-moves').hidden = true;
  $('#explorer-games').textContent = '';
  $('#explorer-total').textContent = '';
  const note = $('#explorer-note');
  note.hidden = false;
  note.classList.add('error');
  note.textContent = text;
}

const share = (part, whole) => (whole ? Math.round((100 * part) / whole) : 0);

/** The White / draw / Black bar of ``counts`` ({games, white, draws, black}). */
function scoreBar(counts) {
  const bar = document.createElement('div');
  bar.className = 'wdb';
  const parts = [
    ['white', counts.white, t('White won')],
    ['draw', counts.draws, t('drawn')],
    ['black', counts.black, t('Black won')],
  ];
  const titles = [];
  for (const [name, count, words] of parts) {
    const percent = share(count, counts.games);
    titles.push(`${words} ${percent}%`);
    if (!count) continue;
    const part = document.createElement('span');
    part.className = `wdb-${name}`;
    part.style.width = `${(100 * count) / counts.games}%`;
    part.textContent = percent >= 14 ? `${percent}%` : '';
    bar.append(part);
  }
  const open = counts.games - counts.white - counts.draws - counts.black;
  if (open > 0) {
    const part = document.createElement('span');
    part.className = 'wdb-open';
    part.style.width = `${(100 * open) / counts.games}%`;
    bar.append(part);
    titles.push(tn('{n} game unfinished', '{n} games unfinished', open));
  }
  bar.title = titles.join(' · ');
  return bar;
}

function moveRow(explorer, move, thai) {
  const row = document.createElement('tr');
  row.className = 'explorer-move';
  row.dataset.uci = move.uci;
  row.tabIndex = 0;
  row.title = t('Play {move}', { move: move.san });
  const name = document.createElement('td');
  name.className = thai ? 'explorer-san thai-san' : 'explorer-san';
  name.textContent = (thai && move.thai_san) || move.san;
  const games = document.createElement('td');
  games.className = 'explorer-count';
  games.textContent = String(move.games);
  const bar = document.createElement('td');
  bar.append(scoreBar(move));
  row.append(name, games, bar);
  row.addEventListener('click', () => explorer.onPick(move.uci));
  row.addEventListener('keydown', event => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    explorer.onPick(move.uci);
  });
  return row;
}

function gameItem(game) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = `/analysis?archive=${game.id}`;
  link.textContent = `${game.white || '?'} – ${game.black || '?'}`;
  const meta = document.createElement('span');
  meta.className = 'meta';
  const result = game.result === '1/2-1/2' ? '½-½' : game.result;
  meta.textContent = [result, game.date].filter(Boolean).join(' · ');
  item.append(link, ' ', meta);
  return item;
}

function render(explorer) {
  const answer = explorer.answer;
  if (!answer) return;
  $('.explorer').classList.remove('loading');
  const thai = explorer.thai();
  const note = $('#explorer-note');
  note.classList.remove('error');
  note.hidden = answer.games > 0;
  note.textContent = t('No games in the archive reach this position.');
  $('#explorer-total').textContent = answer.games ? tn('{n} game', '{n} games', answer.games) : '';
  const body = $('#explorer-moves tbody');
  body.textContent = '';
  for (const move of answer.moves) body.append(moveRow(explorer, move, thai));
  $('#explorer-moves').hidden = !answer.moves.length;
  const list = $('#explorer-games');
  list.textContent = '';
  for (const game of answer.recent || []) list.append(gameItem(game));
  $('#explorer-games-heading').hidden = !(answer.recent || []).length;
  explorer.shown += 1;
}
