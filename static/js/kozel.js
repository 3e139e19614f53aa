/* The site's JavaScript for the lobby and the game room: the turn clock's countdown,
 * following the server to a game room, one action per view, confirming "leave", and
 * reconnecting for good.  The room's table (laying out the chain, playing a tile) is in
 * table.js, its sounds and notices in feedback.js.  The server decides everything:
 * these files only show and send. */
(function () {
  "use strict";

  // -- the countdown: the server sends the deadline, and with each view its own "now" ---
  // The unit in the page's language (the page says which in <html lang>).
  var SECONDS = document.documentElement.lang === "ru" ? "\u00a0с" : "\u00a0s";
  var serverNow = null;   // the last data-now read, and how far the server's clock is ahead
  var offset = 0;
  function readServerClock() {
    var table = document.getElementById("table");
    var now = table && table.dataset.now;
    if (now && now !== serverNow) {
      serverNow = now;
      offset = Number(now) - Date.now();
    }
  }
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (clock) {
      var left = Number(clock.dataset.deadline) - (Date.now() + offset);
      var seconds = Math.max(0, Math.ceil(left / 1000));
      var out = clock.querySelector(".seconds") || clock;
      out.textContent = seconds + SECONDS;
      clock.classList.toggle("hurry", seconds <= 5);
      clock.dataset.left = String(seconds);
    });
    document.dispatchEvent(new CustomEvent("kozel:tick"));
  }
  setInterval(tick, 250);

  // -- after every swap: redirects, the server's clock --------------------------------
  function afterSwap() {
    var go = document.querySelector("[data-redirect]");
    if (go && go.dataset.redirect) {
      window.location.assign(go.dataset.redirect);
    }
    readServerClock();
    tick();
    backToArena();
  }

  // An arena's game that ended takes its players (not its spectators) back to the arena
  // after a few seconds to read the result; the link goes at once.
  var ARENA_RETURN_MS = 5000;
  var returning = null;
  function backToArena() {
    var back = document.querySelector("[data-arena-return]");
    var room = document.querySelector("[data-room]");
    if (!back || !room || room.hasAttribute("data-spectator") || returning !== null) return;
    returning = setTimeout(function () { window.location.assign(back.href); }, ARENA_RETURN_MS);
  }
  document.addEventListener("htmx:oobAfterSwap", afterSwap);
  document.addEventListener("htmx:afterSwap", afterSwap);
  document.addEventListener("DOMContentLoaded", afterSwap);

  // -- one action per view: after a send, wait for the server's answer --------------
  // Marked on the element around the swapped fragments, which stays.
  document.addEventListener("htmx:wsBeforeSend", function (event) {
    if (event.target.closest && event.target.closest(".chat")) return;  // a chat line is no move
    var room = document.querySelector("[data-room]");
    if (room) room.classList.add("sent");
  });

  // The chat's field keeps its text until the server says the line is sent (a refused
  // line stays, to send again; the notice beside the chat says why); a report's receipt
  // goes away after a few seconds.
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest && event.target.closest("[data-chat-form]");
    if (form) form.dataset.sent = form.elements.chat.value;
  });
  var FLEETING_MS = 4000;
  document.addEventListener("htmx:wsAfterMessage", function () {
    var notice = document.getElementById("chat-notice");
    if (!notice || notice.dataset.seen) return;
    notice.dataset.seen = "true";
    var form = document.querySelector("[data-chat-form]");
    if (notice.hasAttribute("data-chat-sent") && form && form.dataset.sent !== undefined) {
      if (form.elements.chat.value === form.dataset.sent) form.reset();
      delete form.dataset.sent;
    }
    if (notice.hasAttribute("data-fleeting")) {
      setTimeout(function () {
        if (notice.isConnected) notice.textContent = "";
      }, FLEETING_MS);
    }
  });

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (event.detail.message === BEAT_ANSWER) return;  // the heartbeat's: no answer to a move
    var room = document.querySelector("[data-room]");
    if (room) room.classList.remove("sent");
  });

  // data-live: the room shows its view from the socket (the table came in a frame), until
  // the socket closes.  Not any frame: the count of watchers or a chat line can come
  // before the first view, and the page's own view is still to be replaced then.
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target.id !== "table") return;
    var room = document.querySelector("[data-room]");
    if (room) room.dataset.live = "true";
  });
  document.addEventListener("htmx:wsClose", function () {
    var room = document.querySelector("[data-room]");
    if (room) delete room.dataset.live;
  });

  // -- the invitation link is selected whole, ready to copy ---------------------------
  document.addEventListener("focusin", function (event) {
    if (event.target.matches("[data-invite-link]")) event.target.select();
  });

  // -- leaving asks first ----------------------------------------------------------------
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  // -- the "no connection" banner: shown while the page's socket is down ---------------
  function showConnectionLost(lost) {
    document.querySelectorAll("[data-connection-lost]").forEach(function (banner) {
      banner.hidden = !lost;
    });
    if (lost) {
      var room = document.querySelector("[data-room]");
      if (room) delete room.dataset.live;
    }
  }

  // -- the heartbeat (games/live/base.py) ---------------------------------------------
  // When no view has come from the server for BEAT_MS, the page tells it the version it
  // shows; the answer says the socket is alive, and a page that is behind gets its full
  // view.  A page that is being sent views (a game in play) needs no beat: each view is
  // newer than the last, and any frame says the socket is alive.  A chat line or a count
  // of watchers is no view: it could come while the table's last notice was lost.
  // Nothing heard for ANSWER_MS after a beat (the server gone without a close, the network
  // lost, a half-open connection): the page says so and connects afresh at once.
  // So "no connection" shows at most BEAT_MS + TICK_MS + ANSWER_MS = 4.5 s after the
  // last frame (the goal: 5 s).  BEAT_MS is as long as that allows: every beat is a
  // message each way, and a table in brisk play sends its pages a view every 2 s or so.
  var BEAT_MS = 2250;
  var ANSWER_MS = 2000;
  var TICK_MS = 250;
  var BEAT_ANSWER = "";
  var link = null;       // the open socket and htmx's wrapper of it
  var waiting = null;    // the timer of the answer awaited
  var lastView = 0;      // when the last view (or beat's answer) came

  function heard(event) {
    if (waiting !== null) clearTimeout(waiting);
    waiting = null;
    var message = event && event.detail && event.detail.message;
    if (typeof message !== "string" || message === BEAT_ANSWER
        || message.indexOf("data-shown-version") !== -1) {
      lastView = Date.now();
    }
  }

  function shownVersion() {
    var shown = document.querySelector("[data-shown-version]");
    var version = shown ? Number(shown.dataset.shownVersion) : NaN;
    return isNaN(version) ? null : version;
  }

  function beat() {
    if (!link || link.socket.readyState !== WebSocket.OPEN) return;
    if (waiting !== null || Date.now() - lastView < BEAT_MS) return;
    link.socket.send(JSON.stringify({beat: shownVersion()}));
    waiting = setTimeout(lost, ANSWER_MS);
  }

  // The socket is given up: htmx's wrapper makes a new one at once (its own close
  // handling is taken off the old one first, so that a late close of it cannot replace
  // the new socket).
  function lost() {
    if (waiting !== null) clearTimeout(waiting);
    waiting = null;
    showConnectionLost(true);
    var old = link;
    link = null;
    if (!old) return;
    old.socket.onclose = null;
    old.socket.onerror = null;
    old.socket.onopen = null;
    try { old.socket.close(); } catch (error) { /* closing already */ }
    old.wrapper.reconnect();
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    link = {socket: event.detail.event.target, wrapper: event.detail.socketWrapper};
    heard();
    showConnectionLost(false);
  });
  document.addEventListener("htmx:wsAfterMessage", heard);
  setInterval(beat, TICK_MS);
  window.addEventListener("offline", lost);

  // Reconnecting: at once, then after a short delay that doubles up to a cap, each with
  // jitter, so that a page is back within moments of the server answering again and a
  // restarted server is not met by every page in the same instant.
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retries) {
      var delay = Math.min(1500, 100 * Math.pow(2, retries));
      return retries === 0 ? 0 : delay * (0.5 + Math.random() / 2);
    };
  }

  // -- reconnect whatever closed the socket, unless the server refused us for good ----
  // Over a cap (4409: too many sockets open, 4429: too many messages or reconnections)
  // the page says so; reconnecting would only be refused again.
  function showRefusal(code) {
    var note = document.querySelector("[data-socket-refused]");
    var text = note && note.getAttribute("data-refused-" + code);
    if (!text) return;
    note.textContent = text;
    note.hidden = false;
  }

  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code;
    var htmxRetries = [1006, 1011, 1012, 1013].indexOf(code) >= 0;
    var refused = code >= 4000 && code < 5000;
    if (link && link.wrapper === event.detail.socketWrapper) link = null;
    heard();
    if (refused) showRefusal(code);
    // Refused for good: no reconnecting to announce.
    showConnectionLost(!refused);
    if (htmxRetries || refused) return;
    var socket = event.detail.socketWrapper;
    setTimeout(function () { socket.reconnect(); }, 100 + Math.random() * 400);
  });
})();
