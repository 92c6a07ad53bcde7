/* kradan serve: the analysis board's tree drawn as text: the main line with its move numbers,
 * each variation in brackets where it branches off (nested ones inside), comments and NAGs
 * after their moves, and the computer review's mark (node.review, review-panel.js) in its colour.
 * A click on a move shows it. */
import { moveNumber, sideToMove } from './position.js';
import { MARK_CLASSES } from './review-graph.js';
import { NAG_SYMBOLS } from './tree.js';
import { N_, digits, t } from './words.js';

const isCount = node => Boolean(node.uci && node.uci.startsWith('count:'));
const COUNT_WORDS = { 'count:declare': N_('declares a count'), 'count:stop': N_('stops the count') };

/** Plies from the root to ``node`` (counts are no plies). */
function plyOf(node) {
  let plies = 0;
  for (let at = node; at && at.parent; at = at.parent) if (!isCount(at)) plies += 1;
  return plies;
}

function moveLabel(node, numbering, force) {
  const ply = plyOf(node);
  const blackFirst = numbering.first === 'black';
  const white = blackFirst ? ply % 2 === 0 : ply % 2 === 1;
  const number = numbering.number + Math.floor((ply - 1 + (blackFirst ? 1 : 0)) / 2);
  if (white) return `${digits(number)}. `;
  return force ? `${digits(number)}… ` : '';
}

function nagText(node) {
  return Array.from(node.nags).sort((a, b) => a - b)
    .map(nag => NAG_SYMBOLS[nag] || ` $${nag}`).join('');
}

function moveElement(node, ctx, force) {
  const span = document.createElement('span');
  span.className = 'tree-move';
  span.dataset.node = String(node.id);
  if (isCount(node)) {
    span.classList.add('tree-count');
    span.textContent = t(COUNT_WORDS[node.uci] || node.uci);
  } else {
    const written = ctx.thai && node.thai ? node.thai : node.san;
    span.textContent = moveLabel(node, ctx.numbering, force) + written + nagText(node);
    const mark = node.review && node.review.mark;
    if (mark) {
      const shown = document.createElement('span');
      shown.className = `review-mark mark-${MARK_CLASSES[mark]}`;
      shown.textContent = mark;
      span.append(shown);
    }
  }
  if (node === ctx.current) {
    span.classList.add('current');
    span.setAttribute('aria-current', 'true');
  }
  span.addEventListener('click', () => ctx.show(node));
  return span;
}

function commentElement(node) {
  const span = document.createElement('span');
  span.className = 'tree-comment';
  span.textContent = node.comment;
  return span;
}

/** ``node`` and the moves after it along the main continuations, into ``box``; the
 * variations of each branch in brackets after the main move. */
function drawLine(node, box, ctx, forceFirst) {
  let at = node;
  let force = forceFirst;
  while (at) {
    box.append(moveElement(at, ctx, force), ' ');
    force = false;
    if (at.comment) {
      box.append(commentElement(at), ' ');
      force = true;
    }
    const parent = at.parent;
    const siblings = parent ? parent.children : [];
    if (parent && siblings[0] === at && siblings.length > 1) {
      for (const other of siblings.slice(1)) {
        const variation = document.createElement('span');
        variation.className = 'tree-variation';
        drawLine(other, variation, ctx, true);
        box.append(variation, ' ');
      }
      force = true;
    }
    [at] = at.children; // the others are drawn after it, as above

  }
}

/** Draw the tree of ``root`` into ``box``, ``current`` marked; a click calls ``show(node)``. */
export function renderTree(box, root, current, { info, thai, show }) {
  box.textContent = '';
  const numbering = { first: sideToMove(root.fen), number: moveNumber(root.fen, info.move_number_field) };
  const ctx = { current, thai, show, numbering };
  if (root.comment) box.append(commentElement(root), ' ');
  if (!root.children.length) {
    const empty = document.createElement('p');
    empty.className = 'tree-empty';
    empty.textContent = t('Make a move on the board, or load a game below.');
    box.append(empty);
    return;
  }
  drawLine(root.children[0], box, ctx, true);
  const marked = box.querySelector('.current');
  if (marked && typeof marked.scrollIntoView === 'function') marked.scrollIntoView({ block: 'nearest' });
}
