/* kradan serve: the legal moves the server lists, as segments the board can offer.
 * A UCI move is read the same way for every game: parts separated by commas; a part "hc3" is
 * a huff (Alquerque), "R@a1" a drop, any other part its points in order (one segment per hop:
 * "b3d3d5" is two) and, last, the letter of a promotion ("e5e5f"). A sutra ("e3e4,e1e3") is
 * two parts, so two segments. */

const POINT = /[a-p](?:1[0-6]|[1-9])/g;

/** ``uci`` as {uci, huff, segments: [[orig, dest], ...], promotion}; a drop's origin is "R@". */
export function parseMove(uci) {
  let huff = null;
  let promotion = '';
  const segments = [];
  for (const part of uci.split(',')) {
    const huffed = /^h([a-p](?:1[0-6]|[1-9]))$/.exec(part);
    if (huffed) {
      huff = huffed[1];
      continue;
    }
    const drop = /^([A-Za-z])@([a-p](?:1[0-6]|[1-9]))$/.exec(part);
    if (drop) {
      segments.push([drop[1].toUpperCase() + '@', drop[2]]);
      continue;
    }
    const points = part.match(POINT) || [];
    if (points.length < 2) return { uci, huff, segments: [], promotion: '' };
    for (let i = 1; i < points.length; i += 1) segments.push([points[i - 1], points[i]]);
    const letter = /[a-z]$/.exec(part);
    if (letter) promotion = letter[0];
  }
  return { uci, huff, segments, promotion };
}

const startsWith = (move, prefix) => move.segments.length >= prefix.length &&
  prefix.every((segment, i) => move.segments[i][0] === segment[0] && move.segments[i][1] === segment[1]);

/** The moves that begin with the segments ``prefix``. */
export const matching = (moves, prefix) => moves.filter(move => startsWith(move, prefix));

/** Where each piece may go next after ``prefix``, as chessgroundx's dests (origin -> keys). */
export function dests(moves, prefix) {
  const found = new Map();
  for (const move of matching(moves, prefix)) {
    if (move.segments.length <= prefix.length) continue;
    const [from, to] = move.segments[prefix.length];
    if (!found.has(from)) found.set(from, []);
    if (!found.get(from).includes(to)) found.get(from).push(to);
  }
  return found;
}
