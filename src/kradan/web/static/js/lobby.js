/* kradan serve: the lobby on the front page. Quick-pairing buttons ("Makruk 5+3") take the
 * oldest open seek that fits or post one and wait for an opponent (POST /api/seeks with quick;
 * the seek is kept alive by asking after it, GET /api/seeks/<id>, until someone takes it); the
 * open seeks are listed, each with a button to take it. A signed-in player may play rated; a
 * guest plays casual games under a name kept in this browser. The game opens as soon as it is
 * made. */
import { gameDescriptions, remember, remembered, request, saveSeat } from './api.js';
import { account } from './account-bar.js';
import { showMessage } from './message.js';
import { t } from './words.js';

const $ = selector => document.querySelector(selector);
/** the quick-pairing buttons: a game and its clock (the base time and the increment, in
 * seconds) */
export const QUICK = [
  ['makruk', 30, 0], ['makruk', 60, 0], ['makruk', 180, 2], ['makruk', 300, 3],
  ['makruk', 600, 5], ['makruk', 900, 10],
  ['cambodian', 300, 3], ['karouk', 300, 3], ['sittuyin', 600, 5], ['alquerque', 300, 3],
];
const NAME_KEY = 'kradan.guest-name';
/** how often the lobby asks for the seeks, and for its own seek's fate, in milliseconds */
const LIST_MS = 3000;
const POLL_MS = 1500;

const lobby = { mine: null, timer: null, me: { username: null } };

/** parts of a minute as lichess writes them */
const FRACTIONS = { 15: '¼', 30: '½', 45: '¾' };
/** A clock of ``base`` and ``increment`` seconds as players name it: "5+3" (minutes), "½+0",
 * "1½+0", or "20s+0" for a base that is no quarter of a minute. */
function clockName(base, increment) {
  const minutes = Math.floor(base / 60);
  const rest = base % 60;
  if (!rest) return `${minutes}+${increment}`;
  if (FRACTIONS[rest]) return `${minutes || ''}${FRACTIONS[rest]}+${increment}`;
  return `${base}s+${increment}`;
}
/** A seek's clock, "300+3" (the API's seconds), as players name it */
function clockShown(seconds) {
  if (!seconds) return t('no clock');
  const [base, increment] = seconds.split('+').map(Number);
  return clockName(base, increment);
}

function titleOf(variant) {
  const info = gameDescriptions()[variant];
  return info ? info.title : variant;
}

function guestName() {
  const field = $('#guest-name');
  const name = field.value.trim();
  if (name) remember(NAME_KEY, name);
  return name || null;
}

function openGame(answer) {
  saveSeat(answer.game, answer.color, answer.token);
  window.location.assign(`/games/${answer.game}`);
}

function showSeeking(on, text) {
  $('#seeking').hidden = !on;
  $('#seeking-text').textContent = text || '';
  for (const button of document.querySelectorAll('#quick-pairing button')) button.disabled = on;
}

async function quickPair(variant, base, increment) {
  const clock = clockName(base, increment);
  const body = { variant, clock: `${base}+${increment}`, rated: $('#rated').checked, quick: true };
  if (!lobby.me.username) body.name = guestName();
  try {
    const answer = await request('POST', '/api/seeks', body);
    if (answer.game) {
      openGame(answer);
      return;
    }
    lobby.mine = { id: answer.id, token: answer.token };
    showSeeking(true, t('Waiting for an opponent: {game} {clock}…', { game: titleOf(variant), clock }));
    pollMine();
  } catch (error) {
    showMessage(error.message);
  }
}

function pollMine() {
  clearTimeout(lobby.timer);
  lobby.timer = setTimeout(async () => {
    if (!lobby.mine) return;
    try {
      const state = await request('GET', `/api/seeks/${lobby.mine.id}`, undefined, lobby.mine.token);
      if (state.status === 'accepted') {
        openGame(state);
        return;
      }
    } catch (error) {
      if (error.status === 404) { // gone (the server restarted): nothing waits any more
        lobby.mine = null;
        showSeeking(false);
        showMessage(error.message);
        return;
      }
    }
    pollMine();
  }, POLL_MS);
}

async function cancel() {
  const mine = lobby.mine;
  lobby.mine = null;
  clearTimeout(lobby.timer);
  showSeeking(false);
  if (mine) {
    try {
      await request('DELETE', `/api/seeks/${mine.id}`, undefined, mine.token);
    } catch (error) {
      /* gone already */
    }
  }
}

async function take(seek) {
  const body = lobby.me.username ? {} : { name: guestName() };
  try {
    openGame(await request('POST', `/api/seeks/${seek.id}/accept`, body));
  } catch (error) {
    showMessage(error.message);
  }
}

function seekRow(seek) {
  const row = document.createElement('tr');
  row.dataset.seek = seek.id;
  const who = seek.account ? `${seek.name}${seek.rating ? ` (${seek.rating})` : ''}` : seek.name;
  const cells = [who, titleOf(seek.variant), clockShown(seek.clock),
    seek.rated ? t('rated') : t('casual')];
  for (const text of cells) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  const action = document.createElement('td');
  if (!lobby.mine || lobby.mine.id !== seek.id) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'take-seek';
    button.textContent = seek.to ? t('Accept the challenge') : t('Play');
    button.addEventListener('click', () => take(seek));
    action.append(button);
  } else {
    action.textContent = t('yours');
  }
  row.append(action);
  return row;
}

async function listSeeks() {
  try {
    const { seeks } = await request('GET', '/api/seeks');
    const body = $('#seeks tbody');
    body.textContent = '';
    for (const seek of seeks) body.append(seekRow(seek));
    $('#no-seeks').hidden = seeks.length > 0;
  } catch (error) {
    /* the next round tries again */
  }
  setTimeout(listSeeks, LIST_MS);
}

export async function initLobby() {
  const box = $('#quick-pairing');
  if (!box) return;
  for (const [variant, base, increment] of QUICK) {
    const clock = clockName(base, increment);
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.variant = variant;
    button.dataset.clock = clock;
    button.innerText = `${titleOf(variant)}\n${clock}`;
    button.addEventListener('click', () => quickPair(variant, base, increment));
    box.append(button);
  }
  $('#cancel-seek').addEventListener('click', cancel);
  $('#guest-name').value = remembered(NAME_KEY, '');
  lobby.me = await account;
  const signedIn = Boolean(lobby.me.username);
  $('#rated').disabled = !signedIn;
  $('#guest-line').hidden = signedIn;
  $('#rated-hint').hidden = signedIn;
  window.addEventListener('pagehide', () => { if (lobby.mine) cancel(); });
  window.kradan.lobby = lobby;
  listSeeks();
}

