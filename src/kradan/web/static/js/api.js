/* kradan serve: the JSON API, and the seat tokens this browser keeps.
 *   POST /api/games, GET /api/games, GET /api/games/{id}, POST /api/games/{id}/moves,
 *   POST /api/games/{id}/actions, POST /api/games/{id}/setup, GET /api/games/{id}/pgn.
 * An answer that is not 2xx becomes an ApiError with the server's message (already in the
 * reader's language) and the HTTP status. */
import { t } from './words.js';

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** ``method`` on ``path`` with a JSON ``body`` (or none), as the seat of ``token`` if given. */
export async function request(method, path, body, token) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = 'Bearer ' + token;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (error) {
    throw new ApiError(t('The server cannot be reached.'), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    let message = response.statusText || String(response.status);
    if (data && typeof data.error === 'string') message = data.error;
    else if (data && typeof data.detail === 'string') message = data.detail;
    else if (data && data.detail) message = JSON.stringify(data.detail);
    throw new ApiError(message, response.status);
  }
  return data;
}

/** The path of game ``gameId``'s API, and of ``part`` under it. */
export const gamePath = (gameId, part) =>
  `/api/games/${encodeURIComponent(gameId)}` + (part ? '/' + part : '');

// The seat tokens this browser holds, per game: {white: token, black: token}. The seat cookie
// proves one seat already; the tokens let a same-screen board move for both sides.
const SEATS_KEY = 'kradan.seats';

function allSeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}') || {};
  } catch (error) {
    return {};
  }
}

export function seatsOf(gameId) {
  return allSeats()[gameId] || {};
}

export function saveSeat(gameId, color, token) {
  const seats = allSeats();
  seats[gameId] = Object.assign(seats[gameId] || {}, { [color]: token });
  try {
    localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
  } catch (error) {
    /* private mode: the cookie still holds one seat */
  }
}

// The invitation links this browser made, per game: {color: the invited side, link}. Kept
// apart from the seats: the inviter does not play the invited side.
const INVITES_KEY = 'kradan.invites';

function allInvites() {
  try {
    return JSON.parse(localStorage.getItem(INVITES_KEY) || '{}') || {};
  } catch (error) {
    return {};
  }
}

/** The invitation this browser made for game ``gameId`` ({color, link}), or null. */
export function inviteOf(gameId) {
  const invite = allInvites()[gameId];
  return invite && typeof invite.link === 'string' ? invite : null;
}

export function saveInvite(gameId, color, link) {
  const invites = allInvites();
  invites[gameId] = { color, link };
  try {
    localStorage.setItem(INVITES_KEY, JSON.stringify(invites));
  } catch (error) {
    /* not kept: the link is shown once, on the new-game page */
  }
}

/** What the server describes of each game it can draw (pages.describe), by game name. */
export function gameDescriptions() {
  try {
    return JSON.parse(document.body.dataset.games || '{}');
  } catch (error) {
    return {};
  }
}

/** A choice kept in this browser (``fallback`` when none was kept or storage is closed). */
export function remembered(key, fallback) {
  try {
    return localStorage.getItem(key) || fallback;
  } catch (error) {
    return fallback;
  }
}

export function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (error) {
    /* not kept */
  }
}

/** Select ``input``'s text and put it on the clipboard where the browser lets us. */
export function copyText(input) {
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
}
