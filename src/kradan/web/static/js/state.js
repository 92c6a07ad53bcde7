/* kradan serve: the one state of the board page, and what follows from it alone (whose seats
 * this browser holds, which side it may move). Every other module of the page reads and
 * writes this object; none keeps state of its own. */
import { remembered, seatsOf } from './api.js';
import { nativeLabels } from './words.js';

export const LABELS_KEY = 'kradan.labels';
export const NOTATION_KEY = 'kradan.notation';
export const SOUND_KEY = 'kradan.sound';

export function createState(gameId, descriptions) {
  return {
    gameId,
    descriptions, // pages.describe of every game, by name
    game: null, // the latest game view from the server
    info: null, // what the server describes of this game (board shape, pocket, premoves...)
    board: null, // the chessgroundx board
    orientation: null,
    // Latin coordinates, or the page's own (words.js): a choice remembered on a Thai page is
    // the Khmer coordinates on a Khmer page
    labels: remembered(LABELS_KEY, 'latin') === 'latin' ? 'latin' : nativeLabels,
    notation: remembered(NOTATION_KEY, 'san') === 'thai' ? 'thai' : 'san',
    sound: remembered(SOUND_KEY, 'on') !== 'off',
    viewPly: null, // null: the current position; else the ply shown while browsing
    legal: [], // the legal moves, parsed (legal.js)
    entered: [], // the segments of a move being entered point by point
    clock: null, // the clocks as the server sent them, with the time they came ("at")
    waitsAt: 0, // when the latest state came (performance.now()): its waits count from there
    lastSelect: { key: null, at: 0 },
    keyFocus: null, // the board's focus square for the keyboard ({file, rank}, from 0)
    sending: false,
    lostAt: null, // when the game's socket was lost (performance.now()), until a state comes again
    refused: new Set(), // colours the server said are not ours
    serverSeat: undefined, // the seat the cookie holds (null: a spectator), once the server says
    // the screened setup: the camp arranged here ({color, placed: Map key -> role}), the side
    // whose screen was lifted, and the camps this browser handed in (color -> Map)
    arranging: null,
    unscreened: null,
    handedIn: {},
  };
}

export const playing = state => Boolean(state.game && state.game.status === 'playing');

export const tokenFor = (state, color) => seatsOf(state.gameId)[color];

const isEngine = player => String(player || '').startsWith('engine');

/** The colours this browser may move: the seats it holds tokens for, the seat the server says
 * is ours, or, when it knows of none (a seat by cookie only, from an invitation), the human
 * sides it has not been refused: the server has the last word on every move. */
export function myColors(state) {
  if (!state.game) return [];
  const colors = Object.keys(seatsOf(state.gameId)).filter(c => c === 'white' || c === 'black');
  const mine = new Set(colors);
  if (state.serverSeat) mine.add(state.serverSeat);
  if (!mine.size && state.serverSeat === undefined) {
    for (const color of ['white', 'black']) {
      if (!isEngine((state.game.players || {})[color]) && !state.refused.has(color)) mine.add(color);
    }
  }
  return Array.from(mine);
}

/** The side whose pieces this browser may touch now (undefined: none). */
export function movableColor(state) {
  if (!playing(state) || state.viewPly !== null) return undefined;
  const mine = myColors(state);
  if (mine.includes(state.game.turn)) return state.game.turn;
  return mine.length === 1 ? mine[0] : undefined;
}

/** Whether a side of the game is played by the engine, and whether ``color`` is. */
export const engineGame = state =>
  Object.values(state.game.players || {}).some(isEngine);
export const engineSide = (state, color) => isEngine((state.game.players || {})[color]);

/** The plies after a screened setup (no takeback reaches into the setup); 0 during it. */
export function playedMoves(state) {
  const game = state.game;
  if (game.setup) return 0;
  return (game.moves || []).length - (game.setup_plies || 0);
}
