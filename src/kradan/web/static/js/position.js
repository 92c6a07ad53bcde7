/* kradan serve: reading a position's text. The server sends every position the board shows
 * (the game view's "positions"); the page only reads them: the side to move, the pieces in
 * hand, the move number, and, for the screened setup, the pieces on their squares. */

/** The side to move in ``fen`` (kradan's chess FEN and Alquerque's both have it second). */
export const sideToMove = fen => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

/** The move number in ``fen``: field ``field`` (negative: from the end), as the game says. */
export function moveNumber(fen, field) {
  const fields = fen.trim().split(/\s+/);
  const index = field === undefined || field === null ? -1 : field;
  const number = parseInt(fields[index < 0 ? fields.length + index : index], 10);
  return Number.isFinite(number) && number > 0 ? number : 1;
}

/** Whether ``fen`` has a piece in hand (the pockets are shown while it has). */
export function hasPiecesInHand(fen) {
  const hand = /\[([^\]]*)\]/.exec(fen.split(' ')[0]);
  return Boolean(hand && hand[1].length);
}

const key = (file, rank) => String.fromCharCode(97 + file) + rank;

/** The pieces of ``fen`` (key -> {role, color}) and its pockets ({white: {role: n}, ...}). */
export function readPosition(fen, width, height) {
  const field = fen.split(' ')[0];
  const bracket = field.indexOf('[');
  const pieces = new Map();
  const rows = (bracket >= 0 ? field.slice(0, bracket) : field).split('/');
  rows.forEach((row, index) => {
    let file = 0;
    for (const match of row.matchAll(/(\d+)|([A-Za-z])~?/g)) {
      if (match[1]) {
        file += parseInt(match[1], 10);
        continue;
      }
      const char = match[2];
      const color = char === char.toUpperCase() ? 'white' : 'black';
      pieces.set(key(file, height - index), { role: char.toLowerCase(), color });
      file += 1;
    }
  });
  let pockets = null;
  if (bracket >= 0) {
    pockets = { white: {}, black: {} };
    for (const char of field.slice(bracket + 1, field.indexOf(']'))) {
      const color = char === char.toUpperCase() ? 'white' : 'black';
      const role = char.toLowerCase();
      pockets[color][role] = (pockets[color][role] || 0) + 1;
    }
  }
  return { pieces, pockets, width, height };
}

/** The board part of a FEN for ``position`` (with its pockets), as chessgroundx reads it. */
export function writePosition(position) {
  const rows = [];
  for (let rank = position.height; rank >= 1; rank -= 1) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < position.width; file += 1) {
      const piece = position.pieces.get(key(file, rank));
      if (!piece) {
        empty += 1;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      row += piece.color === 'white' ? piece.role.toUpperCase() : piece.role;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  let text = rows.join('/');
  if (position.pockets) {
    let inHand = '';
    for (const color of ['white', 'black']) {
      for (const [role, count] of Object.entries(position.pockets[color])) {
        inHand += (color === 'white' ? role.toUpperCase() : role).repeat(count);
      }
    }
    text += `[${inHand}]`;
  }
  return text;
}
