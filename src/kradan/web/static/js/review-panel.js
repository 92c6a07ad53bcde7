/* kradan serve: the computer's review of a game of this server, beside the analysis board of
 * /analysis?game=<id>. The server reviews the whole game in the background
 * (POST /api/games/{id}/analysis; GET tells how far it is): this panel asks for it, shows a
 * progress bar while it runs, then the evaluation graph, each side's ?! ? ?? counts, the marks
 * on the moves of the tree and, for a marked move, the engine's better move.
 *
 * "Find a better move" takes one side's mistakes and blunders in turn: the board goes to the
 * position before the move, the engine's lines are hidden, and a move entered there is judged:
 * the review's best move, or any move that loses less than an inaccuracy's worth of expected
 * score against it (asked of POST /api/analysis), is found; another goes back to try again. */
import { request, gamePath } from './api.js';
import { scoreText } from './engine-lines.js';
import { MARK_CLASSES, drawGraph, markGraph } from './review-graph.js';
import { N_, colorName, t, tn } from './words.js';

const $ = selector => document.querySelector(selector);
/** how often the review's progress is asked for while it runs, in milliseconds */
const POLL_MS = 800;
/** how long the engine checks a move tried in "find a better move", in milliseconds */
const CHECK_MS = 700;
/** how long a refused try stays on the board before the position comes back */
const BACK_MS = 900;
const MARK_NAMES = { '?!': N_('Inaccuracy'), '?': N_('Mistake'), '??': N_('Blunder') };

/** ``page``: {gameId, variant, options, root, current, show(node), setEngine(on)}. */
export function createReview(page) {
  const review = { page, data: null, timer: null, learn: null };
  window.kradan.review = review;
  $('#review').hidden = false;
  $('#review-start').addEventListener('click', () => start(review));
  $('#learn-start').addEventListener('click', () => startLearning(review));
  $('#learn-show').addEventListener('click', () => showAnswer(review));
  $('#learn-next').addEventListener('click', () => nextMistake(review));
  $('#learn-stop').addEventListener('click', () => stopLearning(review));
  return review;
}

/** What the server has of the review; start it too when ``begin`` (the game page's
 * "Analyse this game" link asks so). */
export async function loadReview(review, begin) {
  try {
    const state = await request('GET', gamePath(review.page.gameId, 'analysis'));
    if (state.status === 'none' && begin) await start(review);
    else take(review, state);
  } catch (error) {
    showState(review, error.message);
  }
}

async function start(review) {
  $('#review-start').disabled = true;
  try {
    take(review, await request('POST', gamePath(review.page.gameId, 'analysis'), {}));
  } catch (error) {
    $('#review-start').disabled = false;
    showState(review, error.message);
  }
}

function poll(review) {
  clearTimeout(review.timer);
  review.timer = setTimeout(async () => {
    try {
      take(review, await request('GET', gamePath(review.page.gameId, 'analysis')));
    } catch (error) {
      showState(review, error.message);
      poll(review); // the server may be restarting: ask again
    }
  }, POLL_MS);
}

function showState(review, text) {
  const line = $('#review-state');
  line.hidden = !text;
  line.textContent = text || '';
}

/** A state from the server: the progress, or the finished review. */
function take(review, state) {
  const progress = $('#review-progress');
  const running = state.status === 'queued' || state.status === 'running';
  $('#review-start').hidden = running || state.status === 'done';
  $('#review-start').disabled = false;
  progress.hidden = !running;
  progress.value = state.progress || 0;
  if (state.status === 'queued') showState(review, t('Waiting for the engine…'));
  else if (state.status === 'running') {
    showState(review, t('The engine reviews the game: {percent}%', { percent: Math.floor((state.progress || 0) * 100) }));
  } else if (state.status === 'failed') {
    showState(review, t('The review failed: {error}', { error: state.error || '' }));
  } else if (state.status === 'none') showState(review, '');
  if (running) {
    poll(review);
    return;
  }
  if (state.status !== 'done') return;
  showState(review, '');
  review.data = state;
  attach(review);
  drawGraph($('#review-graph'), state, ply => review.page.show(nodeAtPly(review, ply)));
  $('#review-graph').removeAttribute('hidden'); // an <svg> has no .hidden
  drawSummary(state);
  $('#review-result').hidden = false;
  review.page.render();
}

