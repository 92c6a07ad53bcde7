/* kradan serve: the board editor (body[data-page="editor"]). chessgroundx in free mode holds
 * the pieces; the palettes above and below the board put pieces down (or take them away), the
 * fields beside it make the rest of the FEN: the side to move, Ouk's first-move leaps, the
 * count, the move number, and Sittuyin's pieces in hand. Every change is checked by the server
 * (POST /api/line): an odd position is shown with its warnings, not refused; only a position
 * kradan cannot read at all is. From here: analyse it, or play it against the engine or a friend.
 *
 * /editor?variant=makruk&fen=... starts from that position. window.kradan shows the state to
 * the tests. */
import { showMessage } from './message.js';
import { gameDescriptions, request, saveSeat } from './api.js';
import { hasPiecesInHand, readPosition, writePosition } from './position.js';
import { N_, colorName, opposite, t, translatePage } from './words.js';

const $ = selector => document.querySelector(selector);
const DEFAULT_GAME = 'makruk';
const PIECE_NAMES = {
  k: N_('king'), m: N_('met'), f: N_('ferz'), s: N_('khon'), n: N_('knight'), r: N_('rook'), p: N_('pawn'),
};

const descriptions = gameDescriptions();
const editor = {
  variant: DEFAULT_GAME, info: null, board: null, pick: null, fields: [], hands: null,
  checked: null, checking: 0, orientation: 'white',
};
const chessFamily = () => editor.info.family === 'chess';

/** The FEN of what the board and the fields say now. */
function currentFen() {
  const position = readPosition(editor.board.getFen(), editor.info.width, editor.info.height);
  position.pockets = editor.info.pocket ? editor.hands : null;
  const fields = editor.fields.slice();
  fields[0] = writePosition(position);
  fields[1] = $('#turn').value;
  if (chessFamily()) {
    fields[2] = $('#gates').value.trim() || '-';
    fields[3] = $('#count-limit').value.trim() || '-';
    fields[4] = String(Math.max(0, parseInt($('#count-ply').value, 10) || 0));
  }
  const numberAt = editor.info.move_number_field < 0
    ? fields.length + editor.info.move_number_field : editor.info.move_number_field;
  fields[numberAt] = String(Math.max(1, parseInt($('#move-number').value, 10) || 1));
  return fields.join(' ');
}

/** Take ``fen`` into the board and the fields. */
function showFen(fen) {
  const fields = fen.trim().split(/\s+/);
  editor.fields = fields;
  const position = readPosition(fields[0], editor.info.width, editor.info.height);
  editor.hands = position.pockets || { white: {}, black: {} };
  editor.board.set({ fen: fields[0] });
  $('#turn').value = fields[1] === 'b' ? 'b' : 'w';
  if (chessFamily()) {
    $('#gates').value = fields[2] || '-';
    $('#count-limit').value = fields[3] && fields[3] !== '-' ? fields[3] : '';
    $('#count-ply').value = fields[4] || '0';
  }
  const numberAt = editor.info.move_number_field < 0
    ? fields.length + editor.info.move_number_field : editor.info.move_number_field;
  $('#move-number').value = fields[numberAt] || '1';
  renderHands();
  changed();
}

function pieceElement(color, role) {
  const piece = document.createElement('piece');
  piece.className = `${color} ${role}-piece`;
  return piece;
}

function renderPalettes() {
  for (const [where, color] of [['#palette-top', opposite(editor.orientation)], ['#palette-bottom', editor.orientation]]) {
    const box = $(where);
    box.textContent = '';
    for (const role of editor.info.roles) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'palette-piece';
      button.dataset.color = color;
      button.dataset.role = role;
      button.title = `${colorName(color)} ${t(PIECE_NAMES[role] || role)}`;
      button.setAttribute('aria-pressed', String(Boolean(editor.pick && editor.pick.color === color && editor.pick.role === role)));
      button.append(pieceElement(color, role));
      button.addEventListener('click', () => choose({ color, role }));
      box.append(button);
    }
    const eraser = document.createElement('button');
    eraser.type = 'button';
    eraser.className = 'palette-eraser';
    eraser.dataset.role = 'erase';
    eraser.textContent = '×';
    eraser.title = t('Take pieces away');
    eraser.setAttribute('aria-pressed', String(editor.pick === 'erase'));
    eraser.addEventListener('click', () => choose('erase'));
    box.append(eraser);
  }
}

