/* kradan serve: the board, chessgroundx from the committed bundle board.min.js (the global
 * KradanBoard). It shows the position the server sent for the ply on view, highlights the
 * squares the last move touched, and offers the legal moves of the side this browser moves.
 * Everything it knows of the game comes from the server's description (state.info). */
import { dests } from './legal.js';
import { hasPiecesInHand, sideToMove } from './position.js';
import { movableColor, playing } from './state.js';

const $ = selector => document.querySelector(selector);

const notationOf = labels =>
  labels === 'thai' ? window.KradanBoard.Notation.THAI_ALGEBRAIC : window.KradanBoard.Notation.ALGEBRAIC;

/** Khmer and Burmese coordinates, which chessgroundx does not know: it draws Latin ones and
 * they are rewritten where they stand, files a-h as the first consonants of the alphabet and
 * ranks in the script's digits, as chessgroundx's Thai coordinates (ก-ญ, ๑-๘) do for Thai
 * (docs/translating.md). */
const SCRIPTS = {
  khmer: { files: Array.from('កខគឃងចឆជ'), digits: Array.from('០១២៣៤៥៦៧៨៩') },
  burmese: { files: Array.from('ကခဂဃငစဆဇ'), digits: Array.from('၀၁၂၃၄၅၆၇၈၉') },
};

function writeCoordinates(element, labels) {
  const script = SCRIPTS[labels];
  if (!script) return;
  for (const coord of element.querySelectorAll('coords coord')) {
    const text = coord.textContent;
    const written = text
      .replace(/[a-h]/g, letter => script.files[letter.charCodeAt(0) - 97])
      .replace(/[0-9]/g, digit => script.digits[digit]);
    if (written !== text) coord.textContent = written;
  }
}

/** chessgroundx draws its coordinates anew when the board is redrawn (flipped, resized, the
 * notation set): each time they are written again in the script ``state.labels`` names. */
function keepCoordinates(state, element) {
  const write = () => writeCoordinates(element, state.labels);
  new MutationObserver(write).observe(element, { childList: true, subtree: true });
  write();
}

/** Make the board for ``ctrl.state``; its moves and clicks go to ``ctrl.onSegment`` and
 * ``ctrl.onSelect``. */
export function createBoard(ctrl) {
  const { state } = ctrl;
  const { info, game } = state;
  const KB = window.KradanBoard;
  const element = $('#board');
  const column = $('.board-column');
  const dimensions = { width: info.width, height: info.height };
  element.classList.add('kradan-board-' + info.board, `dims-${info.width}x${info.height}`);
  column.classList.add('kradan-' + info.family);
  const config = {
    fen: game.fen,
    orientation: state.orientation,
    turnColor: game.turn,
    coordinates: true,
    notation: notationOf(state.labels),
    dimensions,
    kingRoles: info.kings.map(role => role + '-piece'),
    animation: { enabled: true, duration: 160 },
    highlight: { lastMove: true, check: true },
    movable: {
      free: false,
      showDests: true,
      events: {
        after: (orig, dest) => ctrl.onSegment(orig, dest),
        afterNewPiece: (piece, key) => ctrl.onSegment(piece.role[0].toUpperCase() + '@', key),
      },
    },
    premovable: { enabled: Boolean(info.premove), events: { set: () => {}, unset: () => {} } },
    draggable: { enabled: true, showGhost: true },
    selectable: { enabled: true },
    drawable: { enabled: true, visible: true },
    events: { select: key => ctrl.onSelect(key) },
  };
  if (info.premove) {
    config.premovable.premoveFunc = KB.premove(info.premove, false, dimensions);
    if (info.pocket) config.premovable.predropFunc = KB.predrop(info.premove, dimensions);
  }
  let pocketTop;
  let pocketBottom;
  if (info.pocket) {
    const roles = info.pocket.map(role => role + '-piece');
    config.pocketRoles = { white: roles, black: roles };
    pocketTop = $('#pocket-top');
    pocketBottom = $('#pocket-bottom');
    column.classList.add('with-pockets');
  }
  state.board = KB.Chessground(element, config, pocketTop, pocketBottom);
  keepCoordinates(state, element);
  window.kradan.board = state.board;
}

/** Show or hide the pockets (they are shown while a piece is still in hand). */
export function showPockets(state, shown) {
  const column = $('.board-column');
  if (column.classList.contains('pockets-empty') !== shown) return;
  column.classList.toggle('pockets-empty', !shown);
  // the board moved: chessgroundx measures it again, or clicks land on the wrong squares
  state.board.redrawAll();
}

/** Latin, Thai, Khmer or Burmese coordinates, as ``state.labels`` says. */
export function showLabels(state) {
  state.board.set({ notation: notationOf(state.labels) });
  state.board.redrawAll();
}

/** The position after ``ply`` plies, as the server sent it. */
export function positionAt(game, ply) {
  const positions = game.positions || [];
  return positions[ply] || game.fen;
}

/** The squares the move before ``ply`` touched, for the last-move highlight. */
export function lastMoveAt(game, ply) {
  const squares = (game.move_squares || [])[ply - 1];
  return squares && squares.length ? Array.from(new Set(squares)) : undefined;
}

/** Whether ``color`` still has its first leaps (the gates field of the FEN). */
function leapRights(fen, color) {
  const field = fen.split(' ')[2] || '-';
  return color === 'white' ? /[A-Z]/.test(field) : /[a-z]/.test(field);
}

/** Draw the ply on view: a past one for browsing, or the current one, ready for a move. */
export function drawPosition(state) {
  const { board, game, info } = state;
  const ply = state.viewPly === null ? (game.moves || []).length : state.viewPly;
  const fen = positionAt(game, ply);
  if (info.pocket) showPockets(state, hasPiecesInHand(fen));
  const element = $('#board');
  if (state.viewPly !== null) {
    board.set({
      fen,
      turnColor: sideToMove(fen),
      lastMove: lastMoveAt(game, ply),
      check: false,
      movable: { color: undefined, dests: new Map() },
    });
    board.cancelPremove();
    element.classList.add('history');
    return;
  }
  element.classList.remove('history');
  const color = movableColor(state);
  board.set({
    fen,
    turnColor: game.turn,
    lastMove: lastMoveAt(game, ply),
    check: game.check ? [game.check] : false,
    movable: { color, dests: color === game.turn ? dests(state.legal, []) : new Map() },
    premovable: { castle: color && info.premove ? leapRights(game.fen, color) : false },
  });
  if (!playing(state)) board.cancelPremove();
  else if (color === game.turn) setTimeout(() => board.playPremove(), 0);
}
