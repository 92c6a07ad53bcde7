/* kradan serve, the admin page: tables of plain text (user text goes in with textContent,
 * never as HTML) with buttons in their last column. */
import { t } from './words.js';

/** Fill ``table``'s body: a header of ``headings`` (words to translate), then one row per
 * item of ``rows``: an array of cells, each a string or an element. */
export function fillTable(table, headings, rows) {
  const head = table.tHead || table.createTHead();
  head.textContent = '';
  const top = head.insertRow();
  for (const heading of headings) {
    const cell = document.createElement('th');
    cell.textContent = t(heading);
    top.append(cell);
  }
  const body = table.tBodies[0];
  body.textContent = '';
  for (const cells of rows) {
    const row = body.insertRow();
    for (const value of cells) {
      const cell = row.insertCell();
      if (value instanceof Node) cell.append(value);
      else cell.textContent = value == null ? '' : String(value);
    }
  }
  if (!rows.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = headings.length;
    cell.className = 'hint';
    cell.textContent = t('Nothing here.');
  }
}

/** A button that says ``label`` (translated) and runs ``action`` when pressed. */
export function button(label, action, name) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = t(label);
  if (name) element.dataset.action = name;
  element.addEventListener('click', action);
  return element;
}

/** A span holding ``parts`` (elements and text), for several buttons in one cell. */
export function group(...parts) {
  const span = document.createElement('span');
  span.className = 'admin-actions';
  for (const part of parts) span.append(part, ' ');
  return span;
}

/** An ISO time as the reader's local date and time. */
export function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}
