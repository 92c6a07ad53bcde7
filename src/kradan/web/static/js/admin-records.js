/* kradan serve, the admin page: what happened. The newest chat messages of every game (with
 * remove, DELETE /api/chat/{id}), this process's access log (GET /api/admin/access-log, with a
 * filter) and the admin actions (GET /api/admin/audit). */
import { request } from './api.js';
import { button, fillTable, when } from './admin-table.js';
import { showMessage } from './message.js';
import { t } from './words.js';

/** Show every game's newest messages; ``changed`` runs after a removal. */
export async function showChat(changed) {
  const data = await request('GET', '/api/admin/chat?limit=100');
  const rows = data.messages.map(message => {
    const game = document.createElement('a');
    game.href = `/games/${encodeURIComponent(message.game)}`;
    game.textContent = message.game;
    const remove = message.removed
      ? t('removed')
      : button('Remove', async () => {
        try {
          await request('DELETE', `/api/chat/${message.id}`);
          await changed();
        } catch (error) {
          showMessage(error.message);
        }
      }, 'remove');
    return [when(message.at), game, message.name, message.text, remove];
  });
  fillTable(document.getElementById('chat-list'), ['Time', 'Game', 'Said by', 'Message', ''], rows);
}

/** Show the access log, filtered as the form says. */
export async function showAccessLog() {
  const query = new URLSearchParams({ limit: '50' });
  const path = document.getElementById('access-path').value.trim();
  const status = document.getElementById('access-status').value.trim();
  const account = document.getElementById('access-account').value.trim();
  if (path) query.set('path', path);
  if (status) query.set('status', status);
  if (account) query.set('account', account);
  const data = await request('GET', `/api/admin/access-log?${query}`);
  const rows = data.requests.map(entry => [
    when(entry.at), entry.method, entry.path, entry.status, entry.account || '', entry.client,
    entry.duration_ms.toFixed(1),
  ]);
  const headings = ['Time', 'Method', 'Path', 'Status', 'Account', 'Client', 'Duration (ms)'];
  fillTable(document.getElementById('access-list'), headings, rows);
}

/** Show the admin actions, newest first. */
export async function showAudit() {
  const data = await request('GET', '/api/admin/audit?limit=100');
  const rows = data.actions.map(action => {
    const detail = Object.keys(action.detail).length ? JSON.stringify(action.detail) : '';
    return [when(action.at), action.admin, action.action, action.target, detail];
  });
  fillTable(document.getElementById('audit-list'), ['Time', 'Admin', 'Action', 'To what', 'Details'], rows);
}