function choose(pick) {
  const same = pick === editor.pick ||
    (pick !== 'erase' && editor.pick && editor.pick !== 'erase' &&
      pick.color === editor.pick.color && pick.role === editor.pick.role);
  editor.pick = same ? null : pick;
  renderPalettes();
}

/** A click on ``key``: the chosen piece goes there (or the eraser takes what stands there). */
function onSelect(key) {
  if (!editor.pick) return;
  const piece = editor.pick === 'erase' ? undefined : { role: `${editor.pick.role}-piece`, color: editor.pick.color };
  editor.board.setPieces(new Map([[key, piece]]));
  editor.board.selectSquare(null);
  changed();
}

function renderHands() {
  const shown = Boolean(editor.info.pocket);
  $('#hands').hidden = !shown;
  if (!shown) return;
  for (const color of ['white', 'black']) {
    const box = $(`#hand-${color}`);
    box.textContent = '';
    const name = document.createElement('span');
    name.className = 'hand-name';
    name.textContent = colorName(color);
    box.append(name);
    for (const role of editor.info.pocket) {
      const label = document.createElement('label');
      label.title = `${colorName(color)} ${t(PIECE_NAMES[role] || role)}`;
      const input = document.createElement('input');
      input.type = 'number';
      input.min = '0';
      input.max = '8';
      input.value = String(editor.hands[color][role] || 0);
      input.dataset.color = color;
      input.dataset.role = role;
      input.addEventListener('input', () => {
        const count = Math.max(0, Math.min(8, parseInt(input.value, 10) || 0));
        if (count) editor.hands[color][role] = count;
        else delete editor.hands[color][role];
        changed();
      });
      label.append(pieceElement(color, role), input);
      box.append(label);
    }
  }
}

let checkTimer = null;

/** The position changed: a new FEN, checked by the server a moment later. */
function changed() {
  const fen = currentFen();
  if (document.activeElement !== $('#fen')) $('#fen').value = fen;
  $('#analyse').href = '/analysis?' + new URLSearchParams({ variant: editor.variant, fen });
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => check(fen), 150);
}

async function check(fen) {
  editor.checking += 1;
  const verdict = $('#verdict');
  const warnings = $('#warnings');
  try {
    const view = await request('POST', '/api/line', { variant: editor.variant, fen, moves: [] });
    if (fen !== currentFen()) return;
    editor.checked = view;
    verdict.className = 'verdict';
    verdict.textContent = view.outcome
      ? t('The game is over here: {result}', { result: view.outcome.result })
      : t('{color} to move, {n} legal moves', { color: colorName(view.turn), n: view.legal_moves.length });
    warnings.textContent = '';
    for (const warning of view.warnings || []) {
      const item = document.createElement('li');
      item.textContent = warning;
      warnings.append(item);
    }
    setPlayable(true);
  } catch (error) {
    if (fen !== currentFen()) return;
    editor.checked = null;
    verdict.className = 'verdict refused';
    verdict.textContent = error.message;
    warnings.textContent = '';
    setPlayable(false);
  } finally {
    editor.checking -= 1;
    window.kradan.checks += 1;
  }
}

function setPlayable(playable) {
  $('#play-engine').disabled = !playable;
  $('#play-friend').disabled = !playable;
  $('#analyse').classList.toggle('disabled', !playable);
}

