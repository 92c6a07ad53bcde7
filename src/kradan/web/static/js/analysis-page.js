/* kradan serve: the entry of the analysis board (body[data-page="analysis"]). The board, its
 * move entry and its chooser are the game page's (board.js, input.js, chooser.js), fed with a
 * "game" made of the server's LineView of the line on view: the page knows no rules. The tree
 * (tree.js) holds every move tried; the engine (engine-lines.js) analyses the node on view.
 *
 * The address says where to start: /analysis?variant=makruk&fen=...&moves=e3e4+d6d5 (moves
 * separated by spaces), /analysis?game=<id> for a game of this server, whose computer review
 * (review-panel.js) is shown beside the tree (and started at once with &review=1), or
 * /analysis?archive=<id> for a game of the archive (archived-game.js). The opening explorer
 * (explorer-panel.js) shows what the archive played from the position on view. window.kradan
 * shows the state to the tests. */
import { showMessage } from './message.js';
import { gameDescriptions, gamePath, remember, request } from './api.js';
import { createBoard, drawPosition, showLabels } from './board.js';
import { hideChooser } from './chooser.js';
import { analyse, createEngine, stop } from './engine-lines.js';
import { readArchived } from './archived-game.js';
import { createExplorer, explore } from './explorer-panel.js';
import { onSegment, onSelect } from './input.js';
import { parseMove } from './legal.js';
import { LABELS_KEY, NOTATION_KEY, createState } from './state.js';
import {
  addLine, endOfLine, makeRoot, movesTo, promote, remove, siblingOf, toggleNag, treeFromJson,
  treeJson,
} from './tree.js';
import { createReview, judgeTry, loadReview, renderReview } from './review-panel.js';
import { downloadTree } from './tree-download.js';
import { renderTree } from './tree-view.js';
import {
  colorName, countingText, labelsSwitchText, otherLabels, t, terminationText, translatePage,
} from './words.js';

const $ = selector => document.querySelector(selector);
const DEFAULT_GAME = 'makruk';
const PLAYERS = { white: 'human', black: 'human' };

const state = createState(undefined, gameDescriptions());
state.serverSeat = undefined;
const page = { variant: DEFAULT_GAME, options: {}, headers: {}, root: null, current: null, busy: 0 };
const ctrl = {
  state,
  showMessage,
  send: uci => play(uci),
  onSelect: key => onSelect(ctrl, key),
  onSegment: (orig, dest) => onSegment(ctrl, orig, dest),
  renderBoard: () => drawBoard(),
  render: () => render(),
};

/** The server's LineView as the "game" board.js draws. */
function gameOf(view) {
  return {
    ...view,
    status: view.outcome ? 'ended' : 'playing',
    players: PLAYERS,
    ply: view.moves.length,
    legal_moves: view.legal_moves,
  };
}

/** POST /api/line for the moves that reach ``node``. */
async function lineTo(node, extra) {
  const moves = movesTo(node).concat(extra || []);
  return request('POST', '/api/line', {
    variant: page.variant, options: page.options, fen: page.root.fen, moves,
  });
}

/** Show ``node``: its line's view (asked for once), the board, the tree, the engine. */
async function show(node) {
  page.current = node;
  window.kradan.current = node;
  if (!node.view) {
    page.busy += 1;
    try {
      node.view = await lineTo(node);
    } catch (error) {
      showMessage(error.message);
      return;
    } finally {
      page.busy -= 1;
    }
    if (page.current !== node) return; // another node was chosen meanwhile
  }
  state.game = gameOf(node.view);
  window.kradan.game = state.game;
  state.legal = (node.view.legal_moves || []).map(parseMove);
  if (!state.board) createBoard(ctrl);
  render();
  askEngine();
  explore(page.explorer, page.variant, node.view.fen);
  window.kradan.updates += 1;
}

/** A move entered on the board (or picked from the engine's lines). */
async function play(uci) {
  const node = page.current;
  const known = node.children.find(child => child.uci === uci);
  if (known) {
    await show(known);
  } else {
    try {
      const view = await lineTo(node, [uci]);
      await show(addLine(page.root, view));
    } catch (error) {
      showMessage(error.message);
      drawBoard();
      return;
    }
  }
  judgeTry(page.review, page.current);
}

function drawBoard() {
  if (!state.board || !state.game) return;
  state.entered = [];
  $('#finish-chain').hidden = true;
  hideChooser();
  drawPosition(state);
}

function statusText(view) {
  if (view.outcome) {
    const how = terminationText(view.outcome.termination);
    return how ? `${view.outcome.result} · ${how}` : view.outcome.result;
  }
  return t('{color} to move', { color: colorName(view.turn) });
}

