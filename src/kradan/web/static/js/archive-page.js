/* kradan serve: the entry of the game archive (body[data-page="archive"]).
 *
 * Importing: a PGN file, or pasted text, is the body of POST /api/archive; the answer says
 * how many games were stored, how many the archive had already, and which games were left out,
 * by their line. Searching: the form's filters are the query of GET /api/archive, a page at a
 * time (keyset: an answer's `next` is the `after` of the following page, "More games"); each
 * game opens in the analysis board (/analysis?archive=ID); the same filters export the
 * selection as PGN (/api/archive.pgn). The search is kept in the address (/archive?player=...),
 * so that it can be linked to and comes back with the page. window.kradan shows the state to
 * the tests. */
import { gameDescriptions, request } from './api.js';
import { showMessage } from './message.js';
import { t, tn, translatePage } from './words.js';

const $ = selector => document.querySelector(selector);
/** the form's fields that are filters of the API, by name */
const FILTERS = ['variant', 'player', 'color', 'result', 'since', 'until', 'moves'];
const PAGE_SIZE = 50;
/** the most games one export holds (archive_api.MAX_EXPORT) */
const EXPORT_LIMIT = 100000;

const games = gameDescriptions();
const state = { query: '', next: null, shown: 0, searches: 0, searched: 0, imports: 0, report: null };
window.kradan = { t, state };

/** The filters filled in on the form, as a query string (empty fields left out). */
function formQuery() {
  const form = $('#search-form');
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = form.elements[name].value.trim();
    if (value) query.set(name, value);
  }
  return query.toString();
}

/** Fill the form from a query string (the address's, or a player's name clicked). */
function fillForm(text) {
  const query = new URLSearchParams(text);
  const form = $('#search-form');
  for (const name of FILTERS) form.elements[name].value = query.get(name) || '';
}

const resultText = result => (result === '1/2-1/2' ? '½-½' : result);

function cell(row, text, className) {
  const td = document.createElement('td');
  if (className) td.className = className;
  td.textContent = text;
  row.append(td);
  return td;
}

function playerCell(row, name) {
  const td = cell(row, '', 'name-cell');
  if (!name) {
    td.textContent = '?';
    return;
  }
  const link = document.createElement('a');
  link.href = '/archive?' + new URLSearchParams({ player: name });
  link.textContent = name;
  link.title = t('Games of {player}', { player: name });
  link.addEventListener('click', event => {
    event.preventDefault();
    fillForm(new URLSearchParams({ player: name }).toString());
    search(formQuery());
  });
  td.append(link);
}

/** One row of the results: date, players, result, game, moves, event, a link to open it (the
 * date opens it too: on a phone the last four columns are left out). */
function gameRow(game) {
  const row = document.createElement('tr');
  row.dataset.id = String(game.id);
  const date = document.createElement('a');
  date.href = `/analysis?archive=${game.id}`;
  date.textContent = game.date || '?';
  cell(row, '', 'date').append(date);
  playerCell(row, game.white);
  playerCell(row, game.black);
  cell(row, resultText(game.result), 'result');
  cell(row, (games[game.variant] && games[game.variant].title) || game.variant, 'optional');
  cell(row, String(Math.ceil(game.plies / 2)), 'optional number');
  cell(row, game.event || '', 'optional event');
  const open = document.createElement('a');
  open.href = `/analysis?archive=${game.id}`;
  open.className = 'open-game';
  open.textContent = t('Analyse');
  cell(row, '', 'optional').append(open);
  return row;
}

function showSummary() {
  const summary = $('#search-summary');
  if (!state.shown) {
    summary.textContent = state.query
      ? t('No game in the archive matches this search.')
      : t('The archive has no games yet: import some above.');
  } else if (state.next) {
    summary.textContent = tn('The newest {n} game found so far', 'The newest {n} games found so far', state.shown);
  } else {
    summary.textContent = tn('{n} game found', '{n} games found', state.shown);
  }
}

