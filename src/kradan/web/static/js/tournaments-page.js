/* kradan serve: the tournaments (/tournaments): the list from GET /api/tournaments, and for a
 * signed-in member the form that makes one (POST /api/tournaments), which then opens it. */
import { account } from './account-bar.js';
import { request } from './api.js';
import { showMessage } from './message.js';
import { N_, t, translatePage } from './words.js';

export const SYSTEMS = {
  swiss: N_('Swiss'),
  'round-robin': N_('Round robin'),
  arena: N_('Arena'),
};

export const STATUSES = {
  created: N_('waiting to start'),
  playing: N_('playing'),
  finished: N_('finished'),
  cancelled: N_('cancelled'),
};

function cell(row, content) {
  const td = document.createElement('td');
  if (content instanceof Node) td.append(content);
  else td.textContent = content;
  row.append(td);
}

async function list() {
  const data = await request('GET', '/api/tournaments');
  const table = document.getElementById('tournament-list');
  const body = table.querySelector('tbody');
  body.textContent = '';
  for (const item of data.tournaments) {
    const row = document.createElement('tr');
    const link = document.createElement('a');
    link.href = `/tournaments/${encodeURIComponent(item.id)}`;
    link.textContent = item.name || `${t(SYSTEMS[item.system] || item.system)} ${item.variant}`;
    cell(row, link);
    cell(row, t(SYSTEMS[item.system] || item.system));
    cell(row, String(item.players));
    cell(row, item.clock);
    cell(row, t(STATUSES[item.status] || item.status));
    body.append(row);
  }
  table.hidden = data.tournaments.length === 0;
  document.getElementById('no-tournaments').hidden = data.tournaments.length !== 0;
}

async function create(event) {
  event.preventDefault();
  const value = (id) => document.getElementById(id).value;
  const body = {
    name: value('t-name').trim(),
    variant: value('t-variant'),
    system: value('t-system'),
    rounds: Number.parseInt(value('t-rounds'), 10) || 0,
    clock: value('t-clock').trim(),
    players: value('t-players').split(/[\s,]+/).filter(Boolean),
    double: document.getElementById('t-double').checked,
  };
  try {
    const made = await request('POST', '/api/tournaments', body);
    window.location.assign(`/tournaments/${encodeURIComponent(made.id)}`);
  } catch (error) {
    showMessage(error.message);
  }
}

async function load() {
  try {
    await list();
  } catch (error) {
    showMessage(error.message);
  }
  const me = await account;
  document.getElementById('new-tournament').hidden = !me.username;
  document.getElementById('sign-in-hint').hidden = Boolean(me.username);
  document.getElementById('tournament-form').addEventListener('submit', create);
}

window.kradan = { t };
translatePage();
load();
