/* kradan serve: the sign-in page (body[data-page="login"]): sign in, or make an account, then
 * back to the page the address names (?next=/a/local/path), else the front page. */
import { request } from './api.js';
import { showMessage } from './message.js';
import { t, translatePage } from './words.js';

const $ = selector => document.querySelector(selector);

/** Where to go once signed in: a path of this server only. */
function nextPage() {
  const next = new URLSearchParams(window.location.search).get('next') || '/';
  return /^\/(?![/\\])/.test(next) ? next : '/';
}

function submitTo(form, path) {
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const data = new FormData(form);
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      await request('POST', path, { username: data.get('username'), password: data.get('password') });
      window.location.assign(nextPage());
    } catch (error) {
      showMessage(error.message);
      button.disabled = false;
    }
  });
}

window.kradan = { t };
translatePage();
submitTo($('#sign-in-form'), '/api/session');
submitTo($('#sign-up-form'), '/api/accounts');
