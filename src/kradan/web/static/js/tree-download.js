/* kradan serve: the analysis board's tree as a PGN file: POST /api/pgn/write writes it, and the
 * browser saves it under a name. */
import { showMessage } from './message.js';
import { t } from './words.js';

/** Save the PGN of ``body`` (a tree as treeJson makes it) as ``filename``; the PGN text, or
 * null when the server refused it (its reason shown). */
export async function downloadTree(body, filename) {
  let response;
  try {
    response = await fetch('/api/pgn/write', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/x-chess-pgn' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (error) {
    showMessage(t('The server cannot be reached.'));
    return null;
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = JSON.parse(text).error || text;
    } catch (error) {
      /* the text as it came */
    }
    showMessage(message);
    return null;
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  return text;
}