function render() {
  const view = page.current.view;
  const info = state.info;
  drawBoard();
  $('#status').textContent = statusText(view);
  const counting = $('#counting');
  counting.hidden = !view.counting;
  counting.textContent = view.counting || '';
  $('#name-top').textContent = colorName(state.orientation === 'white' ? 'black' : 'white');
  $('#name-bottom').textContent = colorName(state.orientation);
  renderTree($('#tree'), page.root, page.current, {
    info, thai: state.notation === 'thai', show: node => show(node),
  });
  renderReview(page.review, page.current);
  const node = page.current;
  for (const button of document.querySelectorAll('#nags button')) {
    const on = node.nags.has(Number(button.dataset.nag));
    button.setAttribute('aria-pressed', String(on));
    button.disabled = !node.parent;
  }
  $('#promote').disabled = !node.parent;
  $('#delete').disabled = !node.parent;
  const comment = $('#comment');
  if (document.activeElement !== comment) comment.value = node.comment;
  $('[data-count="declare"]').hidden = !view.can_declare_count;
  $('[data-count="stop"]').hidden = !view.can_stop_count;
  $('#fen').value = view.fen;
  const notation = $('#notation');
  notation.hidden = !view.thai_san;
  notation.textContent = state.notation === 'thai' ? t('Moves in SAN') : t('Moves in Thai SAN');
  $('#open-editor').href = '/editor?' + new URLSearchParams({ variant: page.variant, fen: view.fen });
  const address = new URLSearchParams({ variant: page.variant });
  if (page.root.fen !== page.startFen) address.set('fen', page.root.fen);
  const moves = movesTo(node);
  if (moves.length) address.set('moves', moves.join(' '));
  if (Object.keys(page.options).length) address.set('options', JSON.stringify(page.options));
  window.history.replaceState(null, '', '/analysis?' + address.toString());
}

function askEngine() {
  const view = page.current.view;
  if (!$('#engine-on').checked || view.outcome) {
    stop(page.engine);
    return;
  }
  page.engine.thai = state.notation === 'thai';
  analyse(page.engine, {
    variant: page.variant,
    options: page.options,
    fen: page.root.fen,
    moves: movesTo(page.current),
    multipv: Number($('#multipv').value),
  }, view.turn);
}

/** Start over with a tree of ``root`` for ``variant`` (its board made anew when the game
 * changes). */
async function startTree(variant, options, root, target) {
  const info = state.descriptions[variant];
  if (!info) {
    showMessage(t('This board cannot show {game}.', { game: variant }));
    return;
  }
  if (state.board && state.info !== info) {
    window.location.assign('/analysis?' + new URLSearchParams({ variant, fen: root.fen }));
    return;
  }
  page.variant = variant;
  page.options = options || {};
  page.root = root;
  state.info = info;
  $('header .title').textContent = `${t('Analysis board')} · ${info.title}`;
  document.title = `kradan: ${info.title}`;
  state.orientation = state.orientation || 'white';
  $('#variant').value = variant;
  await show(target ? target(root) : root);
}

/** The start the address asks for. */
async function load() {
  const query = new URLSearchParams(window.location.search);
  let variant = query.get('variant') || DEFAULT_GAME;
  let options = {};
  let fen = query.get('fen');
  let moves = (query.get('moves') || '').split(/[\s+]+/).filter(Boolean);
  try {
    if (query.get('options')) options = JSON.parse(query.get('options')) || {};
  } catch (error) {
    showMessage(t('The rule options in the address cannot be read.'));
  }
  const archived = query.get('archive')
    && await readArchived(query.get('archive')).catch(error => showMessage(error.message));
  if (archived) {
    page.headers = archived.headers || {};
    await startTree(archived.variant, archived.options, treeFromJson(archived));
    return;
  }
  const gameId = query.get('game');
  if (gameId) {
    try {
      const game = await request('GET', gamePath(gameId));
      variant = game.variant;
      options = game.options || {};
      fen = game.start_fen;
      moves = game.moves || [];
      page.headers = { White: game.players.white, Black: game.players.black, Result: game.result };
      page.gameEnded = game.status === 'ended';
    } catch (error) {
      showMessage(error.message);
    }
  }
  if (!state.descriptions[variant]) variant = DEFAULT_GAME;
  if (gameId && page.gameEnded) page.review = createReview(reviewPage(gameId));
  try {
    const view = await request('POST', '/api/line', { variant, options, fen, moves });
    page.startFen = fen ? view.start_fen : view.start_fen;
    const root = makeRoot(view.start_fen, '');
    root.view = moves.length ? null : view;
    await startTree(variant, options, root, tree => (moves.length ? addLine(tree, view) : tree));
    if (page.review) await loadReview(page.review, query.get('review') === '1');
  } catch (error) {
    showMessage(error.message);
    const view = await request('POST', '/api/line', { variant: DEFAULT_GAME, options: {}, moves: [] });
    const root = makeRoot(view.start_fen, '');
    root.view = view;
    page.startFen = view.start_fen;
    await startTree(DEFAULT_GAME, {}, root);
  }
}

