/* audiocrib in the browser: a keyboard, a speaker and a screen for a shell session on the server.
   Every sentence shown or spoken comes from the gateway (docs/webproto: "say", "screen", "bye"); this file holds
   none. Text is only ever inserted with textContent, never as HTML. */
'use strict';

(function () {
  const LOG_LIMIT = 500;        // lines kept in the visible log, so a flood cannot freeze the page
  const LIVE_LIMIT = 50;        // paragraphs kept in the live region (removals are not announced)
  const COLLECT = 30;           // milliseconds in which announcements that come together are gathered for it ...
  const SPACING = 250;          // ... and at least between two of its paragraphs (Chromium gathers 150 ms)
  const QUIET = 1000;           // milliseconds after which a new run of announcements is polite again
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
  const enter = $('enter');
  const advice = $('advice');
  const change = $('change');
  const changeBack = $('change-back');
  const changeForward = $('change-forward');

  let socket = null;
  let delay = FIRST_DELAY;
  let retry = null;
  let ended = false;
  let interruptNext = false;
  let audioUnlocked = false;
  let told = [];                // the announcements waiting to go to the live region together
  let toldNow = false;          // ... one of which interrupts
  let telling = null;           // the timer that adds them
  let toldAt = -1e9;            // when the live region was last added to (performance.now())
  let lastTold = '';            // ... and the words it was told then
  let mode = '';                // the session's moment, from the newest screen
  let typed = null;             // the line's text as the gateway last described it (null: no text box)
  let following = true;         // the visible log shows its newest line (its reader has not scrolled back)
  let placed = -1;              // where the page itself last scrolled the log to (its newest line)
  let downSaid = -1e9;          // when a key last had the page say it is disconnected (performance.now())
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
      // What the session says in one go comes as one frame: a list of messages, in order.
      for (const one of Array.isArray(message) ? message : [message]) {
        if (isObject(one)) receive(one);
      }
    };
    opened.onclose = (event) => {
      if (socket !== opened) return;
      socket = null;
      if (ended) return;
      // The gateway closes with a sentence of its own ("The server is stopping."): the player hears why.
      if (typeof event.reason === 'string' && event.reason) say(event.reason, false);
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
    append(log, text, LOG_LIMIT);
    if (following) pin();
    // One live region, so nothing is spoken twice; an announcement that interrupts (or is the first after the
    // session stopped speech, as after a key press) is added while the region is assertive, and so is the rest of
    // its run; the others polite.
    tell(text, now);
    if (setting('voice', false) && 'speechSynthesis' in window) {
      if (now) window.speechSynthesis.cancel();
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.rate = setting('rate', 1, 0.5, 4);
      utterance.volume = setting('voice_volume', 1, 0, 1);
      window.speechSynthesis.speak(utterance);
    }
  }

  // What the live region is told is read in order. Chromium hands a screen reader the elements added within about
  // 150 ms of each other (and all those added while the page loads) at once, in no set order, and Orca reads each
  // as it comes (issue 23). So the announcements that come together go to the live region as one paragraph (one
  // span each), and a paragraph is added only once the page has loaded and SPACING after the one before: the first
  // after a quiet moment within COLLECT, the rest of a quick run together a little later.
  function tell(text, now) {
    told.push(text);
    toldNow = toldNow || now;
    if (telling === null) {
      const wait = Math.max(COLLECT, toldAt + SPACING - performance.now());
      telling = window.setTimeout(addTold, wait);
    }
  }

  function addTold() {
    if (document.readyState !== 'complete') {
      telling = window.setTimeout(addTold, COLLECT);
      return;
    }
    telling = null;
    const lines = told;
    // Orca says its queued polite messages before its assertive ones, and drops the polite ones an assertive one
    // finds queued: so a run of announcements keeps the politeness of its first (assertive after a key press).
    const at = performance.now();
    const going = at - toldAt < QUIET ? live.getAttribute('aria-live') : 'polite';
    const politeness = toldNow ? 'assertive' : going;
    told = [];
    toldNow = false;
    toldAt = at;
    if (live.getAttribute('aria-live') !== politeness) live.setAttribute('aria-live', politeness);
    const paragraph = document.createElement('p');
    lines.forEach((line, index) => {
      const span = document.createElement('span');
      span.textContent = line;
      paragraph.append(...(index > 0 ? [' ', span] : [span]));
    });
    // Orca skips an addition whose words are those of the one before (the same key pressed twice): a no-break space
    // after them (which layout keeps, unlike a plain one) makes them differ, and is not heard.
    const words = paragraph.textContent;
    if (words === lastTold) paragraph.append('\u00a0');
    lastTold = words === lastTold ? '' : words;
    live.appendChild(paragraph);
    while (live.childElementCount > LIVE_LIMIT) live.removeChild(live.firstElementChild);
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
    if (typeof message.mode === 'string') mode = document.body.dataset.mode = message.mode.slice(0, 40);
    showStatus(strings(message.status));
    showHand(Array.isArray(message.hand) ? message.hand.filter(isObject) : []);
    showEnter(typeof message.enter === 'string' ? message.enter : null,
      typeof message.advice === 'string' ? message.advice : null);
    showMenu(isObject(message.menu) ? message.menu : null);
    showTyping(isObject(message.typing) ? message.typing : null);
  }

  // The title is shown (and read) inside the game area; the game area's own name stays the page's, so it is never
  // out of date while it has the focus, and no screen reader reads a name changing over the announcements.
  function showTitle(text) {
    setText(title, text);
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
      // Cards are marked only while they are laid away; elsewhere a card is a plain button.
      if (mode === 'discard') button.setAttribute('aria-pressed', card.marked === true ? 'true' : 'false');
      else button.removeAttribute('aria-pressed');
      // In the play, a card that cannot be played now is dimmed and struck through, yet still focusable and
      // pressable: the session says why it cannot be played.
      if (card.playable === false) button.setAttribute('aria-disabled', 'true');
      else button.removeAttribute('aria-disabled');
      // The card you are on (the one space marks and Enter plays), while you lay away or play.
      if (card.current === true) button.setAttribute('aria-current', 'true');
      else button.removeAttribute('aria-current');
    });
    handArea.hidden = cards.length === 0 && enter.hidden && advice.hidden;
  }

  // Keeps ``button`` shown with ``text`` (the session's words), or hides it when ``text`` is null; a button
  // that goes while it has the focus gives it to the game area.
  function showButton(button, text) {
    if (text === null) {
      if (!button.hidden) {
        const hadFocus = document.activeElement === button;
        button.hidden = true;
        if (hadFocus) game.focus();
      }
      return;
    }
    setText(button, text);
    button.hidden = false;
  }

  // Enter's button, and the coach's (the a key's), each shown while the session gives its words.
  function showEnter(text, adviceText) {
    showButton(enter, text);
    showButton(advice, adviceText);
    handArea.hidden = hand.childElementCount === 0 && enter.hidden && advice.hidden;
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
    const words = shown && Array.isArray(shown.change) ? strings(shown.change) : [];
    const changing = items.length > 0 && words.length === 2;
    showButton(changeBack, changing ? words[0] : null);
    showButton(changeForward, changing ? words[1] : null);
    change.hidden = !changing;
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
      // The session may keep a line it refused: the box shows the line as the session holds it, when it opens
      // and whenever that changes (not over what the player types meanwhile).
      const text = typeof asked.text === 'string' ? asked.text : '';
      if (starting || text !== typed) line.value = text;
      typed = text;
      if (starting) line.focus();
    } else if (!typing.hidden) {
      const hadFocus = typing.contains(document.activeElement) || document.activeElement === document.body;
      typing.hidden = true;
      typed = null;
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
    setText(again, text);
    bye.hidden = false;
    // The session is over (it has said its goodbye), so the game area has nothing left to do: the way back in
    // takes the focus, and a screen reader reads its words; the live region has them only when it does not.
    const active = document.activeElement;
    const moving = active === game || active === document.body || active === null ||
      (active.tagName === 'BUTTON' && !bye.contains(active));
    if (!moving) say(text, false);
    showMenu(null);
    showHand([]);
    showEnter(null, null);
    showTyping(null);
    if (moving) again.focus();
    if (socket) socket.close();
  }

  // ---- keys ----

  function keyName(event) {
    if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return null;
    if (Object.prototype.hasOwnProperty.call(NAMED_KEYS, event.key)) return NAMED_KEYS[event.key];
    if (PRINTABLE.test(event.key)) return /^[A-Z]$/.test(event.key) ? event.key.toLowerCase() : event.key;
    return null;
  }

  // While the connection is down a key is not lost in silence: the page says it is reconnecting (at most once a
  // second, as a held key repeats).
  function sendKey(name) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      send({ type: 'key', key: name });
    } else if (!ended && document.body.classList.contains('down') && performance.now() - downSaid > 1000) {
      downSaid = performance.now();
      say(connection.dataset.down, false);
    }
  }

  // The game's keys work wherever the focus is (the game area, a card or menu button reached with Tab), except
  // that a focused button keeps Enter and space (its click acts), the scrolling log keeps its scrolling keys, and
  // the text box keeps every key but F1 (the session's help for typing) and Escape (cancel).
  const SCROLLING = new Set(['up', 'down', 'home', 'end', 'space']);
  document.addEventListener('keydown', (event) => {
    unlockAudio();
    const name = keyName(event);
    if (name === null) return;
    const target = event.target instanceof Element ? event.target : game;
    if (typing.contains(target)) {
      if (name !== 'f1' && name !== 'escape') return;
    } else if (target.tagName === 'BUTTON' && (name === 'enter' || name === 'space')) {
      return;
    } else if (target === logScroll && SCROLLING.has(name)) {
      return;
    } else if (target !== game && target !== document.body && target.tagName !== 'BUTTON' && target !== logScroll) {
      return;
    }
    event.preventDefault();
    if (event.repeat && !REPEATING.has(name)) return;
    sendKey(name);
  });

  typing.addEventListener('submit', (event) => {
    event.preventDefault();
    send({ type: 'line', text: line.value });
    line.value = '';
  });

  $('cancel').addEventListener('click', () => send({ type: 'key', key: 'escape' }));
  enter.addEventListener('click', () => { unlockAudio(); sendKey('enter'); });
  advice.addEventListener('click', () => { unlockAudio(); sendKey('a'); });
  changeBack.addEventListener('click', () => { unlockAudio(); sendKey('left'); });
  changeForward.addEventListener('click', () => { unlockAudio(); sendKey('right'); });

  // The log follows its newest line while its reader has not scrolled back, also when it is resized (a phone
  // turned, the page zoomed), which moves its bottom without a scroll.
  // A scroll event comes a frame after its scroll: the page's own scroll to the newest line, under a log that has
  // grown since (a new column's reflow, more lines), is not its reader scrolling back.
  function pin() {
    logScroll.scrollTop = logScroll.scrollHeight;
    placed = logScroll.scrollTop;
  }
  logScroll.addEventListener('scroll', () => {
    following = logScroll.scrollTop === placed ||
      logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 24;
  });
  if ('ResizeObserver' in window) {
    const stay = new ResizeObserver(() => { if (following) pin(); });
    stay.observe(logScroll);
    stay.observe(log);
  }

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