/** Search with the filters of ``query``: its first page, or (``more``) the next one. */
async function search(query, more) {
  const params = new URLSearchParams(query);
  params.set('limit', String(PAGE_SIZE));
  if (more && state.next) params.set('after', state.next);
  state.searches += 1;
  const number = state.searches;
  $('#search-start').disabled = true;
  let data;
  try {
    data = await request('GET', '/api/archive?' + params.toString());
  } catch (error) {
    if (number === state.searches) showMessage(error.message);
    return;
  } finally {
    if (number === state.searches) $('#search-start').disabled = false;
  }
  if (number !== state.searches) return; // a newer search was asked for meanwhile
  const body = $('#results-body');
  if (!more) {
    body.textContent = '';
    state.shown = 0;
  }
  state.query = query;
  for (const game of data.games) body.append(gameRow(game));
  state.shown += data.games.length;
  state.next = data.next;
  $('#results').hidden = !state.shown;
  $('#more').hidden = !data.next;
  const exported = new URLSearchParams(query);
  exported.set('limit', String(EXPORT_LIMIT));
  $('#export').href = '/api/archive.pgn?' + exported.toString();
  $('#export').hidden = !state.shown;
  showSummary();
  window.history.replaceState(null, '', '/archive' + (query ? '?' + query : ''));
  state.searched += 1;
}

// --- importing ------------------------------------------------------------------------------

function listItem(list, text, className) {
  const item = document.createElement('li');
  if (className) item.className = className;
  item.textContent = text;
  list.append(item);
}

/** What an import did (``data``: the API's answer, or null), and the server's refusal. */
function showReport(data, refusal) {
  state.report = data;
  $('#import-report').hidden = false;
  const summary = $('#import-summary');
  summary.textContent = '';
  if (refusal) listItem(summary, refusal, 'error');
  const errors = $('#import-errors');
  errors.textContent = '';
  if (!data) return;
  const leftOut = (data.errors || []).length + (data.more_errors || 0);
  listItem(summary, tn('{n} game imported', '{n} games imported', data.imported || 0), data.imported ? 'imported' : '');
  listItem(summary, tn('{n} game was in the archive already', '{n} games were in the archive already',
    data.duplicates || 0), 'duplicates');
  listItem(summary, tn('{n} game left out', '{n} games left out', leftOut), leftOut ? 'left-out' : '');
  for (const error of data.errors || []) {
    listItem(errors, t('Line {line}: {message}', { line: error.line, message: error.message }));
  }
  if (data.more_errors) {
    listItem(errors, tn('and {n} more game left out', 'and {n} more games left out', data.more_errors));
  }
}

function showFileName() {
  const file = $('#import-file').files[0];
  $('#import-file-name').textContent = file ? file.name : t('no file chosen');
}

async function importPgn(event) {
  event.preventDefault();
  const file = $('#import-file').files[0];
  const text = $('#import-text').value;
  const body = file || (text.trim() ? text : null);
  if (!body) {
    showMessage(t('Choose a PGN file or paste PGN text first.'));
    return;
  }
  $('#import-start').disabled = true;
  $('#import-busy').hidden = false;
  let response;
  let data = null;
  try {
    response = await fetch('/api/archive', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-chess-pgn', Accept: 'application/json' },
      body,
      credentials: 'same-origin',
    });
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
  } catch (error) {
    showReport(null, t('The server cannot be reached.'));
    return;
  } finally {
    $('#import-start').disabled = false;
    $('#import-busy').hidden = true;
  }
  state.imports += 1;
  const refusal = response.ok ? '' : (data && data.error) || response.statusText || String(response.status);
  showReport(data && typeof data.imported === 'number' ? data : null, refusal);
  if (data && (data.imported || data.duplicates)) {
    $('#import-file').value = '';
    showFileName();
  }
  if (data && data.imported) search(formQuery());
}

// --- the page -------------------------------------------------------------------------------

function fillVariants() {
  const select = $('#search-variant');
  for (const [name, info] of Object.entries(games)) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = info.title;
    select.append(option);
  }
}

translatePage();
fillVariants();
$('#import-form').addEventListener('submit', importPgn);
$('#import-file').addEventListener('change', showFileName);
$('#search-form').addEventListener('submit', event => {
  event.preventDefault();
  search(formQuery());
});
$('#search-form').addEventListener('reset', () => setTimeout(() => search(''), 0));
$('#more').addEventListener('click', () => search(state.query, true));
fillForm(window.location.search.slice(1));
search(formQuery());
