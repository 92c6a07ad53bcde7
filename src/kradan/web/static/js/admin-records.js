/* kradan serve, the admin page: what happened. The newest chat messages of every game (with
 * remove, DELETE /api/chat/{id}), this process's access log (GET /api/admin/access-log, with a
 * filter) and the admin actions (GET /api/admin/audit). */
import { request } from './api.js';
import { button, fillTable, when } from './admin-table.js';
import { showMessage } from './message.js';
import { N_, t } from './words.js';

/** The admin actions of the audit trail, in words. */
const ACTIONS = {
  disable: N_('disabled the account'),
  enable: N_('enabled the account'),
  reset_password: N_('reset the password'),
  grant_admin: N_('gave the admin role'),
  revoke_admin: N_('took the admin role away'),
  abort: N_('aborted the game'),
  adjudicate: N_('adjudicated the game'),
  delete_game: N_('deleted the game'),
  remove_message: N_('removed the message'),
  settings: N_('changed the settings'),
};

/** Show every game's newest messages; ``changed`` runs after a removal. */
export async function showChat(changed) {
  const data = await request('GET', '/api/admin/chat?limit=100');
  const rows = data.messages.map(message => {
    const game = document.createElement('a');
    game.href = `/games/${encodeURIComponent(message.game)}`;
    game.textContent = message.game;
    const remove = message.removed
      ? t('removed')
      : button(N_('Remove'), async () => {
        try {
          await request('DELETE', `/api/chat/${message.id}`);
          await changed();
        } catch (error) {
          showMessage(error.message);
        }
      }, 'remove');
    return [when(message.at), game, message.name, message.text, remove];
  });
  const headings = [N_('Time'), N_('Game'), N_('Said by'), N_('Message'), ''];
  fillTable(document.getElementById('chat-list'), headings, rows);
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
  const headings = [
    N_('Time'), N_('Method'), N_('Path'), N_('Status'), N_('Account'), N_('Client'),
    N_('Duration (ms)'),
  ];
  fillTable(document.getElementById('access-list'), headings, rows);
}

/** Show the admin actions, newest first. */
export async function showAudit() {
  const data = await request('GET', '/api/admin/audit?limit=100');
  const rows = data.actions.map(action => {
    const detail = Object.keys(action.detail).length ? JSON.stringify(action.detail) : '';
    const words = ACTIONS[action.action] ? t(ACTIONS[action.action]) : action.action;
    return [when(action.at), action.admin, words, action.target, detail];
  });
  const headings = [N_('Time'), N_('Admin'), N_('Action'), N_('To what'), N_('Details')];
  fillTable(document.getElementById('audit-list'), headings, rows);
}
