/* kradan serve: the message line of a page (#message): a server's refusal or a note, shown
 * for a few seconds. */

let messageTimer = null;

/** Show ``text`` in #message for a few seconds ('' hides it). */
export function showMessage(text) {
  const box = document.querySelector('#message');
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(messageTimer);
  if (text) messageTimer = setTimeout(() => { box.hidden = true; }, 8000);
}
