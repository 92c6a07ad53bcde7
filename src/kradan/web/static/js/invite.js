/* kradan serve: the invitation link on the board page. The browser that invited a friend keeps
 * the link (api.js: inviteOf) and shows it, with a Copy button, while the game goes on and the
 * server does not yet know of a player on the invited side (the game view's "joined"). Nobody
 * else has the link: the server keeps only the token's hash. */
import { copyText, inviteOf } from './api.js';
import { playing } from './state.js';

const $ = selector => document.querySelector(selector);

export function renderInvite(state) {
  const invite = inviteOf(state.gameId);
  const open = Boolean(invite && playing(state) &&
    !(state.game.joined || []).includes(invite.color));
  $('#invitation').hidden = !open;
  if (open && $('#invite-link').value !== invite.link) $('#invite-link').value = invite.link;
}

export function initInvite() {
  $('#copy-invite').addEventListener('click', () => copyText($('#invite-link')));
}
