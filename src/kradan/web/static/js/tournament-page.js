/* kradan serve: one tournament (/tournaments/{id}): its status, standings with tie-breaks,
 * crosstable and rounds (each game a link to its board), from GET /api/tournaments/{id}, asked
 * again every POLL_MS while it is being played. Its organiser (or an admin) starts or cancels
 * it; a player with a game under way gets a link to their seat (/tournaments/{id}/play). */
import { account } from './account-bar.js';
import { request } from './api.js';
import { showMessage } from './message.js';
import { N_, t, translatePage } from './words.js';

const POLL_MS = 3000;
const id = document.body.dataset.tournament;

const SYSTEMS = { swiss: N_('Swiss'), 'round-robin': N_('Round robin'), arena: N_('Arena') };
const STATUSES = {
  created: N_('waiting to start'),
  playing: N_('playing'),
  finished: N_('finished'),
  cancelled: N_('cancelled'),
};
const TIEBREAKS = {
  'buchholz-cut1': N_('Buchholz Cut 1'),
  buchholz: N_('Buchholz'),
  'sonneborn-berger': N_('Sonneborn-Berger'),
  'direct-encounter': N_('Direct encounter'),
  wins: N_('Wins'),
};

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function number(value) {
  return String(Math.round(value * 100) / 100);
}

function fill(table, heads, rows) {
  const head = table.querySelector('thead');
  const body = table.querySelector('tbody');
  head.textContent = '';
  body.textContent = '';
  const line = element('tr');
  for (const text of heads) line.append(element('th', text));
  head.append(line);
  for (const cells of rows) {
    const row = element('tr');
    for (const content of cells) {
      const td = element('td');
      if (content instanceof Node) td.append(content);
      else td.textContent = content;
      row.append(td);
    }
    body.append(row);
  }
}

function standings(data) {
  const names = data.standings.length ? Object.keys(data.standings[0].tiebreaks) : [];
  const heads = ['#', t('Player'), t('Points'), ...names.map((name) => t(TIEBREAKS[name] || name))];
  const arena = data.system === 'arena';
  if (arena) heads.push(t('Games'));
  const rows = data.standings.map((line) => {
    const cells = [String(line.rank), line.player, number(line.points)];
    for (const name of names) cells.push(number(line.tiebreaks[name]));
    if (arena) cells.push(String(line.games));
    return cells;
  });
  fill(document.getElementById('standings'), heads, rows);
}

function crosstable(data) {
  const table = document.getElementById('crosstable');
  table.closest('section').hidden = data.crosstable.length === 0;
  const index = new Map(data.crosstable.map((line, i) => [line.player, i + 1]));
  const rounds = data.crosstable.length ? data.crosstable[0].cells.length : 0;
  const heads = ['#', t('Player')];
  for (let r = 1; r <= rounds; r += 1) heads.push(String(r));
  const rows = data.crosstable.map((line) => {
    const cells = [String(index.get(line.player)), line.player];
    for (const cell of line.cells) {
      if (cell.opponent) {
        const colour = cell.colour === 'white' ? t('W') : t('B');
        const got = cell.points === null ? '…' : number(cell.points);
        cells.push(`${index.get(cell.opponent)}${colour} ${got}`);
      } else if (cell.kind === 'absent') {
        cells.push('–');
      } else {
        cells.push(`${t('bye')} ${number(cell.points || 0)}`);
      }
    }
    return cells;
  });
  fill(table, heads, rows);
}

function rounds(data) {
  const box = document.getElementById('rounds');
  box.textContent = '';
  for (const round of [...data.rounds].reverse()) {
    const section = element('section', null, 'round');
    section.dataset.round = String(round.number);
    section.append(element('h3', t('Round {n}', { n: round.number })));
    const list = element('ol', null, 'pairings');
    for (const pairing of round.pairings) {
      const item = element('li');
      const link = element('a', `${pairing.white} – ${pairing.black}`);
      link.href = `/games/${encodeURIComponent(pairing.game)}`;
      item.append(link, ' ');
      const result = pairing.result || t('playing');
      item.append(element('span', pairing.forfeit ? `${result} (${t('forfeit')})` : result, 'result'));
      list.append(item);
    }
    for (const bye of round.byes) list.append(element('li', `${bye.player}: ${t('bye')}`));
    section.append(list);
    box.append(section);
  }
}

let shown = null;

async function refresh() {
  let data;
  try {
    data = await request('GET', `/api/tournaments/${encodeURIComponent(id)}`);
  } catch (error) {
    showMessage(error.message);
    return null;
  }
  shown = data;
  const me = await account;
  const system = t(SYSTEMS[data.system] || data.system);
  document.getElementById('t-title').textContent = data.name || `${system} ${data.variant}`;
  const summary = data.system === 'arena'
    ? t('{system}, {variant}, {n} minutes, clock {clock}, organised by {organiser}',
      { system, variant: data.variant, n: data.rounds_planned, clock: data.clock, organiser: data.organiser || '?' })
    : t('{system}, {variant}, {n} rounds, clock {clock}, organised by {organiser}',
      { system, variant: data.variant, n: data.rounds_planned, clock: data.clock, organiser: data.organiser || '?' });
  document.getElementById('t-summary').textContent = summary;
  const status = document.getElementById('t-status');
  status.textContent = t(STATUSES[data.status] || data.status);
  status.dataset.status = data.status;
  const runs = Boolean(me.username) && (me.admin || me.username === data.organiser);
  document.getElementById('t-start').hidden = !(runs && data.status === 'created');
  document.getElementById('t-cancel').hidden = !(runs && ['created', 'playing'].includes(data.status));
  const mine = data.rounds.some((round) => round.pairings.some((p) => !p.result
    && (p.white === me.username || p.black === me.username)));
  document.getElementById('t-play').hidden = !mine;
  standings(data);
  crosstable(data);
  rounds(data);
  return data;
}

async function act(what) {
  try {
    await request('POST', `/api/tournaments/${encodeURIComponent(id)}/${what}`, {});
  } catch (error) {
    showMessage(error.message);
  }
  await refresh();
}

async function poll() {
  const data = await refresh();
  if (!data || data.status === 'created' || data.status === 'playing') {
    window.setTimeout(poll, POLL_MS);
  }
}

document.getElementById('t-start').addEventListener('click', () => act('start'));
document.getElementById('t-cancel').addEventListener('click', () => act('cancel'));
window.kradan = { t, tournament: () => shown };
translatePage();
poll();
