/* kradan serve: who is signed in, in the page header (templates/language.html): the account's
 * name (a link to its page) and "Sign out", or "Sign in"; for an admin, a link to /admin.
 * ``account`` is a promise of GET /api/session's answer ({username, admin}; username null for
 * a guest) for the page's other modules. */
import { request } from './api.js';
import { t } from './words.js';

async function fetchAccount() {
  try {
    return await request('GET', '/api/session');
  } catch (error) {
    return { username: null, admin: false };
  }
}

/** The signed-in account: {username, admin} (username null: a guest). */
export const account = fetchAccount();

function link(href, text) {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.textContent = text;
  return anchor;
}

/** The link to the admin page, shown to admins only. */
function adminLink() {
  const anchor = link('/admin', t('Admin'));
  anchor.id = 'admin-link';
  return anchor;
}

async function show() {
  const bar = document.getElementById('account-bar');
  if (!bar) return;
  const me = await account;
  bar.textContent = '';
  if (me.username) {
    const name = link(`/@/${encodeURIComponent(me.username)}`, me.username);
    name.id = 'account-name';
    const out = document.createElement('button');
    out.type = 'button';
    out.id = 'sign-out';
    out.textContent = t('Sign out');
    out.addEventListener('click', async () => {
      try {
        await request('DELETE', '/api/session');
      } finally {
        window.location.reload();
      }
    });
    if (me.admin) bar.append(adminLink(), ' ');
    bar.append(name, ' ', out);
  } else {
    const here = window.location.pathname + window.location.search;
    const signIn = link('/login?' + new URLSearchParams({ next: here }), t('Sign in'));
    signIn.id = 'sign-in';
    bar.append(signIn);
  }
}

show();
