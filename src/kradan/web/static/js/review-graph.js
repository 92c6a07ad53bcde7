/* kradan serve: a reviewed game's evaluation graph, drawn as SVG. Across: the plies, from the
 * start position; up: White's expected score (1 at the top, 0 at the bottom), so the area
 * under the line is White's share. Marked moves are dots in the mark's colour; a line shows
 * the ply on view. A click or a key on the graph picks a ply. */

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 120;
export const MARK_CLASSES = { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' };

function element(name, attributes) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

/** The expected scores for White, the start's first, then each ply's. */
export const expectedSeries = review => [review.start ? review.start.expected : 0.5]
  .concat(review.plies.map(ply => ply.expected));

const xOf = (index, count) => (count <= 1 ? 0 : (index / (count - 1)) * WIDTH);
const yOf = expected => (1 - Math.max(0, Math.min(1, expected))) * HEIGHT;

/** Draw ``review`` into ``box`` (an <svg>); ``onPick(ply)`` is called with 0 for the start. */
export function drawGraph(box, review, onPick) {
  box.textContent = '';
  box.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  box.setAttribute('preserveAspectRatio', 'none');
  const series = expectedSeries(review);
  const points = series.map((value, index) => `${xOf(index, series.length).toFixed(1)},${yOf(value).toFixed(1)}`);
  box.append(element('rect', { class: 'graph-black', x: 0, y: 0, width: WIDTH, height: HEIGHT }));
  box.append(element('polygon', {
    class: 'graph-white', points: `0,${HEIGHT} ${points.join(' ')} ${WIDTH},${HEIGHT}`,
  }));
  box.append(element('line', { class: 'graph-even', x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2 }));
  box.append(element('polyline', { class: 'graph-line', points: points.join(' ') }));
  review.plies.forEach((ply, index) => {
    if (!ply.mark) return;
    const dot = element('circle', {
      class: `graph-mark mark-${MARK_CLASSES[ply.mark]}`,
      cx: xOf(index + 1, series.length), cy: yOf(ply.expected), r: 4,
    });
    dot.dataset.ply = String(ply.ply);
    box.append(dot);
  });
  box.append(element('line', { class: 'graph-cursor', x1: 0, y1: 0, x2: 0, y2: HEIGHT, visibility: 'hidden' }));
  box.dataset.count = String(series.length);
  box.onclick = event => {
    const bounds = box.getBoundingClientRect();
    const share = bounds.width ? (event.clientX - bounds.left) / bounds.width : 0;
    onPick(Math.round(share * (series.length - 1)));
  };
}

/** Move the graph's cursor to ``ply`` (null hides it). */
export function markGraph(box, ply) {
  const cursor = box.querySelector('.graph-cursor');
  if (!cursor) return;
  const count = Number(box.dataset.count || 0);
  if (ply === null || ply === undefined || ply >= count) {
    cursor.setAttribute('visibility', 'hidden');
    return;
  }
  const x = xOf(ply, count).toFixed(1);
  cursor.setAttribute('x1', x);
  cursor.setAttribute('x2', x);
  cursor.setAttribute('visibility', 'visible');
}
