/* kradan serve: the box over the board that asks which move was meant, when the points
 * clicked leave a choice: to promote or not (and to what), or which piece to huff. A promotion's
 * box stands in the half of the board away from the pawn, which stays in sight. */
import { t } from './words.js';

const $ = selector => document.querySelector(selector);

export function hideChooser() {
  const chooser = $('#chooser');
  // a choice made by keyboard leaves the focus on the board, not on a button taken away
  if (chooser.contains(document.activeElement)) $('#board-frame').focus();
  chooser.hidden = true;
  chooser.textContent = '';
  chooser.classList.remove('at-top', 'at-bottom');
}

/** The half of the board, as it is shown, that ``square`` stands in: 'top' or 'bottom'. */
export function halfOf(state, square) {
  const height = state.info.height;
  const rank = parseInt(square.slice(1), 10);
  const white = (state.board ? state.board.state.orientation : state.orientation) === 'white';
  const fromTop = white ? height - rank : rank - 1;
  return fromTop < height / 2 ? 'top' : 'bottom';
}

/** Ask ``title`` with a button for each of ``choices`` ({value, label, piece?, pick}) and one
 * to cancel (``onCancel``); ``away`` ('top' or 'bottom', or none for the middle) is the half of
 * the board the box leaves free. */
export function showChooser(title, choices, onCancel, away) {
  const chooser = $('#chooser');
  chooser.textContent = '';
  chooser.classList.remove('at-top', 'at-bottom');
  if (away) chooser.classList.add(away === 'top' ? 'at-bottom' : 'at-top');
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
  cancel.addEventListener('click', onCancel);
  box.append(cancel);
  box.addEventListener('keydown', event => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onCancel();
  });
  chooser.append(box);
  chooser.hidden = false;
}

/** Promote on ``square`` or not: one button per move of ``moves``. */
export function choosePromotion(ctrl, moves, square) {
  const color = ctrl.state.game.turn;
  const choices = moves.map(move => move.promotion
    ? {
      value: move.uci,
      label: t('Promote on {square}', { square }),
      piece: `${color} ${move.promotion}-piece promoted`,
      pick: () => ctrl.send(move.uci),
    }
    : { value: move.uci, label: t('No promotion'), pick: () => ctrl.send(move.uci) });
  showChooser(t('Promotion'), choices, () => ctrl.renderBoard(), halfOf(ctrl.state, square));
}

/** Which piece to huff (or none): one button per move of ``moves``. */
export function chooseHuff(ctrl, moves) {
  const choices = moves.map(move => ({
    value: move.uci,
    label: move.huff ? t('Huff the piece on {square}', { square: move.huff }) : t('Huff none'),
    pick: () => ctrl.send(move.uci),
  }));
  showChooser(t('Huffing'), choices, () => ctrl.renderBoard());
}