/** Start a game from the position: against the engine, or between two on this screen. */
async function play(opponent) {
  const fen = currentFen();
  const color = $('#turn').value === 'b' ? 'black' : 'white';
  try {
    const made = await request('POST', '/api/games', {
      variant: editor.variant, fen, opponent, color, level: 10,
    });
    if (made.warnings && made.warnings.length) {
      sessionStorage.setItem(`kradan-warning-${made.id}`, made.warnings.join('; '));
    }
    if (opponent === 'human' && made.invite) saveSeat(made.id, opposite(made.color), made.invite);
    window.location.assign('/games/' + encodeURIComponent(made.id));
  } catch (error) {
    showMessage(error.message);
  }
}

function createEditorBoard() {
  const KB = window.KradanBoard;
  const info = editor.info;
  const element = $('#board');
  element.classList.add('kradan-board-' + info.board, `dims-${info.width}x${info.height}`);
  // the whole page: the pieces of the palettes and the hands are drawn by the family's rules
  document.body.classList.add('kradan-' + info.family);
  editor.board = KB.Chessground(element, {
    fen: '8/8/8/8/8/8/8/8',
    orientation: editor.orientation,
    coordinates: true,
    dimensions: { width: info.width, height: info.height },
    kingRoles: info.kings.map(role => role + '-piece'),
    autoCastle: false,
    animation: { enabled: false },
    highlight: { lastMove: false, check: false },
    movable: { free: true, color: 'both', showDests: false },
    premovable: { enabled: false },
    draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
    selectable: { enabled: true },
    drawable: { enabled: false },
    events: { select: key => onSelect(key), change: () => changed() },
  });
  window.kradan.board = editor.board;
}

async function startPosition() {
  const view = await request('POST', '/api/line', { variant: editor.variant, moves: [] });
  showFen(view.start_fen);
}

async function load() {
  const query = new URLSearchParams(window.location.search);
  const asked = query.get('variant');
  editor.variant = asked && descriptions[asked] ? asked : DEFAULT_GAME;
  editor.info = descriptions[editor.variant];
  const variants = $('#variant');
  for (const [name, info] of Object.entries(descriptions)) {
    const option = document.createElement('option');
    option.value = name;
    option.textContent = info.title;
    variants.append(option);
  }
  variants.value = editor.variant;
  variants.addEventListener('change', () => {
    window.location.assign('/editor?' + new URLSearchParams({ variant: variants.value }));
  });
  for (const id of ['#gates-field', '#limit-field', '#ply-field']) $(id).hidden = !chessFamily();
  createEditorBoard();
  renderPalettes();
  const fen = query.get('fen');
  if (fen) showFen(fen);
  else await startPosition();
}

function initControls() {
  for (const id of ['#turn', '#gates', '#count-limit', '#count-ply', '#move-number']) {
    $(id).addEventListener('input', changed);
    $(id).addEventListener('change', changed);
  }
  $('#fen').addEventListener('change', () => showFen($('#fen').value));
  $('#start-position').addEventListener('click', () => startPosition().catch(error => showMessage(error.message)));
  $('#clear-board').addEventListener('click', () => {
    editor.board.set({ fen: '8/8/8/8/8/8/8/8'.split('/').slice(0, editor.info.height)
      .map(() => String(editor.info.width)).join('/') });
    editor.hands = { white: {}, black: {} };
    renderHands();
    changed();
  });
  $('#flip').addEventListener('click', () => {
    editor.orientation = opposite(editor.orientation);
    editor.board.set({ orientation: editor.orientation });
    renderPalettes();
  });
  $('#play-engine').addEventListener('click', () => play('engine'));
  $('#play-friend').addEventListener('click', () => play('human'));
  $('#analyse').addEventListener('click', event => {
    if ($('#analyse').classList.contains('disabled')) event.preventDefault();
  });
}

window.kradan = { t, checks: 0, editor, currentFen, hasPiecesInHand };
translatePage();
initControls();
window.addEventListener('load', () => load().catch(error => showMessage(error.message)));
