/* kradan serve: the browser side. Plain modern JavaScript, no build step; the board is
 * chessgroundx from board.min.js (global KradanBoard). It talks only to kradan's JSON API:
 *   POST /api/games, GET /api/games, GET /api/games/{id}, POST /api/games/{id}/moves,
 *   POST /api/games/{id}/actions, GET /api/games/{id}/pgn and the websocket
 *   /api/games/{id}/socket, which sends {"type": "game", "game": ...} after every change.
 * Two pages use it: the new-game page (body[data-page="new"]) and the board page
 * (body[data-page="game"]). No inline script or style: the pages run under
 * Content-Security-Policy: default-src 'self'. */
(function () {
  'use strict';

  // --- words ------------------------------------------------------------------------------------
  // Every string the user reads goes through t(), or tn() where it has plural forms; N_() marks
  // a string that is translated later. English is the source text; static/i18n.js reads the
  // catalog of the page's language (see docs/translating.md).
  const { t, tn, N_ } = window.kradanI18n || {
    t: (text, params) => text.replace(/\{(\w+)\}/g, (whole, key) =>
      params && params[key] !== undefined ? String(params[key]) : whole),
    tn: (singular, plural, n, params) => (n === 1 ? singular : plural).replace(/\{(\w+)\}/g,
      (whole, key) => String(Object.assign({ n }, params)[key] ?? whole)),
    N_: text => text,
  };

  function translatePage() {
    for (const element of document.querySelectorAll('[data-t]')) {
      element.textContent = t(element.dataset.t);
    }
  }

  const COLOR_NAMES = { white: N_('White'), black: N_('Black') };
  const colorName = color => t(COLOR_NAMES[color] || color);
  // a player as the API writes it: "human", "engine level 10"
  const playerText = text => {
    const engine = /^engine level (\d+)$/.exec(String(text || ''));
    if (engine) return t('engine level {level}', { level: engine[1] });
    return text === 'human' ? t('human') : String(text || '');
  };
  // the running count: which honour, who counts, the count, the moves left to mate
  const HONOURS = { "board's honour": N_("board's honour"), "pieces' honour": N_("pieces' honour") };
  const countingText = counting => [
    t(HONOURS[counting.honour] || counting.honour) + ':',
    t('{color} counts {count} of {limit};', {
      color: colorName(counting.counting_side), count: counting.count, limit: counting.limit,
    }),
    tn('{color} has {n} move left to mate', '{color} has {n} moves left to mate',
      counting.moves_left, { color: colorName(opposite(counting.counting_side)) }),
  ].join(' ');
  const opposite = color => (color === 'white' ? 'black' : 'white');
  const $ = selector => document.querySelector(selector);

  // --- the API ----------------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  async function request(method, path, body, token) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = 'Bearer ' + token;
    let response;
    try {
      response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
      });
    } catch (error) {
      throw new ApiError(t('The server cannot be reached.'), 0);
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (!response.ok) {
      let message = response.statusText || String(response.status);
      if (data && typeof data.error === 'string') message = data.error;
      else if (data && typeof data.detail === 'string') message = data.detail;
      else if (data && data.detail) message = JSON.stringify(data.detail);
      throw new ApiError(message, response.status);
    }
    return data;
  }

  // The seat tokens this browser holds, per game: {white: token, black: token}. The seat cookie
  // proves one seat already; the tokens let a same-screen board move for both sides.
  const SEATS_KEY = 'kradan.seats';

  function allSeats() {
    try {
      return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}') || {};
    } catch (error) {
      return {};
    }
  }

  function seatsOf(gameId) {
    return allSeats()[gameId] || {};
  }

  function saveSeat(gameId, color, token) {
    const seats = allSeats();
    seats[gameId] = Object.assign(seats[gameId] || {}, { [color]: token });
    try {
      localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
    } catch (error) {
      /* private mode: the cookie still holds one seat */
    }
  }

  function gameDescriptions() {
    try {
      return JSON.parse(document.body.dataset.games || '{}');
    } catch (error) {
      return {};
    }
  }

  // --- the new-game page ------------------------------------------------------------------------

  function newGamePage() {
    const form = $('#new-game');
    const variant = $('#variant');
    const level = $('#level');
    const errorBox = $('#error');

    function showRules() {
      for (const fieldset of document.querySelectorAll('fieldset.rules')) {
        fieldset.hidden = fieldset.dataset.variant !== variant.value;
      }
    }
    variant.addEventListener('change', showRules);
    showRules();
    level.addEventListener('input', () => {
      $('#level-value').textContent = level.value;
    });

    function chosenOptions() {
      const options = {};
      const fieldset = document.querySelector(`fieldset.rules[data-variant="${variant.value}"]`);
      if (!fieldset) return options;
      for (const control of fieldset.querySelectorAll('[data-option]')) {
        const name = control.dataset.option;
        const fallback = control.dataset.default;
        const kind = control.dataset.kind;
        if (kind === 'bool') {
          if (String(control.checked) !== fallback) options[name] = control.checked;
        } else if (kind === 'int') {
          if (control.value !== fallback && control.value !== '') options[name] = parseInt(control.value, 10);
        } else if (kind === 'enum') {
          if (control.value !== fallback) options[name] = control.value;
        } else if (kind === 'tuple') {
          const chosen = Array.from(control.querySelectorAll('input[data-kind="choice"]'))
            .filter(box => box.checked).map(box => box.value);
          if (chosen.join(',') !== fallback) options[name] = chosen;
        }
      }
      return options;
    }

    form.addEventListener('submit', async event => {
      event.preventDefault();
      errorBox.hidden = true;
      const opponent = form.elements.opponent.value;
      const body = {
        variant: variant.value,
        options: chosenOptions(),
        opponent: opponent === 'engine' ? 'engine' : 'human',
        level: parseInt(level.value, 10),
        color: form.elements.color.value,
        clock: null,
        fen: null,
      };
      if ($('#clock-on').checked) {
        const minutes = parseInt($('#clock-minutes').value, 10) || 5;
        const increment = parseInt($('#clock-increment').value, 10) || 0;
        body.clock = `${minutes * 60}+${increment}`;
      }
      const fen = $('#start-fen').value.trim();
      if (fen) body.fen = fen;
      const button = $('#start');
      button.disabled = true;
      try {
        const made = await request('POST', '/api/games', body);
        saveSeat(made.id, made.color, made.token);
        const boardUrl = '/games/' + encodeURIComponent(made.id);
        if (opponent === 'here' && made.invite) {
          saveSeat(made.id, opposite(made.color), made.invite);
          window.location.assign(boardUrl);
        } else if (opponent === 'invite' && made.invite) {
          // the fragment survives the join page's redirect and tells the board which side the
          // friend plays (the seat cookie proves it; the page cannot read the cookie)
          const link = `${window.location.origin}/join/${encodeURIComponent(made.id)}` +
            `?seat=${encodeURIComponent(made.invite)}#as-${opposite(made.color)}`;
          $('#invite-link').value = link;
          $('#go-to-game').href = boardUrl;
          $('#invitation').hidden = false;
          form.hidden = true;
        } else {
          window.location.assign(boardUrl);
        }
      } catch (error) {
        errorBox.textContent = error.message;
        errorBox.hidden = false;
      } finally {
        button.disabled = false;
      }
    });

    $('#copy-invite').addEventListener('click', () => copyText($('#invite-link')));
    listRecentGames();
  }

  async function listRecentGames() {
    const list = $('#recent-games');
    if (!list) return;
    const names = gameDescriptions();
    try {
      const data = await request('GET', '/api/games?limit=20');
      list.textContent = '';
      for (const game of data.games || []) {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = '/games/' + encodeURIComponent(game.id);
        const title = names[game.variant] ? names[game.variant].title : game.variant;
        const players = game.players || {};
        link.textContent = `${title}: ${players.white || '?'} – ${players.black || '?'}`;
        const meta = document.createElement('span');
        meta.className = 'meta';
        const result = game.result && game.result !== '*' ? game.result : t('playing');
        meta.textContent = ` ${result}, ${tn('{n} ply', '{n} plies', game.ply)}`;
        item.append(link, meta);
        list.append(item);
      }
      if (!list.children.length) {
        const item = document.createElement('li');
        item.textContent = t('No games yet.');
        list.append(item);
      }
    } catch (error) {
      list.textContent = '';
    }
  }

  function copyText(input) {
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
  }

  // --- positions: replaying the moves for the move list ------------------------------------------
  // chessgroundx shows positions but knows no rules; the server sends the start position and the
  // moves. To step back through a game the client replays the moves on a plain piece map and
  // checks the result against the server's position: if they differ, browsing is turned off.

  const KEY = /^[a-p](?:[1-9]|1[0-6])$/;

  function readPosition(fen, width, height) {
    const field = fen.split(' ')[0];
    const bracket = field.indexOf('[');
    const boardPart = bracket >= 0 ? field.slice(0, bracket) : field;
    const pieces = new Map();
    const rows = boardPart.split('/');
    rows.forEach((row, index) => {
      const rank = height - index;
      let file = 0;
      let number = '';
      for (const char of row) {
        if (/\d/.test(char)) {
          number += char;
          continue;
        }
        if (number) {
          file += parseInt(number, 10);
          number = '';
        }
        if (char === '~') {
          const key = String.fromCharCode(96 + file) + rank;
          const piece = pieces.get(key);
          if (piece) piece.promoted = true;
          continue;
        }
        const key = String.fromCharCode(97 + file) + rank;
        pieces.set(key, {
          role: char.toLowerCase(),
          color: char === char.toUpperCase() ? 'white' : 'black',
          promoted: false,
        });
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

  function writePosition(position, withPromoted) {
    const rows = [];
    for (let rank = position.height; rank >= 1; rank -= 1) {
      let row = '';
      let empty = 0;
      for (let file = 0; file < position.width; file += 1) {
        const piece = position.pieces.get(String.fromCharCode(97 + file) + rank);
        if (!piece) {
          empty += 1;
          continue;
        }
        if (empty) row += empty;
        empty = 0;
        row += piece.color === 'white' ? piece.role.toUpperCase() : piece.role;
        if (withPromoted && piece.promoted) row += '~';
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

  function copyPosition(position) {
    const pieces = new Map();
    for (const [key, piece] of position.pieces) pieces.set(key, Object.assign({}, piece));
    const pockets = position.pockets
      ? { white: Object.assign({}, position.pockets.white), black: Object.assign({}, position.pockets.black) }
      : null;
    return { pieces, pockets, width: position.width, height: position.height };
  }

  /** The parts of a UCI move: {huff, segments: [[orig, dest], ...], promotion}. Drops have the
   * origin 'R@'; a sutra is two segments ('e3e4,e1e3'); an Alquerque chain one segment per hop
   * ('b3d3d5'); an Alquerque huff starts 'hc3,'. */
  function parseMove(uci, family) {
    let text = uci;
    let huff = null;
    if (family === 'alquerque') {
      const match = /^h([a-e][1-5]),(.*)$/.exec(text);
      if (match) {
        huff = match[1];
        text = match[2];
      }
      const points = text.match(/[a-e][1-5]/g) || [];
      const segments = [];
      for (let i = 1; i < points.length; i += 1) segments.push([points[i - 1], points[i]]);
      return { uci, huff, segments, promotion: '' };
    }
    const segments = [];
    let promotion = '';
    for (const part of text.split(',')) {
      const drop = /^([A-Za-z])@([a-p]\d+)$/.exec(part);
      if (drop) {
        segments.push([drop[1].toUpperCase() + '@', drop[2]]);
        continue;
      }
      const plain = /^([a-p]\d+?)([a-p]\d+?)([a-z]?)$/.exec(part);
      if (!plain) return { uci, huff, segments: [], promotion: '' };
      segments.push([plain[1], plain[2]]);
      if (plain[3]) promotion = plain[3];
    }
    return { uci, huff, segments, promotion };
  }

  function applyMove(position, move, color, info, options) {
    const pieces = position.pieces;
    if (info.family === 'alquerque') {
      if (move.huff) pieces.delete(move.huff);
      if (!move.segments.length) return;
      const start = move.segments[0][0];
      let piece = pieces.get(start);
      pieces.delete(start);
      for (const [from, to] of move.segments) {
        const dx = to.charCodeAt(0) - from.charCodeAt(0);
        const dy = parseInt(to.slice(1), 10) - parseInt(from.slice(1), 10);
        if (Math.abs(dx) === 2 || Math.abs(dy) === 2) {
          pieces.delete(String.fromCharCode(from.charCodeAt(0) + dx / 2) + (parseInt(from.slice(1), 10) + dy / 2));
        }
      }
      const end = move.segments[move.segments.length - 1][1];
      if (piece && piece.role === 'p' && options && options.alquerque_kings === true) {
        const farRow = piece.color === 'white' ? String(position.height) : '1';
        if (end.slice(1) === farRow) piece = Object.assign({}, piece, { role: 'k' });
      }
      if (piece) pieces.set(end, piece);
      return;
    }
    move.segments.forEach(([from, to], index) => {
      const last = index === move.segments.length - 1;
      if (from.endsWith('@')) {
        const role = from[0].toLowerCase();
        pieces.set(to, { role, color, promoted: false });
        if (position.pockets && position.pockets[color][role]) position.pockets[color][role] -= 1;
        return;
      }
      let piece = pieces.get(from);
      pieces.delete(from);
      if (!piece) return;
      if (last && move.promotion) piece = { role: move.promotion, color: piece.color, promoted: true };
      pieces.set(to, piece);
    });
  }

  function lastMoveKeys(move) {
    if (!move) return undefined;
    const keys = [];
    for (const [from, to] of move.segments) {
      if (!keys.includes(from)) keys.push(from);
      if (!keys.includes(to)) keys.push(to);
    }
    if (move.huff) keys.push(move.huff);
    return keys;
  }

  function sideToMove(fen) {
    return fen.split(' ')[1] === 'b' ? 'black' : 'white';
  }

  function firstMoveNumber(fen, family) {
    const fields = fen.trim().split(/\s+/);
    const text = family === 'alquerque' ? fields[4] : fields[fields.length - 1];
    const number = parseInt(text, 10);
    return Number.isFinite(number) && number > 0 ? number : 1;
  }

  function sameBoard(a, b) {
    const strip = text => text.split(' ')[0].replace(/~/g, '').replace(/\[.*\]/, '');
    return strip(a) === strip(b);
  }

  // --- the board page ---------------------------------------------------------------------------

  function gamePage() {
    const gameId = document.body.dataset.gameId;
    const games = gameDescriptions();
    const boardElement = $('#board');
    const column = document.querySelector('.board-column');
    const LABELS_KEY = 'kradan.labels';

    let game = null; // the latest state from the server
    let info = null; // what the board needs to know of the game (pages.describe)
    let board = null; // the chessgroundx board
    let orientation = null;
    let labels = localStorage.getItem(LABELS_KEY) === 'thai' ? 'thai' : 'latin';
    let viewPly = null; // null: the current position; else the ply shown while browsing
    let history = null; // {positions: [fen...], lastMoves: [[keys]...]} or null when unknown
    let legal = []; // the parsed legal moves
    let entered = []; // segments of a move being entered point by point
    let clockState = null;
    let lastSelect = { key: null, at: 0 };
    let messageTimer = null;
    let sending = false;
    const refused = new Set(); // colours the server said are not ours
    // the seat the server says this browser's cookie holds (null: a spectator), once it answers
    let serverSeat;
    const SOUND_KEY = 'kradan.sound';
    let sound = localStorage.getItem(SOUND_KEY) !== 'off';
    let audio = null; // the AudioContext, made on the first sound (browsers want a gesture first)

    // a short wooden knock for a move, a lower one for a capture; no sound file is needed
    function knock(capture) {
      if (!sound) return;
      try {
        audio = audio || new (window.AudioContext || window.webkitAudioContext)();
        const now = audio.currentTime;
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        tone.type = 'triangle';
        tone.frequency.setValueAtTime(capture ? 180 : 260, now);
        tone.frequency.exponentialRampToValueAtTime(90, now + 0.08);
        gain.gain.setValueAtTime(0.25, now);
        gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
        tone.connect(gain).connect(audio.destination);
        tone.start(now);
        tone.stop(now + 0.13);
        window.kradan.sounds += 1;
      } catch (error) {
        /* no audio here: play on in silence */
      }
    }

    const NOTATION_KEY = 'kradan.notation';
    let notation = localStorage.getItem(NOTATION_KEY) === 'thai' ? 'thai' : 'san';
    // Sittuyin's screened setup: the camp being arranged here ({color, placed: Map key -> role}),
    // the side whose screen was lifted, and the camps this browser handed in (color -> Map)
    let arranging = null;
    let unscreened = null;
    const handedIn = {};
    const joined = /^#as-(white|black)$/.exec(window.location.hash);
    if (joined) {
      // arrived by an invitation link: the seat cookie holds the token, this notes the side
      saveSeat(gameId, joined[1], '');
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    const seats = () => seatsOf(gameId);

    // The colours this browser may move: the seats it holds tokens for, the seat the server
    // says is ours, or, when it knows of none (a seat by cookie only, from an invitation), the
    // human sides it has not been refused: the server has the last word on every move.
    function myColors() {
      if (!game) return [];
      const mine = new Set(Object.keys(seats()).filter(color => color === 'white' || color === 'black'));
      if (serverSeat) mine.add(serverSeat);
      if (!mine.size && serverSeat === undefined) {
        for (const color of ['white', 'black']) {
          const player = (game.players || {})[color] || '';
          if (!player.startsWith('engine') && !refused.has(color)) mine.add(color);
        }
      }
      return Array.from(mine);
    }

    function tokenFor(color) {
      return seats()[color];
    }

    function playing() {
      return game && game.status === 'playing';
    }

    function movableColor() {
      if (!playing() || viewPly !== null) return undefined;
      const mine = myColors();
      if (mine.includes(game.turn)) return game.turn;
      return mine.length === 1 ? mine[0] : undefined;
    }

    function showMessage(text) {
      const box = $('#message');
      box.textContent = text;
      box.hidden = !text;
      clearTimeout(messageTimer);
      if (text) messageTimer = setTimeout(() => { box.hidden = true; }, 8000);
    }

    // --- the board ---

    function dests(moves, prefix) {
      const found = new Map();
      for (const move of moves) {
        const segments = move.segments;
        if (segments.length <= prefix.length) continue;
        if (!prefix.every((segment, i) => segments[i][0] === segment[0] && segments[i][1] === segment[1])) continue;
        const [from, to] = segments[prefix.length];
        if (!found.has(from)) found.set(from, []);
        if (!found.get(from).includes(to)) found.get(from).push(to);
      }
      return found;
    }

    function createBoard() {
      const KB = window.KradanBoard;
      const dimensions = { width: info.width, height: info.height };
      boardElement.classList.add('kradan-board-' + info.board, `dims-${info.width}x${info.height}`);
      column.classList.add(info.family === 'alquerque' ? 'kradan-alquerque' : 'kradan-chess');
      const config = {
        fen: game.fen,
        orientation,
        turnColor: game.turn,
        coordinates: true,
        notation: labels === 'thai' ? KB.Notation.THAI_ALGEBRAIC : KB.Notation.ALGEBRAIC,
        dimensions,
        kingRoles: info.kings.map(role => role + '-piece'),
        animation: { enabled: true, duration: 160 },
        highlight: { lastMove: true, check: true },
        movable: {
          free: false,
          showDests: true,
          events: {
            after: (orig, dest) => onSegment(orig, dest),
            afterNewPiece: (piece, key) => onSegment(piece.role[0].toUpperCase() + '@', key),
          },
        },
        premovable: {
          enabled: Boolean(info.premove),
          events: { set: () => {}, unset: () => {} },
        },
        draggable: { enabled: true, showGhost: true },
        selectable: { enabled: true },
        drawable: { enabled: true, visible: true },
        events: { select: onSelect },
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
      board = KB.Chessground(boardElement, config, pocketTop, pocketBottom);
      window.kradan.board = board;
    }

    function leapRights(color) {
      const field = (game.fen.split(' ')[2] || '-');
      return color === 'white' ? /[A-Z]/.test(field) : /[a-z]/.test(field);
    }

    function showPockets(shown) {
      if (column.classList.contains('pockets-empty') !== shown) return;
      column.classList.toggle('pockets-empty', !shown);
      // the board moved: chessgroundx measures it again, or clicks land on the wrong squares
      board.redrawAll();
    }

    function renderBoard() {
      if (!board) return;
      entered = [];
      $('#finish-chain').hidden = true;
      hideChooser();
      if (renderSetup()) return;
      if (info.pocket) {
        // the pockets are shown while the setup lasts, that is while a piece is still in hand
        const position = readPosition(viewPly !== null && history ? history.positions[viewPly] : game.fen, 8, 8);
        const inHand = position.pockets
          ? Object.values(position.pockets.white).concat(Object.values(position.pockets.black)).some(n => n > 0)
          : false;
        showPockets(inHand);
      }
      if (viewPly !== null && history) {
        board.set({
          fen: history.positions[viewPly],
          turnColor: viewPly % 2 === 0 ? history.firstTurn : opposite(history.firstTurn),
          lastMove: history.lastMoves[viewPly],
          check: false,
          movable: { color: undefined, dests: new Map() },
        });
        board.cancelPremove();
        boardElement.classList.add('history');
        return;
      }
      boardElement.classList.remove('history');
      const color = movableColor();
      const moves = game.moves || [];
      const last = moves.length ? parseMove(moves[moves.length - 1], info.family) : null;
      // the replayed position knows which mets are promoted pawns; the server's FEN may not
      const fen = history ? history.positions[history.positions.length - 1] : game.fen;
      board.set({
        fen,
        turnColor: game.turn,
        lastMove: lastMoveKeys(last),
        check: game.check ? [game.check] : false,
        movable: { color, dests: color === game.turn ? dests(legal, []) : new Map() },
        premovable: { castle: color ? leapRights(color) : false },
      });
      if (!playing()) board.cancelPremove();
      else if (color === game.turn) setTimeout(() => board.playPremove(), 0);
    }

    // --- entering a move ---

    function onSelect(key) {
      // Sittuyin's promotion in place: a second click on a pawn that may promote where it stands
      const now = Date.now();
      const again = lastSelect.key === key && now - lastSelect.at < 2000;
      lastSelect = { key, at: now };
      if (!again || entered.length || viewPly !== null) return;
      const inPlace = legal.filter(move =>
        move.segments.length === 1 && move.segments[0][0] === key && move.segments[0][1] === key && move.promotion);
      if (!inPlace.length || movableColor() !== game.turn) return;
      lastSelect = { key: null, at: 0 };
      board.selectSquare(null);
      choosePromotion(inPlace, key);
    }

    function matching(prefix) {
      return legal.filter(move =>
        move.segments.length >= prefix.length &&
        prefix.every((segment, i) => move.segments[i][0] === segment[0] && move.segments[i][1] === segment[1]));
    }

    function onSegment(orig, dest) {
      if (arranging) {
        arrange(orig, dest);
        return;
      }
      if (!game || viewPly !== null) return;
      const color = board.state.movable.color;
      if (!playing() || color !== game.turn) return;
      entered.push([orig, dest]);
      const candidates = matching(entered);
      if (!candidates.length) {
        showMessage(t('Not a legal move: {move}', { move: orig + dest }));
        renderBoard();
        return;
      }
      const complete = candidates.filter(move => move.segments.length === entered.length);
      const longer = candidates.filter(move => move.segments.length > entered.length);
      if (info.family === 'alquerque') removeJumped(orig, dest);
      if (longer.length) {
        // a chain: the next point, or (when the rules allow stopping) "end the move here"
        const next = dests(longer, entered);
        board.set({ turnColor: game.turn, movable: { color: game.turn, dests: next } });
        // the piece that goes on is picked up already: the next click is its next point
        if (next.size === 1) board.selectSquare(next.keys().next().value);
        const finish = $('#finish-chain');
        finish.hidden = !complete.length;
        finish.onclick = () => finishMove(complete, dest);
        return;
      }
      finishMove(complete, dest);
    }

    function removeJumped(from, to) {
      const dx = to.charCodeAt(0) - from.charCodeAt(0);
      const dy = parseInt(to.slice(1), 10) - parseInt(from.slice(1), 10);
      if (Math.abs(dx) === 2 || Math.abs(dy) === 2) {
        const middle = String.fromCharCode(from.charCodeAt(0) + dx / 2) + (parseInt(from.slice(1), 10) + dy / 2);
        board.setPieces(new Map([[middle, undefined]]));
      }
    }

    function finishMove(complete, dest) {
      $('#finish-chain').hidden = true;
      const promotions = complete.filter(move => move.promotion);
      const huffs = complete.filter(move => move.huff);
      if (huffs.length && complete.length > 1) {
        chooseHuff(complete);
      } else if (promotions.length && (complete.length > 1 || info.pocket)) {
        // a real choice, or Sittuyin, where promoting is never forced on the player
        choosePromotion(complete, dest);
      } else {
        send(complete[0].uci);
      }
    }

    function hideChooser() {
      const chooser = $('#chooser');
      chooser.hidden = true;
      chooser.textContent = '';
    }

    function showChooser(title, choices) {
      const chooser = $('#chooser');
      chooser.textContent = '';
      const box = document.createElement('div');
      box.className = 'choices';
      const heading = document.createElement('p');
      heading.textContent = title;
      box.append(heading);
      for (const choice of choices) {
        const button = document.createElement('button');
        button.type = 'button';
        if (choice.piece) {
          button.className = 'piece-choice';
          button.title = choice.label;
          const piece = document.createElement('piece');
          piece.className = choice.piece;
          button.append(piece);
        } else {
          button.textContent = choice.label;
        }
        button.dataset.choice = choice.value;
        button.addEventListener('click', () => {
          hideChooser();
          choice.pick();
        });
        box.append(button);
      }
      const cancel = document.createElement('button');
      cancel.type = 'button';
      cancel.className = 'cancel';
      cancel.textContent = t('Cancel');
      cancel.addEventListener('click', () => renderBoard());
      box.append(cancel);
      chooser.append(box);
      chooser.hidden = false;
    }

    function choosePromotion(moves, square) {
      const color = game.turn;
      const choices = moves.map(move => move.promotion
        ? {
          value: move.uci,
          label: t('Promote on {square}', { square }),
          piece: `${color} ${move.promotion}-piece promoted`,
          pick: () => send(move.uci),
        }
        : { value: move.uci, label: t('No promotion'), pick: () => send(move.uci) });
      showChooser(t('Promotion'), choices);
    }

    function chooseHuff(moves) {
      const choices = moves.map(move => ({
        value: move.uci,
        label: move.huff ? t('Huff the piece on {square}', { square: move.huff }) : t('Huff none'),
        pick: () => send(move.uci),
      }));
      showChooser(t('Huffing'), choices);
    }

    async function send(uci) {
      const color = game.turn;
      const plyBefore = game.ply;
      // until the server answers, the board belongs to the other side (premoves stay possible)
      board.set({ turnColor: opposite(color), movable: { dests: new Map() } });
      sending = true;
      try {
        const answer = await request('POST', `/api/games/${encodeURIComponent(gameId)}/moves`,
          { move: uci }, tokenFor(color));
        if (answer && typeof answer.ply === 'number' && answer.ply > plyBefore && answer.ply >= game.ply) {
          applyGame(answer);
        }
      } catch (error) {
        if (error.status === 403 && !tokenFor(color)) refused.add(color);
        showMessage(error.message);
        renderBoard();
      } finally {
        sending = false;
      }
    }

    // --- Sittuyin's screened setup ---
    // Each side arranges its camp here, unseen by the server and the other side, and hands in
    // the whole of it with "Done". On one screen a screen hides the board while the sides change.

    const SETUP_LETTERS = { k: 'K', f: 'F', s: 'S', n: 'N', r: 'R' };

    function inSetup() {
      return Boolean(playing() && game.setup);
    }

    /** The colour this browser arranges now: the first of its human seats not handed in. */
    function setupColor() {
      if (!inSetup()) return null;
      const players = game.players || {};
      const open = myColors().filter(color =>
        !game.setup[color] && !String(players[color] || '').startsWith('engine'));
      if (open.includes('white')) return 'white';
      return open.includes('black') ? 'black' : null;
    }

    /** The moves played, less a screened setup's drops (no takeback reaches into the setup). */
    function playedMoves() {
      if (game.setup) return 0;
      const moves = game.moves || [];
      const screened = (game.options || {}).sittuyin_setup === 'screened';
      return screened ? moves.filter(uci => !uci.includes('@')).length : moves.length;
    }

    function sameScreen() {
      return myColors().length === 2;
    }

    function inCamp(color, key) {
      const rank = parseInt(key.slice(1), 10);
      return color === 'white' ? rank <= 3 : rank >= 6;
    }

    function backRank(color, key) {
      return key.slice(1) === (color === 'white' ? '1' : '8');
    }

    /** The start position with ``placed`` pieces of ``color`` on it and out of its pocket. */
    function setupPosition(color, placed) {
      const position = readPosition(game.start_fen || game.fen, 8, 8);
      if (!placed) return position;
      for (const [key, role] of placed) {
        position.pieces.set(key, { role, color, promoted: false });
        if (position.pockets && position.pockets[color][role]) position.pockets[color][role] -= 1;
      }
      return position;
    }

    /** Where ``role`` may stand in ``color``'s camp: empty squares, chariots on the back rank. */
    function campSquares(position, color, role) {
      const found = [];
      for (let rank = 1; rank <= 8; rank += 1) {
        for (let file = 0; file < 8; file += 1) {
          const key = String.fromCharCode(97 + file) + rank;
          if (!inCamp(color, key) || position.pieces.has(key)) continue;
          if (role === 'r' && !backRank(color, key)) continue;
          found.push(key);
        }
      }
      return found;
    }

    function setupDests(position, color, placed) {
      const found = new Map();
      for (const [role, count] of Object.entries(position.pockets ? position.pockets[color] : {})) {
        if (count > 0) found.set(role.toUpperCase() + '@', campSquares(position, color, role));
      }
      for (const [key, role] of placed) found.set(key, campSquares(position, color, role));
      return found;
    }

    function piecesLeft(position, color) {
      return Object.values(position.pockets ? position.pockets[color] : {}).reduce((a, b) => a + b, 0);
    }

    /** Draw the setup while it lasts; returns whether it did (the board is then drawn). */
    function renderSetup() {
      const panel = $('#setup-panel');
      const screen = $('#setup-screen');
      if (!inSetup() || viewPly !== null) {
        arranging = null;
        panel.hidden = true;
        screen.hidden = true;
        return false;
      }
      const color = setupColor();
      if (!color) arranging = null;
      else if (!arranging || arranging.color !== color) arranging = { color, placed: new Map() };
      const screened = Boolean(color && sameScreen() && unscreened !== color);
      screen.hidden = !screened;
      if (screened) {
        $('#setup-screen-text').textContent = t('{color} arranges the camp: {other}, look away', {
          color: colorName(color), other: colorName(opposite(color)),
        });
        $('#setup-reveal').textContent = t('Show {color}\'s camp', { color: colorName(color) });
      }
      let position;
      const mine = myColors();
      if (arranging && !screened) {
        position = setupPosition(color, arranging.placed);
      } else if (!color && mine.length === 1 && handedIn[mine[0]]) {
        position = setupPosition(mine[0], handedIn[mine[0]]); // seen by its own side only
      } else {
        position = setupPosition(null, null);
      }
      const left = arranging ? piecesLeft(position, arranging.color) : 0;
      const movable = arranging && !screened ? arranging.color : undefined;
      showPockets(true);
      boardElement.classList.remove('history');
      board.set({
        fen: writePosition(position, false),
        turnColor: movable || game.turn,
        lastMove: undefined,
        check: false,
        movable: { color: movable, dests: movable ? setupDests(position, movable, arranging.placed) : new Map() },
      });
      board.cancelPremove();
      panel.hidden = false;
      const text = $('#setup-text');
      const done = $('#setup-done');
      const clear = $('#setup-clear');
      done.hidden = clear.hidden = !movable;
      if (movable) {
        text.textContent = left
          ? tn('{color}: arrange your camp ({n} piece left), then press Done',
            '{color}: arrange your camp ({n} pieces left), then press Done', left,
            { color: colorName(movable) })
          : t('{color}: your camp is ready; press Done to hand it in', { color: colorName(movable) });
        done.disabled = left > 0;
        clear.disabled = arranging.placed.size === 0;
      } else {
        const waiting = ['white', 'black'].filter(side => !game.setup[side]);
        text.textContent = waiting.length === 1
          ? t('Waiting for {color} to hand in its camp', { color: colorName(waiting[0]) })
          : t('Both sides arrange their camps unseen');
      }
      return true;
    }

    function arrange(orig, dest) {
      const { color, placed } = arranging;
      const position = setupPosition(color, placed);
      if (orig.endsWith('@')) {
        const role = orig[0].toLowerCase();
        if (position.pockets && position.pockets[color][role] > 0 && campSquares(position, color, role).includes(dest)) {
          placed.set(dest, role);
        }
      } else if (placed.has(orig)) {
        const role = placed.get(orig);
        if (campSquares(position, color, role).includes(dest)) {
          placed.delete(orig);
          placed.set(dest, role);
        }
      }
      renderBoard();
    }

    async function handIn() {
      if (!arranging) return;
      const { color, placed } = arranging;
      const arrangement = {};
      for (const [key, role] of placed) arrangement[key] = SETUP_LETTERS[role] || role.toUpperCase();
      const button = $('#setup-done');
      button.disabled = true;
      try {
        const answer = await request('POST', `/api/games/${encodeURIComponent(gameId)}/setup`,
          { arrangement }, tokenFor(color));
        handedIn[color] = new Map(placed);
        arranging = null;
        unscreened = null;
        applyGame(answer);
      } catch (error) {
        showMessage(error.message);
        renderBoard();
      }
    }

    $('#setup-done').addEventListener('click', handIn);
    $('#setup-clear').addEventListener('click', () => {
      if (arranging) arranging.placed.clear();
      renderBoard();
    });
    $('#setup-reveal').addEventListener('click', () => {
      unscreened = setupColor();
      renderBoard();
    });

    // --- actions ---

    function actorFor(action) {
      const mine = myColors();
      if ((action === 'accept_draw' || action === 'decline_draw') && game.draw_offer) {
        return opposite(game.draw_offer);
      }
      if (mine.includes(game.turn)) return game.turn;
      return mine[0];
    }

    async function act(action) {
      const color = actorFor(action);
      try {
        const answer = await request('POST', `/api/games/${encodeURIComponent(gameId)}/actions`,
          { action }, color ? tokenFor(color) : undefined);
        if (answer) applyGame(answer);
      } catch (error) {
        if (error.status === 403 && color && !tokenFor(color)) refused.add(color);
        showMessage(error.message);
      }
    }

    for (const button of document.querySelectorAll('[data-action]')) {
      button.addEventListener('click', () => {
        if (button.dataset.action === 'resign' && !window.confirm(t('Resign this game?'))) return;
        act(button.dataset.action);
      });
    }

    // --- the move list and browsing ---

    function computeHistory() {
      const moves = game.moves || [];
      if (!game.start_fen) return null;
      let position = readPosition(game.start_fen, info.width, info.height);
      let color = sideToMove(game.start_fen);
      const firstTurn = color;
      const positions = [writePosition(position, true)];
      const lastMoves = [undefined];
      const options = game.options || {};
      for (const uci of moves) {
        const move = parseMove(uci, info.family);
        position = copyPosition(position);
        applyMove(position, move, color, info, options);
        positions.push(writePosition(position, true));
        lastMoves.push(lastMoveKeys(move));
        color = opposite(color);
      }
      if (!sameBoard(positions[positions.length - 1], game.fen)) return null;
      return { positions, lastMoves, firstTurn };
    }

    function renderMoves() {
      const list = $('#moves');
      list.textContent = '';
      const moves = game.moves || [];
      const thai = notation === 'thai' && game.thai_san && game.thai_san.length === moves.length;
      const san = thai ? game.thai_san : game.san && game.san.length === moves.length ? game.san : moves;
      list.classList.toggle('thai-san', thai);
      const firstColor = sideToMove(game.start_fen || game.fen);
      let number = firstMoveNumber(game.start_fen || game.fen, info.family);
      const shown = viewPly === null ? moves.length : viewPly;
      let row = null;
      const cell = (text, className) => {
        const span = document.createElement('span');
        span.className = className;
        span.textContent = text;
        return span;
      };
      const newRow = () => {
        row = document.createElement('li');
        row.append(cell(number + '.', 'number'));
        list.append(row);
      };
      san.forEach((text, index) => {
        const color = index % 2 === 0 ? firstColor : opposite(firstColor);
        if (color === 'white' || !row) {
          if (row && color === 'white') number += 1;
          newRow();
          if (color === 'black') row.append(cell('…', 'move placeholder'));
        }
        const move = cell(text, 'move');
        move.dataset.ply = String(index + 1);
        if (index + 1 === shown) move.classList.add('current');
        move.addEventListener('click', () => browse(index + 1));
        row.append(move);
      });
      const current = list.querySelector('.current');
      if (current && typeof current.scrollIntoView === 'function') current.scrollIntoView({ block: 'nearest' });
    }

    function browse(ply) {
      if (!game) return;
      const total = (game.moves || []).length;
      const target = Math.max(0, Math.min(total, ply));
      if (target === total || !history) viewPly = null;
      else viewPly = target;
      if (!history && target !== total) showMessage(t('This game cannot be stepped through here.'));
      renderBoard();
      renderMoves();
      renderSide();
    }

    const shownPly = () => (viewPly === null ? (game.moves || []).length : viewPly);
    $('#nav-first').addEventListener('click', () => browse(0));
    $('#nav-prev').addEventListener('click', () => browse(shownPly() - 1));
    $('#nav-next').addEventListener('click', () => browse(shownPly() + 1));
    $('#nav-last').addEventListener('click', () => browse(Infinity));
    document.addEventListener('keydown', event => {
      if (!game || event.target.closest('input, select, textarea')) return;
      if (event.key === 'ArrowLeft') browse(shownPly() - 1);
      else if (event.key === 'ArrowRight') browse(shownPly() + 1);
      else if (event.key === 'Home') browse(0);
      else if (event.key === 'End') browse(Infinity);
      else return;
      event.preventDefault();
    });

    $('#flip').addEventListener('click', () => {
      if (!board) return;
      orientation = opposite(orientation);
      board.toggleOrientation();
      renderSide();
    });

    function renderSound() {
      const button = $('#sound');
      button.textContent = sound ? t('Sound off') : t('Sound on');
      button.setAttribute('aria-pressed', String(sound));
    }

    $('#sound').addEventListener('click', () => {
      sound = !sound;
      try {
        localStorage.setItem(SOUND_KEY, sound ? 'on' : 'off');
      } catch (error) {
        /* not kept */
      }
      renderSound();
    });
    renderSound();

    // the picture as PNG: kradan's SVG drawn onto a canvas in the browser
    $('#download-png').addEventListener('click', event => {
      event.preventDefault();
      const source = $('#download-svg').href;
      const image = new Image();
      image.addEventListener('load', () => {
        const canvas = document.createElement('canvas');
        const scale = 2;
        canvas.width = (image.naturalWidth || 400) * scale;
        canvas.height = (image.naturalHeight || 400) * scale;
        canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
        canvas.toBlob(blob => {
          if (!blob) return;
          const link = document.createElement('a');
          link.href = URL.createObjectURL(blob);
          link.download = `kradan-${gameId}.png`;
          document.body.appendChild(link);
          link.click();
          link.remove();
          setTimeout(() => URL.revokeObjectURL(link.href), 10000);
        }, 'image/png');
      });
      image.addEventListener('error', () => showMessage(t('The picture could not be made.')));
      image.src = source;
    });

    $('#notation').addEventListener('click', () => {
      notation = notation === 'thai' ? 'san' : 'thai';
      try {
        localStorage.setItem(NOTATION_KEY, notation);
      } catch (error) {
        /* not kept */
      }
      renderMoves();
      renderSide();
    });

    $('#labels').addEventListener('click', () => {
      labels = labels === 'thai' ? 'latin' : 'thai';
      try {
        localStorage.setItem(LABELS_KEY, labels);
      } catch (error) {
        /* not kept */
      }
      if (board) {
        const KB = window.KradanBoard;
        board.set({ notation: labels === 'thai' ? KB.Notation.THAI_ALGEBRAIC : KB.Notation.ALGEBRAIC });
        board.redrawAll();
        renderBoard();
      }
      renderSide();
    });

    // --- the side panel ---

    const TERMINATIONS = {
      checkmate: N_('checkmate'),
      stalemate: N_('stalemate'),
      resignation: N_('resignation'),
      resign: N_('resignation'),
      agreement: N_('agreement'),
      timeout: N_('time forfeit'),
      time_forfeit: N_('time forfeit'),
      repetition: N_('repetition'),
      counting: N_('the count ran out'),
      count_limit: N_('the count ran out'),
      insufficient_material: N_('insufficient material'),
    };

    function terminationText(termination) {
      if (!termination) return '';
      return t(TERMINATIONS[termination] || termination.replace(/_/g, ' '));
    }

    function renderSide() {
      if (!game) return;
      const top = opposite(orientation);
      const players = game.players || {};
      $('#name-top').textContent = `${colorName(top)}: ${playerText(players[top])}`;
      $('#name-bottom').textContent = `${colorName(orientation)}: ${playerText(players[orientation])}`;
      const moving = playing() && !game.setup;
      document.querySelector('.player-top').classList.toggle('to-move', moving && game.turn === top);
      document.querySelector('.player-bottom').classList.toggle('to-move', moving && game.turn === orientation);
      $('#title').textContent = info.title;
      document.title = `kradan: ${info.title}`;

      const status = $('#status');
      status.classList.toggle('ended', !playing());
      if (inSetup()) {
        status.textContent = t('The setup: each side arranges its camp unseen');
      } else if (playing()) {
        const thinking = (players[game.turn] || '').startsWith('engine');
        status.textContent = thinking
          ? t('{color} to move (the engine is thinking)', { color: colorName(game.turn) })
          : t('{color} to move', { color: colorName(game.turn) });
      } else {
        const how = terminationText(game.termination);
        status.textContent = how ? `${game.result} · ${how}` : game.result;
      }
      if (viewPly !== null) {
        const note = document.createElement('span');
        note.className = 'history-note';
        note.textContent = ' ' + t('(viewing move {n})', { n: viewPly });
        status.append(note);
      }

      const counting = $('#counting');
      counting.hidden = !game.counting;
      counting.textContent = game.counting ? countingText(game.counting) : '';

      const mine = myColors();
      const offer = $('#draw-offer');
      offer.hidden = !(playing() && game.draw_offer);
      if (game.draw_offer) offer.textContent = t('{color} offers a draw', { color: colorName(game.draw_offer) });
      const engineGame = Object.values(players).some(player => String(player).startsWith('engine'));
      const seated = playing() && mine.length > 0;
      const show = {
        resign: seated,
        offer_draw: seated && !game.draw_offer && !engineGame,
        accept_draw: seated && Boolean(game.draw_offer) && mine.includes(opposite(game.draw_offer)),
        decline_draw: seated && Boolean(game.draw_offer) && mine.includes(opposite(game.draw_offer)),
        takeback: seated && engineGame && playedMoves() > 0,
        claim_draw: seated && Boolean(game.can_claim_draw),
        declare_count: seated && Boolean(game.can_declare_count),
        stop_count: seated && Boolean(game.can_stop_count),
      };
      for (const button of document.querySelectorAll('[data-action]')) {
        button.hidden = !show[button.dataset.action];
      }
      $('#labels').textContent = labels === 'thai' ? t('Latin coordinates') : t('Thai coordinates');
      const notationButton = $('#notation');
      notationButton.hidden = !game.thai_san;
      notationButton.textContent = notation === 'thai' ? t('Moves in SAN') : t('Moves in Thai SAN');

      $('#fen').value = game.fen;
      const pgn = $('#download-pgn');
      pgn.href = `/api/games/${encodeURIComponent(gameId)}/pgn`;
      pgn.setAttribute('download', `kradan-${gameId}.pgn`);
      const picture = $('#download-svg');
      const query = new URLSearchParams({ variant: game.variant, fen: game.fen, labels });
      if (orientation === 'black') query.set('flipped', 'true');
      const last = (game.moves || []).length ? parseMove(game.moves[game.moves.length - 1], info.family) : null;
      if (last && last.segments.length === 1 && !last.segments[0][0].endsWith('@')) {
        query.set('lastmove', last.segments[0].join(','));
      }
      if (game.check) query.set('check', game.check);
      picture.href = '/assets/position.svg?' + query.toString();
      picture.setAttribute('download', `kradan-${gameId}.svg`);
      renderClocks();
    }

    // --- clocks ---

    function formatClock(ms) {
      const clamped = Math.max(0, ms);
      const minutes = Math.floor(clamped / 60000);
      const seconds = Math.floor((clamped % 60000) / 1000);
      const text = `${minutes}:${String(seconds).padStart(2, '0')}`;
      if (clamped < 10000) return `${text}.${Math.floor((clamped % 1000) / 100)}`;
      return text;
    }

    function renderClocks() {
      const top = $('#clock-top');
      const bottom = $('#clock-bottom');
      if (!game || !clockState) {
        top.textContent = '';
        bottom.textContent = '';
        return;
      }
      const now = performance.now();
      for (const [element, color] of [[top, opposite(orientation)], [bottom, orientation]]) {
        let ms = clockState[color + '_ms'];
        const running = playing() && clockState.running === color;
        if (running) ms -= now - clockState.at;
        element.textContent = formatClock(ms);
        element.classList.toggle('running', running);
        element.classList.toggle('low', ms < 10000);
      }
    }
    setInterval(renderClocks, 100);

    // --- the state from the server ---

    function applyGame(next) {
      if (!next || !next.variant) return;
      const first = game === null;
      const changed = first || next.ply !== game.ply || (next.moves || []).length !== (game.moves || []).length;
      if (next.seat && next.my_setup && next.setup) {
        handedIn[next.seat] = new Map(Object.entries(next.my_setup).map(([key, letter]) => [key, letter.toLowerCase()]));
      }
      if (!first && (next.moves || []).length > (game.moves || []).length) {
        const before = (game.san || []).length;
        const played = (next.san || []).slice(before);
        knock(played.some(text => text.includes('x')));
      }
      game = next;
      window.kradan.game = next;
      window.kradan.updates += 1;
      if (first) {
        info = games[game.variant] || (String(game.variant).startsWith('alquerque') ? games.alquerque : games.makruk);
        const mine = myColors();
        orientation = mine.length === 1 ? mine[0] : 'white';
      }
      legal = (game.legal_moves || []).map(uci => parseMove(uci, info.family));
      clockState = game.clock ? Object.assign({ at: performance.now() }, game.clock) : null;
      if (changed) {
        history = computeHistory();
        viewPly = null;
      }
      if (!board) createBoard();
      renderBoard();
      renderMoves();
      renderSide();
    }

    let socket = null;
    let retry = 500;

    function connect() {
      const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(`${scheme}//${window.location.host}/api/games/${encodeURIComponent(gameId)}/socket`);
      socket.addEventListener('open', () => {
        retry = 500;
        window.kradan.socketOpen = true;
      });
      socket.addEventListener('message', event => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        if (message.type === 'game') applyGame(message.game);
        else if (message.type === 'error') showMessage(message.error);
      });
      socket.addEventListener('close', () => {
        window.kradan.socketOpen = false;
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 10000);
      });
    }

    window.kradan.updates = 0;
    window.kradan.sounds = 0;
    window.kradan.sending = () => sending;
    request('GET', `/api/games/${encodeURIComponent(gameId)}`)
      .then(state => {
        serverSeat = state && (state.seat === 'white' || state.seat === 'black') ? state.seat : null;
        const early = game !== null; // the socket's first state came before this answer
        applyGame(state);
        const mine = myColors();
        if (early && board && mine.length === 1 && orientation !== mine[0]) {
          orientation = mine[0];
          board.set({ orientation });
          renderSide();
        }
      })
      .catch(error => {
        $('#status').textContent = error.status === 404 ? t('There is no such game.') : error.message;
      });
    connect();
    $('#copy-fen').addEventListener('click', () => copyText($('#fen')));
  }

  // --- start ------------------------------------------------------------------------------------

  window.kradan = { t };
  function start() {
    translatePage();
    if (document.body.dataset.page === 'new') newGamePage();
    else if (document.body.dataset.page === 'game') gamePage();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
