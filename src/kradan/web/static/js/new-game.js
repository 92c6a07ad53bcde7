/* kradan serve: the new-game form (the game, its rule options, the opponent, whether the game
 * is listed publicly, the colour, the clock, a start position) and the list of the latest
 * public games. */
import { copyText, gameDescriptions, request, saveInvite, saveSeat } from './api.js';
import { digits, opposite, playerText, t, tn } from './words.js';

const $ = selector => document.querySelector(selector);

const rulesOf = variant => document.querySelector(`fieldset.rules[data-variant="${variant}"]`);

/** The rule options set away from their defaults, as the API takes them. */
function chosenOptions(variant) {
  const options = {};
  const fieldset = rulesOf(variant);
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

/** What the form asks for, as the body of POST /api/games. */
function newGameBody(form) {
  const opponent = form.elements.opponent.value;
  const body = {
    variant: $('#variant').value,
    options: chosenOptions($('#variant').value),
    opponent: opponent === 'engine' ? 'engine' : 'human',
    level: parseInt($('#level').value, 10),
    color: form.elements.color.value,
    clock: null,
    fen: null,
    public: $('#public').checked,
  };
  if ($('#clock-on').checked) {
    const seconds = parseInt($('#clock-base').value, 10) || 300; // 15 s to 3 hours
    const increment = parseInt($('#clock-increment').value, 10) || 0;
    body.clock = `${seconds}+${increment}`; // the API's seconds+increment
  }
  const fen = $('#start-fen').value.trim();
  if (fen) body.fen = fen;
  return body;
}

/** Go to the new game, or show the invitation link for a friend to follow. */
function goToGame(form, made, opponent) {
  saveSeat(made.id, made.color, made.token);
  if (made.warnings && made.warnings.length) {
    // what is odd about the start position, for the board page to show once it opens
    sessionStorage.setItem(`kradan-warning-${made.id}`, made.warnings.join('; '));
  }
  const boardUrl = '/games/' + encodeURIComponent(made.id);
  if (opponent === 'here' && made.invite) {
    saveSeat(made.id, opposite(made.color), made.invite);
    window.location.assign(boardUrl);
  } else if (opponent === 'invite' && made.invite) {
    // the fragment survives the join page's redirect and tells the board which side the
    // friend plays (the seat cookie proves it; the page cannot read the cookie)
    const link = `${window.location.origin}/join/${encodeURIComponent(made.id)}` +
      `?seat=${encodeURIComponent(made.invite)}#as-${opposite(made.color)}`;
    saveInvite(made.id, opposite(made.color), link); // the board page shows it until used
    $('#invite-link').value = link;
    $('#go-to-game').href = boardUrl;
    $('#invitation').hidden = false;
    form.hidden = true;
  } else {
    window.location.assign(boardUrl);
  }
}

/** "List this game publicly": checked for a game against the engine, unchecked for a game
 * between people (an invitation stays private unless asked), until the player sets it. */
function listedByDefault(form) {
  const box = $('#public');
  let touched = false;
  box.addEventListener('change', () => { touched = true; });
  const follow = () => {
    if (!touched) box.checked = form.elements.opponent.value === 'engine';
  };
  for (const radio of form.querySelectorAll('input[name="opponent"]')) {
    radio.addEventListener('change', follow);
  }
  follow();
}

export function newGameForm() {
  const form = $('#new-game');
  const variant = $('#variant');
  const level = $('#level');
  const errorBox = $('#error');
  const showRules = () => {
    for (const fieldset of document.querySelectorAll('fieldset.rules')) {
      fieldset.hidden = fieldset.dataset.variant !== variant.value;
    }
  };
  variant.addEventListener('change', showRules);
  showRules();
  const showLevel = () => {
    $('#level-value').textContent = digits(level.value);
  };
  level.addEventListener('input', showLevel);
  showLevel();
  listedByDefault(form);
  form.addEventListener('submit', async event => {
    event.preventDefault();
    errorBox.hidden = true;
    const button = $('#start');
    button.disabled = true;
    try {
      const made = await request('POST', '/api/games', newGameBody(form));
      goToGame(form, made, form.elements.opponent.value);
    } catch (error) {
      errorBox.textContent = error.message;
      errorBox.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  $('#copy-invite').addEventListener('click', () => copyText($('#invite-link')));
}

/** The latest games, each a link to its board. */
export async function listRecentGames() {
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
      link.textContent = `${title}: ${playerText(players.white) || '?'} – ${playerText(players.black) || '?'}`;
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
