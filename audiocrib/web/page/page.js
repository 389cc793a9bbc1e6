/* audiocrib in the browser: a keyboard, a speaker and a screen for a shell session on the server.
   Every sentence shown or spoken comes from the gateway (docs/webproto: "say", "screen", "bye"); this file holds
   none. Text is only ever inserted with textContent, never as HTML. */
'use strict';

(function () {
  const LOG_LIMIT = 500;        // lines kept in the visible log, so a flood cannot freeze the page
  const LIVE_LIMIT = 50;        // nodes kept in the live region (removals are not announced)
  const KEEP_KEY = 'audiocrib.keep';
  const FIRST_DELAY = 500;      // reconnect: half a second, doubling ...
  const LAST_DELAY = 15000;     // ... up to fifteen seconds
  const NAMED_KEYS = {
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', Up: 'up', Down: 'down',
    Left: 'left', Right: 'right', Enter: 'enter', Escape: 'escape', Esc: 'escape', Backspace: 'backspace',
    Home: 'home', End: 'end', F1: 'f1', F2: 'f2', ' ': 'space', Spacebar: 'space',
  };
  const REPEATING = new Set(['up', 'down', 'left', 'right']);
  const PRINTABLE = /^[^\p{C}\p{Z}]$/u;   // one character, not a control, format, separator or space
  const CUE_NAME = /^[a-z0-9_-]{1,40}$/;

  const $ = (id) => document.getElementById(id);
  const game = $('game');
  const title = $('title');
  const connection = $('connection');
  const typing = $('typing');
  const prompt = $('prompt');
  const line = $('line');
  const log = $('log');
  const logScroll = $('log-scroll');
  const live = $('live');
  const statusArea = $('status-area');
  const statusList = $('status');
  const handArea = $('hand-area');
  const hand = $('hand');
  const menuArea = $('menu-area');
  const menu = $('menu');
  const bye = $('bye');
  const again = $('again');

  let socket = null;
  let delay = FIRST_DELAY;
  let retry = null;
  let ended = false;
  let interruptNext = false;
  let audioUnlocked = false;
  let label = null;             // the newest screen title, given to the game area when it is not focused
  let keep = loadKeep();

  // ---- what the browser keeps ----

  function loadKeep() {
    try {
      const kept = JSON.parse(window.localStorage.getItem(KEEP_KEY) || '{}');
      if (kept && typeof kept === 'object') {
        return {
          token: typeof kept.token === 'string' && kept.token.length <= 128 ? kept.token : '',
          name: typeof kept.name === 'string' && kept.name.length <= 24 ? kept.name : '',
          settings: isObject(kept.settings) ? kept.settings : null,
        };
      }
    } catch (e) { /* private browsing or a mangled entry: start afresh */ }
    return { token: '', name: '', settings: null };
  }

  function isObject(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  }

  function saveKeep(message) {
    keep = {
      token: typeof message.token === 'string' ? message.token : keep.token,
      name: typeof message.name === 'string' ? message.name : keep.name,
      settings: isObject(message.settings) ? message.settings : keep.settings,
    };
    try {
      window.localStorage.setItem(KEEP_KEY, JSON.stringify(keep));
    } catch (e) { /* storage full or refused: the seat is found again by name only this session */ }
  }

  function setting(name, fallback, low, high) {
    const value = keep.settings ? keep.settings[name] : undefined;
    if (typeof fallback === 'boolean') return typeof value === 'boolean' ? value : fallback;
    return typeof value === 'number' && isFinite(value) ? Math.min(high, Math.max(low, value)) : fallback;
  }

  // ---- the connection ----

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function connect() {
    retry = null;
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const opened = new WebSocket(scheme + '//' + window.location.host + '/web');
    socket = opened;
    opened.onopen = () => {
      showConnection(true);
      send({ type: 'hello', token: keep.token, name: keep.name, settings: keep.settings });
    };
    opened.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      // The wait before the next try starts again short only once the server has answered, so a server that
      // takes connections and drops them at once is not asked twice a second.
      delay = FIRST_DELAY;
      if (isObject(message)) receive(message);
    };
    opened.onclose = () => {
      if (socket !== opened) return;
      socket = null;
      if (ended) return;
      showConnection(false);
      retry = window.setTimeout(connect, delay);
      delay = Math.min(LAST_DELAY, delay * 2);
    };
  }

  function showConnection(up) {
    const text = up ? '' : connection.dataset.down;
    if (connection.textContent !== text) connection.textContent = text;
    document.body.classList.toggle('down', !up);
  }

  function receive(message) {
    switch (message.type) {
      case 'say': if (typeof message.text === 'string') say(message.text, message.interrupt === true); break;
      case 'silence': silence(); break;
      case 'cue': if (typeof message.name === 'string') cue(message.name); break;
      case 'screen': screen(message); break;
      case 'keep': saveKeep(message); break;
      case 'bye': finish(typeof message.text === 'string' ? message.text : ''); break;
      default: break;
    }
  }

  // ---- announcements, voice and sounds ----

  function append(list, text, limit) {
    const item = document.createElement(list === log ? 'li' : 'p');
    item.textContent = text;
    list.appendChild(item);
    while (list.childElementCount > limit) list.removeChild(list.firstElementChild);
  }

  function say(text, interrupt) {
    const now = interrupt || interruptNext;
    interruptNext = false;
    // The log follows the newest line unless its reader has scrolled back to read an older one.
    const following = logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 24;
    append(log, text, LOG_LIMIT);
    if (following) logScroll.scrollTop = logScroll.scrollHeight;
    // One live region, so nothing is spoken twice; an announcement that interrupts (or is the first after the
    // session stopped speech, as after a key press) is added while the region is assertive, the others polite.
    const politeness = now ? 'assertive' : 'polite';
    if (live.getAttribute('aria-live') !== politeness) live.setAttribute('aria-live', politeness);
    append(live, text, LIVE_LIMIT);
    if (setting('voice', false) && 'speechSynthesis' in window) {
      if (now) window.speechSynthesis.cancel();
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.rate = setting('rate', 1, 0.5, 4);
      utterance.volume = setting('voice_volume', 1, 0, 1);
      window.speechSynthesis.speak(utterance);
    }
  }

  function silence() {
    interruptNext = true;
    if ('speechSynthesis' in window) window.speechSynthesis.cancel();
  }

  function cue(name) {
    if (!audioUnlocked || !CUE_NAME.test(name)) return;
    const sound = new Audio('/sounds/' + name + '.wav');
    sound.volume = setting('volume', 1, 0, 1);
    const playing = sound.play();
    if (playing) playing.catch(() => {});
  }

  function unlockAudio() {
    audioUnlocked = true;
  }

  // ---- what is on screen ----

  function strings(value) {
    return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];
  }

  function screen(message) {
    if (typeof message.title === 'string') showTitle(message.title);
    if (typeof message.mode === 'string') document.body.dataset.mode = message.mode.slice(0, 40);
    showStatus(strings(message.status));
    showHand(Array.isArray(message.hand) ? message.hand.filter(isObject) : []);
    showMenu(isObject(message.menu) ? message.menu : null);
    showTyping(isObject(message.typing) ? message.typing : null);
  }

  function showTitle(text) {
    title.textContent = text;
    label = text;
    // A focused element whose name changes is read again by some screen readers, over the announcement itself:
    // the game area takes the new title when focus is elsewhere (or leaves it).
    if (document.activeElement !== game || game.getAttribute('aria-label') === 'audiocrib') {
      game.setAttribute('aria-label', text);
    }
  }

  // Keeps ``list`` at ``count`` items, reusing those there so that a focused button keeps its focus.
  function resize(list, count, make) {
    while (list.childElementCount > count) {
      const last = list.lastElementChild;
      const hadFocus = last.contains(document.activeElement);
      list.removeChild(last);
      if (hadFocus) (list.lastElementChild ? list.lastElementChild.firstElementChild : game).focus();
    }
    while (list.childElementCount < count) {
      const item = document.createElement('li');
      item.appendChild(make(list.childElementCount));
      list.appendChild(item);
    }
  }

  function showStatus(lines) {
    resize(statusList, lines.length, () => document.createElement('span'));
    lines.forEach((text, index) => setText(statusList.children[index].firstElementChild, text));
    statusArea.hidden = lines.length === 0;
  }

  function makeButton(list, index) {
    const button = document.createElement('button');
    button.type = 'button';
    button.addEventListener('click', () => {
      unlockAudio();
      send({ type: 'choose', list: list, index: index });
    });
    return button;
  }

  function showHand(cards) {
    resize(hand, cards.length, (index) => {
      const button = makeButton('hand', index);
      const short = document.createElement('span');
      short.className = 'short';
      short.setAttribute('aria-hidden', 'true');
      const words = document.createElement('span');
      words.className = 'words';
      button.append(short, words);
      return button;
    });
    cards.forEach((card, index) => {
      const button = hand.children[index].firstElementChild;
      const short = typeof card.short === 'string' ? card.short : '';
      setText(button.firstElementChild, short);
      setText(button.lastElementChild, typeof card.label === 'string' ? card.label : short);
      button.dataset.suit = short.slice(-1).toLowerCase();
      button.setAttribute('aria-pressed', card.marked === true ? 'true' : 'false');
      // In the play, a card that cannot be played now is drawn dashed (the session says why if pressed).
      if (card.playable === false) button.dataset.playable = 'no';
      else delete button.dataset.playable;
    });
    handArea.hidden = cards.length === 0;
  }

  function showMenu(shown) {
    const items = shown ? strings(shown.items) : [];
    const current = shown && Number.isInteger(shown.current) ? shown.current : -1;
    resize(menu, items.length, (index) => makeButton('menu', index));
    items.forEach((text, index) => {
      const button = menu.children[index].firstElementChild;
      setText(button, text);
      if (index === current) button.setAttribute('aria-current', 'true');
      else button.removeAttribute('aria-current');
    });
    menuArea.hidden = items.length === 0;
  }

  function showTyping(asked) {
    if (asked) {
      const starting = typing.hidden;
      setText(prompt, typeof asked.prompt === 'string' ? asked.prompt : '');
      line.type = asked.secret === true ? 'password' : 'text';
      const limit = asked.limit;
      line.maxLength = Number.isInteger(limit) && limit > 0 && limit <= 500 ? limit : 500;
      typing.hidden = false;
      if (starting) {
        line.value = '';
        line.focus();
      }
    } else if (!typing.hidden) {
      const hadFocus = typing.contains(document.activeElement) || document.activeElement === document.body;
      typing.hidden = true;
      line.value = '';
      line.type = 'text';
      if (hadFocus) game.focus();
    }
  }

  function setText(element, text) {
    if (element.textContent !== text) element.textContent = text;
  }

  function finish(text) {
    ended = true;
    say(text, false);
    setText(again, text);
    bye.hidden = false;
    showMenu(null);
    showHand([]);
    showTyping(null);
    // The session is over, so the game area has nothing left to do: the way back in takes the focus.
    if (document.activeElement === game || document.activeElement === document.body) again.focus();
    if (socket) socket.close();
  }

  // ---- keys ----

  function keyName(event) {
    if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return null;
    if (Object.prototype.hasOwnProperty.call(NAMED_KEYS, event.key)) return NAMED_KEYS[event.key];
    if (PRINTABLE.test(event.key)) return /^[A-Z]$/.test(event.key) ? event.key.toLowerCase() : event.key;
    return null;
  }

  game.addEventListener('keydown', (event) => {
    unlockAudio();
    const name = keyName(event);
    if (name === null) return;
    event.preventDefault();
    if (event.repeat && !REPEATING.has(name)) return;
    send({ type: 'key', key: name });
  });

  game.addEventListener('blur', () => {
    if (label !== null && game.getAttribute('aria-label') !== label) game.setAttribute('aria-label', label);
  });

  typing.addEventListener('submit', (event) => {
    event.preventDefault();
    send({ type: 'line', text: line.value });
    line.value = '';
  });

  line.addEventListener('keydown', (event) => {
    unlockAudio();
    if (event.key === 'Escape' || event.key === 'Esc') {
      event.preventDefault();
      send({ type: 'key', key: 'escape' });
    }
  });

  $('cancel').addEventListener('click', () => send({ type: 'key', key: 'escape' }));

  again.addEventListener('click', () => {
    ended = false;
    bye.hidden = true;
    game.focus();
    if (retry !== null) window.clearTimeout(retry);
    delay = FIRST_DELAY;
    connect();
  });

  document.addEventListener('pointerdown', unlockAudio);

  connect();
  game.focus();
})();