/** The main line's move nodes, in order, counts left out (the review's plies are moves). */
function mainLine(review) {
  const nodes = [];
  for (let at = review.page.root.children[0]; at; [at] = at.children) {
    if (!at.uci.startsWith('count:')) nodes.push(at);
  }
  return nodes;
}

/** Give each node of the main line its ply's review (node.review), where the moves agree. */
function attach(review) {
  const nodes = mainLine(review);
  review.data.plies.forEach((ply, index) => {
    const node = nodes[index];
    if (node && node.uci === ply.uci) node.review = ply;
  });
}

function nodeAtPly(review, ply) {
  if (ply <= 0) return review.page.root;
  const nodes = mainLine(review);
  return nodes[Math.min(ply, nodes.length) - 1] || review.page.root;
}

function drawSummary(state) {
  const table = $('#review-summary');
  table.textContent = '';
  const head = document.createElement('tr');
  head.append(document.createElement('th'));
  for (const mark of ['?!', '?', '??']) {
    const cell = document.createElement('th');
    cell.className = `mark-${MARK_CLASSES[mark]}`;
    cell.textContent = mark;
    cell.title = t(MARK_NAMES[mark]);
    head.append(cell);
  }
  const loss = document.createElement('th');
  loss.textContent = t('Average loss');
  loss.title = t('Average loss of expected score per move, in points of 100');
  head.append(loss);
  table.append(head);
  for (const color of ['white', 'black']) {
    const side = state.summary[color];
    const row = document.createElement('tr');
    row.dataset.color = color;
    const name = document.createElement('th');
    name.textContent = colorName(color);
    row.append(name);
    for (const count of [side.inaccuracies, side.mistakes, side.blunders]) {
      const cell = document.createElement('td');
      cell.textContent = String(count);
      row.append(cell);
    }
    const average = document.createElement('td');
    average.textContent = side.average_loss.toFixed(1);
    row.append(average);
    table.append(row);
  }
}

/** Called at every render of the page: the graph's cursor and the note on the move on view. */
export function renderReview(review, node) {
  if (!review || !review.data) return;
  const plies = mainLine(review);
  const index = node === review.page.root ? 0 : plies.indexOf(node) + 1;
  markGraph($('#review-graph'), index > 0 || node === review.page.root ? index : null);
  const note = $('#review-note');
  note.textContent = '';
  const ply = node.review;
  note.hidden = !ply || !ply.mark || Boolean(review.learn);
  if (note.hidden) return;
  const what = document.createElement('strong');
  what.className = `mark-${MARK_CLASSES[ply.mark]}`;
  what.textContent = `${ply.san}${ply.mark} ${t(MARK_NAMES[ply.mark])}.`;
  note.append(what, ' ');
  if (ply.best) {
    const best = document.createElement('button');
    best.type = 'button';
    best.className = 'review-best';
    best.textContent = t('Best was {move}', { move: ply.best.san });
    best.title = `${scoreText(ply.best.score)} ${ply.best.line.join(' ')}`;
    best.addEventListener('click', () => review.page.playFrom(node.parent, ply.best.uci));
    note.append(best);
  }
}

// --- find a better move ------------------------------------------------------------------------

function mistakesOf(review, color) {
  return mainLine(review).filter(node => node.review && node.review.color === color
    && (node.review.mark === '?' || node.review.mark === '??'));
}

function startLearning(review) {
  if (!review.data) return;
  const color = $('#learn-side').value;
  const queue = mistakesOf(review, color);
  review.learn = { color, queue, at: null, found: 0, tried: 0, checking: false };
  review.page.setEngine(false);
  $('#learn').hidden = false;
  $('#learn-start-line').hidden = true;
  nextMistake(review);
}