/** What the review panel may see and do of the page. */
function reviewPage(gameId) {
  return {
    gameId,
    get variant() { return page.variant; },
    get options() { return page.options; },
    get root() { return page.root; },
    show: node => show(node),
    render: () => render(),
    playFrom: async (node, uci) => {
      if (page.current !== node) await show(node);
      await play(uci);
    },
    setEngine: on => {
      $('#engine-on').checked = on;
      $('#engine-on').disabled = !on;
      askEngine();
    },
  };
}

function step(to) {
  if (to && to !== page.current) show(to);
}

function initControls() {
  $('#nav-first').addEventListener('click', () => step(page.root));
  $('#nav-prev').addEventListener('click', () => step(page.current.parent));
  $('#nav-next').addEventListener('click', () => step(page.current.children[0]));
  $('#nav-last').addEventListener('click', () => step(endOfLine(page.current)));
  document.addEventListener('keydown', event => {
    if (!page.current || event.target.closest('input, select, textarea')) return;
    const node = page.current;
    if (event.key === 'ArrowLeft') step(node.parent);
    else if (event.key === 'ArrowRight') step(node.children[0]);
    else if (event.key === 'ArrowUp') step(siblingOf(node, -1));
    else if (event.key === 'ArrowDown') step(siblingOf(node, 1));
    else if (event.key === 'Home') step(page.root);
    else if (event.key === 'End') step(endOfLine(node));
    else if (event.key === 'f') $('#flip').click();
    else return;
    event.preventDefault();
  });
  $('#flip').addEventListener('click', () => {
    state.orientation = state.orientation === 'white' ? 'black' : 'white';
    state.board.set({ orientation: state.orientation });
    render();
  });
  $('#labels').textContent = labelsSwitchText(state.labels);
  $('#labels').addEventListener('click', () => {
    state.labels = otherLabels(state.labels);
    remember(LABELS_KEY, state.labels);
    showLabels(state);
    $('#labels').textContent = labelsSwitchText(state.labels);
  });
  $('#notation').addEventListener('click', () => {
    state.notation = state.notation === 'thai' ? 'san' : 'thai';
    remember(NOTATION_KEY, state.notation);
    render();
    askEngine();
  });
  for (const button of document.querySelectorAll('#nags button')) {
    button.addEventListener('click', () => {
      toggleNag(page.current, Number(button.dataset.nag));
      render();
    });
  }
  $('#promote').addEventListener('click', () => {
    promote(page.current);
    render();
  });
  $('#delete').addEventListener('click', () => show(remove(page.current)));
  for (const button of document.querySelectorAll('[data-count]')) {
    button.addEventListener('click', () => play(`count:${button.dataset.count}`));
  }
  $('#comment').addEventListener('input', event => {
    page.current.comment = event.target.value;
  });
  $('#comment').addEventListener('change', () => render());
  $('#engine-on').addEventListener('change', askEngine);
  $('#multipv').addEventListener('change', askEngine);
  const variants = $('#variant');
  for (const [name, info] of Object.entries(state.descriptions)) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = info.title;
    variants.append(option);
  }
  variants.addEventListener('change', () => {
    window.location.assign('/analysis?' + new URLSearchParams({ variant: variants.value }));
  });
  $('#set-fen').addEventListener('click', async () => {
    const fen = $('#fen').value.trim();
    try {
      const view = await request('POST', '/api/line', { variant: page.variant, options: page.options, fen, moves: [] });
      const root = makeRoot(view.start_fen, '');
      root.view = view;
      await startTree(page.variant, page.options, root);
    } catch (error) {
      showMessage(error.message);
    }
  });
  $('#load-pgn').addEventListener('click', async () => {
    try {
      const tree = await request('POST', '/api/pgn/read', { pgn: $('#pgn-text').value });
      page.headers = tree.headers || {};
      if (tree.variant !== page.variant && state.board) {
        sessionStorage.setItem('kradan-analysis-pgn', $('#pgn-text').value);
        window.location.assign('/analysis?' + new URLSearchParams({ variant: tree.variant }));
        return;
      }
      await startTree(tree.variant, tree.options, treeFromJson(tree));
    } catch (error) {
      showMessage(error.message);
    }
  });
  $('#download-pgn').addEventListener('click', downloadPgn);
}

async function downloadPgn() {
  const body = treeJson(page.root, { variant: page.variant, options: page.options, headers: page.headers });
  const text = await downloadTree(body, `kradan-${page.variant}-analysis.pgn`);
  if (text !== null) window.kradan.pgn = text;
}

window.kradan = { t, updates: 0, page, countingText };
translatePage();
page.engine = createEngine(uci => play(uci));
page.explorer = createExplorer(uci => play(uci), () => state.notation === 'thai');
initControls();
const pasted = sessionStorage.getItem('kradan-analysis-pgn');
if (pasted) {
  sessionStorage.removeItem('kradan-analysis-pgn');
  $('#pgn-text').value = pasted;
  load().then(() => $('#load-pgn').click());
} else {
  load();
}
