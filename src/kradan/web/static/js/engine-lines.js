/* kradan serve: the engine beside the analysis board. One websocket, /api/analysis/socket:
 * the page sends {t: "analyse", id, variant, options, fen, moves, multipv} for the position on
 * view (the start and the moves to it, so the engine knows the repetitions and the count) and
 * {t: "stop"}; the server answers {t: "lines", id, depth, lines, table, proven, done} as its search
 * deepens, the scores for White. The latest request wins: lines of an older id are dropped. The evaluation bar
 * shows White's winning chance of the first line, or the proven value where one is known. */
import { colorName, t, tn } from './words.js';

const $ = selector => document.querySelector(selector);

/** White's winning chance (0-1) from centipawns for White: a logistic curve. */
export const whiteChance = cp => 1 / (1 + Math.exp(-0.004 * cp));

/** A line's score (the server gives it for White), as text: "+1.25", "-0.40", "#3", "#-2". */
export function scoreText(score) {
  if (score.mate !== undefined && score.mate !== null) return `#${score.mate}`;
  return (score.cp > 0 ? '+' : '') + (score.cp / 100).toFixed(2);
}

function chanceOf(score) {
  if (score.mate !== undefined && score.mate !== null) return score.mate > 0 ? 1 : 0;
  return whiteChance(score.cp);
}

export function createEngine(onPick) {
  const engine = { socket: null, id: 0, wanted: null, turn: 'white', onPick, open: false };
  window.kradan.engine = engine;
  return engine;
}

function connect(engine) {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${scheme}//${window.location.host}/api/analysis/socket`);
  engine.socket = socket;
  socket.addEventListener('open', () => {
    engine.open = true;
    if (engine.wanted) socket.send(JSON.stringify(engine.wanted));
  });
  socket.addEventListener('message', event => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (message.t === 'lines' && message.id === engine.id) showLines(engine, message);
    else if (message.t === 'error' || message.error) showError(message.error || message.message);
  });
  socket.addEventListener('close', () => {
    engine.open = false;
    engine.socket = null;
    // come back for the position on view, a little later (the server may be restarting)
    if (engine.wanted) setTimeout(() => { if (!engine.socket && engine.wanted) connect(engine); }, 1500);
  });
}

function showError(text) {
  $('#engine-depth').textContent = '';
  const list = $('#engine-lines');
  list.textContent = '';
  const item = document.createElement('li');
  item.className = 'engine-error';
  item.textContent = String(text || t('The engine cannot analyse this position.'));
  list.append(item);
}

/** Ask for the lines of the position that ``moves`` reach from ``fen`` (the latest wins). */
export function analyse(engine, request, turn) {
  engine.id += 1;
  engine.turn = turn;
  engine.wanted = { t: 'analyse', id: engine.id, ...request };
  $('#engine-lines').textContent = '';
  $('#engine-depth').textContent = t('thinking…');
  $('#table-verdict').hidden = true;
  $('#proven-verdict').hidden = true;
  if (engine.socket && engine.open) engine.socket.send(JSON.stringify(engine.wanted));
  else if (!engine.socket) connect(engine);
}

export function stop(engine) {
  engine.id += 1;
  engine.wanted = null;
  if (engine.socket && engine.open) engine.socket.send(JSON.stringify({ t: 'stop' }));
  $('#engine-lines').textContent = '';
  $('#engine-depth').textContent = '';
  $('#table-verdict').hidden = true;
  $('#proven-verdict').hidden = true;
  setBar(0.5, '');
}

function setBar(chance, label) {
  const bar = $('#eval-bar');
  bar.querySelector('.eval-white').style.height = `${Math.round(chance * 1000) / 10}%`;
  bar.setAttribute('aria-valuenow', String(Math.round(chance * 100)));
  bar.title = label;
}

function tableText(table) {
  if (!table) return '';
  if (typeof table.text === 'string' && table.text) return table.text;
  return JSON.stringify(table);
}

/** A Bell Alquerque position's proven value (``message.proven``), in words. */
function provenText(proven) {
  const n = proven.plies;
  const move = proven.best_san || proven.best_move || '';
  if (proven.result === 'win') {
    return tn('Proven: the side to move wins in {n} ply, with {move}',
      'Proven: the side to move wins in {n} plies, with {move}', n, { move });
  }
  return tn('Proven: the side to move loses in {n} ply; {move} holds out longest',
    'Proven: the side to move loses in {n} plies; {move} holds out longest', n, { move });
}

/** A proven value as a line's score for White: the end in moves, as a mate is written
 * ("#24": the side to move wins on its 24th move; "#-26": it loses on its opponent's 26th). */
function provenScore(proven, turn) {
  const moves = Math.ceil(proven.plies / 2);
  const forMover = proven.result === 'win' ? moves : -moves;
  return { mate: turn === 'white' ? forMover : -forMover };
}

function showLines(engine, message) {
  const lines = message.lines || [];
  const depth = message.depth || (lines[0] && lines[0].depth) || 0;
  $('#engine-depth').textContent = message.done
    ? t('depth {depth}', { depth })
    : t('depth {depth}…', { depth });
  const verdict = $('#table-verdict');
  verdict.hidden = !message.table;
  verdict.textContent = message.table ? t('Endgame tables: {verdict}', { verdict: tableText(message.table) }) : '';
  const proven = $('#proven-verdict');
  proven.hidden = !message.proven;
  proven.textContent = message.proven ? provenText(message.proven) : '';
  const list = $('#engine-lines');
  list.textContent = '';
  const thai = engine.thai;
  // the line that plays the proven move shows the proven value, not the search's guess
  const proof = message.proven ? provenScore(message.proven, engine.turn) : null;
  const provenMove = message.proven ? message.proven.best_move : null;
  for (const line of lines) {
    const item = document.createElement('li');
    item.className = 'engine-line';
    const score = document.createElement('span');
    score.className = 'engine-score';
    const proved = proof !== null && (line.moves || [])[0] === provenMove;
    score.textContent = scoreText(proved ? proof : line.score);
    if (proved) item.classList.add('engine-proven');
    const moves = document.createElement('span');
    moves.className = 'engine-moves';
    const written = (thai && line.thai_san) || line.san || line.moves || [];
    moves.textContent = written.slice(0, 12).join(' ');
    item.append(score, ' ', moves);
    item.title = tn('{n} move', '{n} moves', (line.moves || []).length);
    if ((line.moves || []).length) {
      item.tabIndex = 0;
      item.addEventListener('click', () => engine.onPick(line.moves[0]));
    }
    list.append(item);
  }
  if (proof) {
    setBar(chanceOf(proof), provenText(message.proven));
  } else if (lines.length) {
    const first = lines[0].score;
    setBar(chanceOf(first), scoreText(first));
  }
  if (!lines.length && message.done) {
    const item = document.createElement('li');
    item.className = 'engine-line';
    item.textContent = t('No move: {color} cannot play.', { color: colorName(engine.turn) });
    list.append(item);
  }
}