function stopLearning(review) {
  review.learn = null;
  $('#learn').hidden = true;
  $('#learn-start-line').hidden = false;
  review.page.setEngine(true);
  review.page.render();
}

function say(text, tone) {
  const line = $('#learn-text');
  line.textContent = text;
  line.dataset.tone = tone || '';
}

function nextMistake(review) {
  const learn = review.learn;
  if (!learn) return;
  learn.at = learn.queue.shift() || null;
  $('#learn-show').hidden = !learn.at;
  $('#learn-next').hidden = !learn.at;
  if (!learn.at) {
    say(learn.tried
      ? t('Done: {found} of {tried} found.', { found: learn.found, tried: learn.tried })
      : t('{color} made no mistakes to learn from.', { color: colorName(learn.color) }), 'done');
    return;
  }
  learn.tried += 1;
  learn.answered = false;
  say(t('{move} was a mistake. Find a better move for {color}.', {
    move: learn.at.review.san, color: colorName(learn.color),
  }));
  $('#learn-left').textContent = tn('{n} to go', '{n} to go', learn.queue.length + 1);
  review.page.show(learn.at.parent);
}

function showAnswer(review) {
  const learn = review.learn;
  if (!learn || !learn.at || !learn.at.review.best) return;
  learn.answered = true;
  say(t('The engine plays {move}.', { move: learn.at.review.best.san }));
  review.page.playFrom(learn.at.parent, learn.at.review.best.uci);
}

/** A move was entered at ``node`` (a new or known child of the position on view): judge it
 * when it answers the mistake being learned from. */
export async function judgeTry(review, node) {
  const learn = review && review.learn;
  if (!learn || !learn.at || learn.answered || node.parent !== learn.at.parent || learn.checking) return;
  const ply = learn.at.review;
  if (node.uci === ply.uci) {
    say(t('That is the move played in the game. Try another.'), 'wrong');
    setTimeout(() => review.page.show(learn.at.parent), BACK_MS);
    return;
  }
  let good = ply.best && node.uci === ply.best.uci;
  if (!good) {
    learn.checking = true;
    say(t('The engine checks your move…'));
    try {
      good = await checkMove(review, node, ply);
    } catch (error) {
      say(error.message, 'wrong');
      return;
    } finally {
      learn.checking = false;
    }
  }
  if (good) {
    learn.found += 1;
    learn.answered = true;
    say(t('Yes: {move} is a good move.', { move: node.san }), 'right');
    return;
  }
  say(t('{move} is no better. Try again.', { move: node.san }), 'wrong');
  setTimeout(() => { if (review.learn) review.page.show(learn.at.parent); }, BACK_MS);
}

/** Whether the move of ``node`` keeps its mover within an inaccuracy of the best move. */
async function checkMove(review, node, ply) {
  const page = review.page;
  const answer = await request('POST', '/api/analysis', {
    variant: page.variant, options: page.options, fen: page.root.fen,
    moves: movesOf(node), multipv: 1, movetime_ms: CHECK_MS,
  });
  const data = review.data;
  const white = ply.color === 'white';
  const mover = expected => (white ? expected : 1 - expected);
  const line = answer.lines && answer.lines[0];
  let after;
  if (line) after = expectedOf(line.score, data.scale);
  else after = node.view && node.view.outcome ? outcomeExpected(node.view.outcome.result) : 0.5;
  const best = ply.best ? expectedOf(ply.best.score, data.scale) : mover(ply.expected);
  return mover(after) >= mover(best) - (data.thresholds['?!'] || 0.05);
}

function movesOf(node) {
  const moves = [];
  for (let at = node; at && at.parent; at = at.parent) moves.push(at.uci);
  return moves.reverse();
}

/** White's expected score of White's ``score`` on the review's curve. */
function expectedOf(score, scale) {
  if (score.mate !== undefined && score.mate !== null) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-scale * score.cp));
}

function outcomeExpected(result) {
  if (result === '1-0') return 1;
  if (result === '0-1') return 0;
  return 0.5;
}
