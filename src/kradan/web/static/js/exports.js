/* kradan serve: the game taken away: "Analyse this game" once it has ended, its PGN, a picture of the position (kradan's SVG, or
 * that SVG drawn as a PNG in the browser) and the FEN to copy. */
import { copyText, gamePath } from './api.js';
import { parseMove } from './legal.js';
import { t } from './words.js';

const $ = selector => document.querySelector(selector);

/** Point the links at the game and at the picture of its current position. */
export function renderExports(state) {
  const { game, gameId } = state;
  $('#fen').value = game.fen;
  const analyse = $('#analyse-game');
  if (analyse) analyse.href = '/analysis?' + new URLSearchParams({ game: gameId });
  // once the game has ended: its computer review, started as the analysis board opens
  $('#review-game-line').hidden = game.status !== 'ended' || !(game.moves || []).length;
  $('#review-game').href = '/analysis?' + new URLSearchParams({ game: gameId, review: '1' });
  const pgn = $('#download-pgn');
  pgn.href = gamePath(gameId, 'pgn');
  pgn.setAttribute('download', `kradan-${gameId}.pgn`);
  const picture = $('#download-svg');
  const query = new URLSearchParams({ variant: game.variant, fen: game.fen, labels: state.labels });
  if (state.orientation === 'black') query.set('flipped', 'true');
  const moves = game.moves || [];
  const last = moves.length ? parseMove(moves[moves.length - 1]) : null;
  if (last && last.segments.length === 1 && !last.segments[0][0].endsWith('@')) {
    query.set('lastmove', last.segments[0].join(','));
  }
  if (game.check) query.set('check', game.check);
  picture.href = '/assets/position.svg?' + query.toString();
  picture.setAttribute('download', `kradan-${gameId}.svg`);
}

/** The picture as PNG: kradan's SVG drawn onto a canvas, twice its size. */
function downloadPng(ctrl) {
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
      link.download = `kradan-${ctrl.state.gameId}.png`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    }, 'image/png');
  });
  image.addEventListener('error', () => ctrl.showMessage(t('The picture could not be made.')));
  image.src = $('#download-svg').href;
}

export function initExports(ctrl) {
  $('#download-png').addEventListener('click', event => {
    event.preventDefault();
    downloadPng(ctrl);
  });
  $('#copy-fen').addEventListener('click', () => copyText($('#fen')));
}
