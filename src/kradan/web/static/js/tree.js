/* kradan serve: the analysis board's variation tree. A node is a move (or a count made after
 * one) with what the server wrote of it: its SAN and Thai SAN, the position after it, the
 * squares it touched; the comment and NAGs the reader gave it; and the moves that follow it
 * (the first is the main line). The root is the start position. The page knows no rules: every
 * node came from an answer of POST /api/line or /api/pgn/read. */

/** The symbols of the NAGs the page offers (the rest are written as $n). */
export const NAG_SYMBOLS = { 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' };
/** NAGs 1-6 judge the move: one at a time. */
const MOVE_NAGS = new Set([1, 2, 3, 4, 5, 6]);

let nextId = 1;

/** A node: ``fields`` from the server, the tree's links added. */
export function makeNode(parent, fields) {
  return {
    id: nextId++,
    parent,
    uci: fields.uci || null,
    san: fields.san || '',
    thai: fields.thai_san || null,
    fen: fields.fen,
    squares: fields.squares || [],
    comment: fields.comment || '',
    nags: new Set(fields.nags || []),
    children: [],
    view: null, // the server's LineView of the line up to here, once asked
  };
}

/** The root of a tree that starts at ``fen``. */
export const makeRoot = (fen, comment) => makeNode(null, { fen, comment });

/** The nodes from the root's first move to ``node``. */
export function pathTo(node) {
  const path = [];
  for (let at = node; at && at.parent; at = at.parent) path.push(at);
  return path.reverse();
}

/** The moves (UCI, counts as count:declare / count:stop) from the root to ``node``. */
export const movesTo = node => pathTo(node).map(step => step.uci);

export const rootOf = node => {
  let at = node;
  while (at.parent) at = at.parent;
  return at;
};

/** The node after ``node`` in its line (its main continuation), or itself at the end. */
export const nextInLine = node => node.children[0] || node;

/** The move ``offset`` places from ``node`` among its parent's moves (kept within them). */
export function siblingOf(node, offset) {
  if (!node.parent) return node;
  const siblings = node.parent.children;
  const index = siblings.indexOf(node) + offset;
  return siblings[Math.max(0, Math.min(siblings.length - 1, index))];
}

/** The end of the line that goes on from ``node`` along the main continuations. */
export function endOfLine(node) {
  let at = node;
  while (at.children.length) [at] = at.children;
  return at;
}

/** Add the line of ``view`` (a LineView whose moves begin with ``node``'s path) below ``node``
 * where it goes further, reusing the moves the tree has; the last node gets ``view``. */
export function addLine(root, view) {
  let at = root;
  view.moves.forEach((uci, index) => {
    let child = at.children.find(candidate => candidate.uci === uci);
    if (!child) {
      child = makeNode(at, {
        uci,
        san: view.san[index],
        thai_san: view.thai_san ? view.thai_san[index] : null,
        fen: view.positions[index + 1],
        squares: view.move_squares[index],
      });
      at.children.push(child);
    }
    at = child;
  });
  at.view = view;
  return at;
}

/** Make ``node``'s line the main line at every branch above it. */
export function promote(node) {
  for (let at = node; at.parent; at = at.parent) {
    const siblings = at.parent.children;
    siblings.splice(siblings.indexOf(at), 1);
    siblings.unshift(at);
  }
}

/** Remove ``node`` and everything after it; the node to show instead. */
export function remove(node) {
  if (!node.parent) return node;
  const siblings = node.parent.children;
  siblings.splice(siblings.indexOf(node), 1);
  return node.parent;
}

/** Set a move NAG (one of 1-6: the others of 1-6 go) or remove it when it was set. */
export function toggleNag(node, nag) {
  if (node.nags.has(nag)) {
    node.nags.delete(nag);
    return;
  }
  if (MOVE_NAGS.has(nag)) for (const other of MOVE_NAGS) node.nags.delete(other);
  node.nags.add(nag);
}

const isCount = node => Boolean(node.uci && node.uci.startsWith('count:'));

/** ``node`` as the JSON of one move: its counts are the count nodes right after it. */
function moveJson(node) {
  const counts = [];
  let tail = node;
  while (tail.children.length && isCount(tail.children[0])) {
    [tail] = tail.children;
    counts.push(tail.uci);
  }
  return {
    json: {
      uci: node.uci,
      san: node.san,
      comment: node.comment,
      nags: Array.from(node.nags).sort((a, b) => a - b),
      counts,
      variations: [],
    },
    tail,
  };
}

/** The line from ``first`` along the main continuations, each move with its variations (the
 * other children of the node before it), as lists: the shape of POST /api/pgn/write. */
function lineJson(first) {
  const line = [];
  let at = first;
  while (at) {
    const { json, tail } = moveJson(at);
    const siblings = at.parent.children.filter(child => !isCount(child));
    if (siblings[0] === at) json.variations = siblings.slice(1).map(lineJson);
    line.push(json);
    [at] = tail.children.filter(child => !isCount(child));
  }
  return line;
}

/** The tree as POST /api/pgn/write takes it (and /api/pgn/read gives it). */
export function treeJson(root, header) {
  const first = root.children.find(child => !isCount(child));
  return {
    variant: header.variant,
    options: header.options || {},
    start_fen: root.fen,
    headers: header.headers || {},
    comment: root.comment,
    moves: first ? lineJson(first) : [],
  };
}

/** Add the JSON ``line`` after ``parent``; its variations become the parent's other
 * children. Counts become nodes of their own. */
function addJsonLine(parent, line) {
  let at = parent;
  for (const json of line) {
    const node = makeNode(at, {
      uci: json.uci, san: json.san, thai_san: json.thai_san, fen: json.fen,
      squares: json.uci.match(/[a-p](?:1[0-6]|[1-9])/g) || [],
      comment: json.comment, nags: json.nags,
    });
    at.children.push(node);
    for (const variation of json.variations || []) addJsonLine(at, variation);
    let tail = node;
    for (const count of json.counts || []) {
      const made = makeNode(tail, { uci: count, san: count, thai_san: count, fen: tail.fen });
      tail.children.push(made);
      tail = made;
    }
    at = tail;
  }
}

/** A tree from POST /api/pgn/read's answer. */
export function treeFromJson(tree) {
  const root = makeRoot(tree.start_fen, tree.comment);
  addJsonLine(root, tree.moves || []);
  return root;
}
