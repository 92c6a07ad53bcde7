/* kradan serve: the game's chat on the board page (templates/game.html, #chat). A player talks
 * in the players' room (their seat's token proves it), whoever watches in the spectators' room
 * (an account writes there); once the game ends a player may read the spectators' room too.
 * Messages come live over /api/games/{id}/chat/socket and are put in with textContent only:
 * what people write is never read as HTML. An admin sees a button that removes a message. */
import { ApiError, gamePath, request, seatsOf } from './api.js';
import { account } from './account-bar.js';
import { N_, t } from './words.js';

const $ = selector => document.querySelector(selector);
const ROOM_NAMES = { players: N_('Players'), spectators: N_('Spectators') };

/** The token of a seat this browser holds in ``gameId``, if any. */
function seatToken(gameId) {
  const seats = seatsOf(gameId);
  return seats.white || seats.black || undefined;
}

class ChatPanel {
  constructor(gameId, me) {
    this.gameId = gameId;
    this.me = me;
    this.room = null;
    this.socket = null;
    this.token = seatToken(gameId);
  }

  /** The rooms this browser may read, asked of the server (a refusal means: not this one). */
  async readable() {
    const rooms = [];
    for (const room of ['players', 'spectators']) {
      try {
        await request('GET', `${gamePath(this.gameId, 'chat')}?room=${room}`, undefined, this.token);
        rooms.push(room);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    }
    return rooms;
  }

  async show() {
    const rooms = await this.readable();
    const panel = $('#chat');
    if (!rooms.length) return;
    panel.hidden = false;
    const tabs = $('#chat-rooms');
    tabs.textContent = '';
    for (const room of rooms) {
      const tab = document.createElement('button');
      tab.type = 'button';
      tab.dataset.room = room;
      tab.textContent = t(ROOM_NAMES[room]);
      tab.addEventListener('click', () => this.open(room));
      tabs.append(tab);
    }
    tabs.hidden = rooms.length < 2;
    $('#chat-sign-in a').href = `/login?next=${encodeURIComponent(window.location.pathname)}`;
    $('#chat-form').addEventListener('submit', event => {
      event.preventDefault();
      this.say();
    });
    this.open(rooms[0]);
  }

  /** Show ``room``: its messages, then each one said or removed, until another is opened. */
  open(room) {
    this.room = room;
    for (const tab of document.querySelectorAll('#chat-rooms button')) {
      tab.setAttribute('aria-pressed', String(tab.dataset.room === room));
    }
    // the players' room is read by its players (and an admin); the spectators' written by accounts
    const writes = room === 'players' || Boolean(this.me.username);
    $('#chat-form').hidden = !writes;
    $('#chat-sign-in').hidden = writes || room !== 'spectators';
    $('#chat-messages').textContent = '';
    if (this.socket) this.socket.close();
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const path = `${gamePath(this.gameId, 'chat')}/socket?room=${room}`;
    const socket = new WebSocket(`${scheme}//${window.location.host}${path}`);
    this.socket = socket;
    socket.addEventListener('open', () => {
      if (this.token) socket.send(JSON.stringify({ type: 'auth', token: this.token }));
    });
    socket.addEventListener('message', event => {
      if (this.socket !== socket) return;
      const message = JSON.parse(event.data);
      if (message.type === 'chat') {
        $('#chat-messages').textContent = '';
        message.messages.forEach(said => this.add(said));
      } else if (message.type === 'said') {
        this.add(message.message);
      } else if (message.type === 'removed') {
        const gone = document.querySelector(`#chat-messages li[data-id="${Number(message.id)}"]`);
        if (gone) gone.remove();
      }
    });
  }

  /** One message at the end of the list (and the list scrolled to it). */
  add(said) {
    const list = $('#chat-messages');
    const item = document.createElement('li');
    item.dataset.id = String(said.id);
    const name = document.createElement('b');
    name.textContent = said.name;
    const text = document.createElement('span');
    text.className = 'chat-text';
    text.textContent = said.text;
    item.append(name, ' ', text);
    if (this.me.admin) {
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'chat-remove';
      remove.textContent = '×';
      remove.title = t('Remove this message');
      remove.setAttribute('aria-label', t('Remove this message'));
      remove.addEventListener('click', () => this.remove(said.id));
      item.append(' ', remove);
    }
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  async say() {
    const input = $('#chat-input');
    const text = input.value.trim();
    if (!text) return;
    const note = $('#chat-note');
    try {
      await request('POST', gamePath(this.gameId, 'chat'), { room: this.room, text }, this.token);
      input.value = '';
      note.hidden = true;
    } catch (error) {
      note.textContent = error.message;
      note.hidden = false;
    }
  }

  async remove(id) {
    try {
      await request('DELETE', `/api/chat/${Number(id)}`);
    } catch (error) {
      $('#chat-note').textContent = error.message;
      $('#chat-note').hidden = false;
    }
  }
}

/** Start the chat of game ``gameId`` once the page knows who is signed in. */
export async function initChat(gameId) {
  const panel = new ChatPanel(gameId, await account);
  await panel.show();
  window.kradan.chat = panel;
}
