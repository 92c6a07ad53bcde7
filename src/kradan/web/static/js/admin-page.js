/* kradan serve: the admin page (/admin). Members (search, disable and enable, a new password,
 * the admin role), games (abort, adjudicate, delete), then the records (admin-records.js) and
 * the server's settings; all through /api/admin/... (the server refuses anyone but an admin:
 * the page then says it is an admin's). */
import { request } from './api.js';
import { account } from './account-bar.js';
import { button, fillTable, group, when } from './admin-table.js';
import { showAccessLog, showAudit, showChat } from './admin-records.js';
import { showMessage } from './message.js';
import { N_, t, terminationText, translatePage } from './words.js';

const RESULTS = [['1-0', N_('White wins')], ['0-1', N_('Black wins')], ['1/2-1/2', N_('Draw')]];

/** Run ``change`` (a request), then show everything again; a refusal goes to the message line. */
async function act(change) {
  try {
    await change();
  } catch (error) {
    showMessage(error.message);
  }
  await refresh();
}

function userRow(user) {
  const path = `/api/admin/users/${encodeURIComponent(user.username)}`;
  const roles = [user.admin && t('admin'), user.bot && t('bot')].filter(Boolean).join(', ');
  const state = user.disabled ? t('disabled') : t('active');
  const onOff = user.disabled
    ? button(N_('Enable'), () => act(() => request('POST', `${path}/enable`)), 'enable')
    : button(N_('Disable'), () => act(() => request('POST', `${path}/disable`)), 'disable');
  const reset = button(N_('New password'), () => act(async () => {
    const made = await request('POST', `${path}/password`);
    const box = document.getElementById('new-password');
    box.textContent = t('The new password of {name} (shown this once): {password}',
      { name: made.username, password: made.password });
    box.hidden = false;
  }), 'password');
  const role = button(user.admin ? N_('Take the admin role') : N_('Make admin'),
    () => act(() => request('PUT', `${path}/admin`, { admin: !user.admin })), 'role');
  const name = document.createElement('a');
  name.href = `/@/${encodeURIComponent(user.username)}`;
  name.textContent = user.username;
  return [name, roles, state, when(user.created), group(onOff, reset, role)];
}

async function showUsers() {
  const query = document.getElementById('user-query').value.trim();
  const data = await request('GET', `/api/admin/users?${new URLSearchParams({ q: query })}`);
  fillTable(document.getElementById('user-list'),
    [N_('Name'), N_('Role'), N_('State'), N_('Since'), ''], data.users.map(userRow));
}

function gameActions(game) {
  const path = `/api/admin/games/${encodeURIComponent(game.id)}`;
  if (game.status !== 'playing') {
    return button(N_('Delete'), () => {
      if (window.confirm(t('Delete game {game} for good?', { game: game.id }))) {
        act(() => request('DELETE', path));
      }
    }, 'delete');
  }
  const choice = document.createElement('select');
  choice.setAttribute('aria-label', t('Result'));
  for (const [value, words] of RESULTS) choice.add(new Option(t(words), value));
  const adjudicate = button(N_('Adjudicate'),
    () => act(() => request('POST', `${path}/adjudicate`, { result: choice.value })), 'adjudicate');
  const abort = button(N_('Abort'), () => act(() => request('POST', `${path}/abort`)), 'abort');
  return group(abort, choice, adjudicate);
}

async function showGames() {
  const data = await request('GET', '/api/admin/games?limit=100');
  const rows = data.games.map(game => {
    const link = document.createElement('a');
    link.href = `/games/${encodeURIComponent(game.id)}`;
    link.textContent = game.id;
    link.dataset.game = game.id;
    const result = game.status === 'playing'
      ? t('in progress')
      : `${game.result} ${terminationText(game.termination)}`;
    const players = `${game.players.white} – ${game.players.black}`;
    return [link, players, game.ply, result, gameActions(game)];
  });
  fillTable(document.getElementById('game-list'),
    [N_('Game'), N_('Players'), N_('Moves'), N_('Result'), ''], rows);
}

async function showSettings() {
  const settings = await request('GET', '/api/admin/settings');
  document.getElementById('sign-up-open').checked = settings.sign_up_open;
  document.getElementById('notice-text').value = settings.notice;
}

async function refresh() {
  try {
    await Promise.all([showUsers(), showGames(), showChat(refresh), showAccessLog(), showAudit()]);
  } catch (error) {
    showMessage(error.message);
  }
}

function listen() {
  document.getElementById('user-search').addEventListener('submit', event => {
    event.preventDefault();
    showUsers().catch(error => showMessage(error.message));
  });
  document.getElementById('access-filter').addEventListener('submit', event => {
    event.preventDefault();
    showAccessLog().catch(error => showMessage(error.message));
  });
  document.getElementById('settings-form').addEventListener('submit', event => {
    event.preventDefault();
    const body = {
      sign_up_open: document.getElementById('sign-up-open').checked,
      notice: document.getElementById('notice-text').value,
    };
    act(async () => {
      await request('PUT', '/api/admin/settings', body);
      showMessage(t('Saved.'));
    });
  });
}

async function start() {
  const me = await account;
  if (!me.admin) {
    document.getElementById('admin-refused').hidden = false;
    return;
  }
  document.getElementById('admin-body').hidden = false;
  document.getElementById('admin-sections').hidden = false;
  listen();
  await Promise.all([refresh(), showSettings().catch(error => showMessage(error.message))]);
  document.body.dataset.ready = 'yes';
}

window.kradan = { t };
translatePage();
start();
