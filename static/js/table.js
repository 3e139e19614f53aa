/* The game room's table: the chain laid out as a snake, and the gestures that play a tile.
 *
 * The server's frame says everything: which tiles of the hand may be played and on which
 * ends (data-ends, from the rules' legal actions), and the buttons that send each move
 * (the hand's ws-send buttons, with the version).  This file never works out a rule: it
 * lays the chain out for this screen, lights the ends the chosen tile fits, and clicks
 * the server's button for the end the person chose.
 *
 * Playing: a tile that fits one end is sent by its own button (a tap or a click); a tile
 * that fits both is chosen (a tap), then a lit end of the chain is tapped; with a mouse,
 * any playable tile may be dragged onto a lit end (or, for the lead, onto the table).
 * Sea goat's two doubles at once: one double is chosen, then the other is tapped (or the
 * server's button for both is); the chosen one's lit end plays it alone. */
(function () {
  "use strict";

  var motion = window.matchMedia("(prefers-reduced-motion: no-preference)");

  // -- the chain as a snake --------------------------------------------------------------
  // In units of half a tile (--u px): a tile is 2 x 1, a double 1 x 2 (drawn across).
  // The round's first tile lies in the middle; the chain grows from it both ways: to the
  // right, turning down at the table's edge and back, and to the left, turning up.

  function tilesOf(chain) {
    return Array.prototype.map.call(chain.querySelectorAll(".chain-tile"), function (el) {
      var a = Number(el.dataset.a), b = Number(el.dataset.b);
      return {el: el, double: a === b};
    });
  }

  // Lays out one arm of the chain from the edge ``x`` of the tile before it; returns where
  // the next tile would go (the open end).  ``inner`` is the half of each tile that
  // touches the one before: "a" (drawn left) going right, "b" (drawn right) going left.
  function arm(tiles, x, dir, vdir, lastDouble, inner, half, placed) {
    var y = 0;
    tiles.forEach(function (t) {
      var len = t.double ? 1 : 2;
      var size = t.double ? [1, 2] : [2, 1];
      if (dir > 0 ? x + len > half : x - len < -half) {
        // The turn: across, under (or over) the row's last half, then back the other way.
        var column = x - dir * 0.5;
        var edge = y + vdir * (lastDouble ? 1 : 0.5);
        placed.push({el: t.el, cx: column, cy: edge + vdir, rot: t.double ? 0 : 90,
                     w: size[0], h: size[1], across: !t.double});
        y = edge + vdir * 1.5;
        x = column - dir * 0.5;
        dir = -dir;
        lastDouble = false;
        return;
      }
      var rot = 0;
      if (!t.double && (inner === "a") !== (dir > 0)) rot = 180;
      placed.push({el: t.el, cx: x + dir * len / 2, cy: y, rot: rot, w: size[0], h: size[1]});
      x += dir * len;
      lastDouble = t.double;
    });
    if (dir > 0 ? x + 2 > half : x - 2 < -half) {
      var edge = y + vdir * (lastDouble ? 1 : 0.5);
      return {cx: x - dir * 0.5, cy: edge + vdir, w: 1, h: 2};
    }
    return {cx: x + dir, cy: y, w: 2, h: 1};
  }

  // The snake of ``tiles`` (the round's first at ``lead``) for a row of ``half`` units each
  // side of the middle: where each tile and open end goes, and the rows it takes, in units.
  function plan(tiles, lead, half) {
    var first = tiles[lead];
    var placed = [{el: first.el, cx: 0, cy: 0, rot: 0, w: first.double ? 1 : 2, h: first.double ? 2 : 1}];
    var reach = first.double ? 0.5 : 1;
    var ends = {
      right: arm(tiles.slice(lead + 1), reach, 1, 1, first.double, "a", half, placed),
      left: arm(tiles.slice(0, lead).reverse(), -reach, -1, -1, first.double, "b", half, placed),
    };
    // The rows taken, top to bottom, so that the table is as tall as its chain.
    var top = Infinity, bottom = -Infinity;
    function extent(cy, h) {
      top = Math.min(top, cy - h / 2);
      bottom = Math.max(bottom, cy + h / 2);
    }
    placed.forEach(function (p) {
      extent(p.cy, p.across ? p.w : p.h);
    });
    Object.keys(ends).forEach(function (side) {
      extent(ends[side].cy, ends[side].h);
    });
    return {placed: placed, ends: ends, top: top, bottom: bottom};
  }

  function halfRow(width, u) {
    return Math.max(4, Math.floor(width / u / 2) - 0.5);
  }

  // The room as tall as the screen while a round is played, so that the felt takes what
  // the bar, the seats, the log and the hand leave: below the site's header when it is
  // short (a desktop), else the whole screen, the page scrolled to the room once (a phone).
  var scrolledToRoom = false;

  function fitRoom(room) {
    var top = room.getBoundingClientRect().top + window.scrollY;
    var below = top <= 0.1 * window.innerHeight;
    room.style.setProperty("--room-h", (window.innerHeight - (below ? top : 0)) + "px");
    var playing = document.querySelector('#table[data-status="playing"]');
    if (!below && playing && !scrolledToRoom) {
      scrolledToRoom = true;
      window.scrollTo(0, top);
    }
  }

  // The chain laid out as large as the felt lets it (its half tile ``u`` between the
  // page's --u-min and --u-max, room.css): the largest whose snake fits the felt's height.
  function layOut() {
    var chain = document.querySelector("#table [data-chain]");
    if (!chain) return;
    var room = chain.closest("[data-room]");
    if (room) fitRoom(room);
    chain.style.height = "";
    chain.style.removeProperty("--u");
    chain.classList.add("laid-out");  // its tiles out of the flow: it is as tall as the felt lets it
    var style = getComputedStyle(chain);
    var least = parseFloat(style.getPropertyValue("--u-min")) || 20;
    var most = parseFloat(style.getPropertyValue("--u-max")) || least;
    var tiles = tilesOf(chain);
    if (!tiles.length) return;
    var width = chain.clientWidth, space = chain.clientHeight;
    var lead = Math.min(Number(chain.dataset.lead) || 0, tiles.length - 1);
    var u = least, laid = plan(tiles, lead, halfRow(width, least));
    for (var size = Math.floor(most); size > least; size--) {
      var tried = plan(tiles, lead, halfRow(width, size));
      if ((tried.bottom - tried.top + 0.5) * size <= space) {
        u = size;
        laid = tried;
        break;
      }
    }
    chain.style.setProperty("--u", u + "px");
    var tall = (laid.bottom - laid.top + 0.5) * u;
    var middle = width / 2;
    // In the middle of the felt when it is taller than the chain, else the felt grows.
    var lift = -laid.top + 0.25 + Math.max(0, (space - tall) / 2 / u);
    laid.placed.forEach(function (p) {
      p.el.style.left = (middle + (p.cx - p.w / 2) * u) + "px";
      p.el.style.top = ((p.cy + lift - p.h / 2) * u) + "px";
      p.el.style.transform = p.rot ? "rotate(" + p.rot + "deg)" : "";
    });
    Object.keys(laid.ends).forEach(function (side) {
      var marker = chain.querySelector('.open-end[data-end="' + side + '"]');
      if (!marker) return;
      var end = laid.ends[side];
      marker.style.left = (middle + (end.cx - end.w / 2) * u) + "px";
      marker.style.top = ((end.cy + lift - end.h / 2) * u) + "px";
      marker.style.width = (end.w * u) + "px";
      marker.style.height = (end.h * u) + "px";
    });
    if (tall > space) chain.style.height = tall + "px";
  }

  // -- choosing a tile and an end --------------------------------------------------------
  var chosen = null;  // the name of the hand's chosen tile

  function endsOf(name) {
    var tile = name && document.querySelector('#room [data-tile="' + name + '"][data-playable]');
    return tile && tile.dataset.ends ? tile.dataset.ends.split(" ") : [];
  }

  function light(ends) {
    document.querySelectorAll("#table .open-end").forEach(function (marker) {
      var lit = ends.indexOf(marker.dataset.end) >= 0;
      marker.classList.toggle("lit", lit);
      marker.disabled = !lit;
    });
  }

  function choose(name) {
    chosen = name;
    var partner = name && document.querySelector('#room [data-tile="' + name + '"][data-with]');
    document.querySelectorAll("#room [data-choose-end]").forEach(function (tile) {
      var on = tile.dataset.tile === name;
      tile.classList.toggle("chosen", on);
      tile.setAttribute("aria-pressed", String(on));
      // The other of two doubles that may go at once: lit, to be tapped too.
      tile.classList.toggle("partner", !!partner && partner.dataset.with === tile.dataset.tile);
    });
    light(endsOf(name));
  }

  // Sends the move of ``name`` on ``end`` by clicking the server's own button for it.
  function send(name, end) {
    var button = document.querySelector(
      '#room [data-end="' + end + '"][data-for="' + name + '"]');
    if (!button) {
      var tile = document.querySelector('#room [data-tile="' + name + '"][data-playable]');
      if (tile && !tile.hasAttribute("data-choose-end") && (tile.dataset.ends || "") === end) {
        button = tile;
      }
    }
    if (button) {
      choose(null);
      button.click();
    }
  }

  document.addEventListener("click", function (event) {
    if (dragged) {  // the click that ends a drag is no tap
      dragged = false;
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    var tile = event.target.closest("#room [data-choose-end]");
    if (tile) {
      var first = chosen && document.querySelector('#room [data-tile="' + chosen + '"][data-with]');
      if (first && first.dataset.with === tile.dataset.tile) {
        // The other of two doubles (sea goat): both at once, by the server's own button.
        var both = document.querySelector("#room [data-doubles]");
        choose(null);
        if (both) both.click();
        return;
      }
      choose(chosen === tile.dataset.tile ? null : tile.dataset.tile);
      return;
    }
    var marker = event.target.closest("#table .open-end.lit");
    if (marker && chosen) send(chosen, marker.dataset.end);
  }, true);

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && chosen) choose(null);
  });

  // -- dragging a tile with a mouse ----------------------------------------------------------
  var drag = null;      // {tile, name, ghost, x, y, started}
  var dragged = false;  // a drag just ended: the click that follows is not a tap

  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "mouse" || event.button !== 0) return;
    var tile = event.target.closest("#room .hand-tile[data-playable]");
    if (!tile) return;
    drag = {tile: tile, name: tile.dataset.tile, x: event.clientX, y: event.clientY,
            started: false, ghost: null};
  });

  // The end under the pointer that the dragged tile ``name`` may go to ("" for the lead:
  // the table is empty, and the tile goes anywhere on it), or null.
  function dropTarget(event, name) {
    var under = document.elementFromPoint(event.clientX, event.clientY);
    if (!under) return null;
    var marker = under.closest("#table .open-end.lit");
    if (marker) return marker.dataset.end;
    if (!endsOf(name).length && under.closest("#table .felt")) return "";
    return null;
  }

  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    if (!drag.started) {
      if (Math.abs(event.clientX - drag.x) + Math.abs(event.clientY - drag.y) < 6) return;
      drag.started = true;
      drag.ghost = drag.tile.cloneNode(true);
      drag.ghost.removeAttribute("ws-send");
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.setAttribute("aria-hidden", "true");
      document.body.appendChild(drag.ghost);
      drag.tile.classList.add("dragging");
      light(endsOf(drag.name));
    }
    drag.ghost.style.left = (event.clientX - drag.ghost.offsetWidth / 2) + "px";
    drag.ghost.style.top = (event.clientY - drag.ghost.offsetHeight / 2) + "px";
    var over = dropTarget(event, drag.name);
    document.querySelectorAll("#table .open-end").forEach(function (marker) {
      marker.classList.toggle("over", marker.dataset.end === over);
    });
  });

  document.addEventListener("pointerup", function (event) {
    if (!drag) return;
    var was = drag;
    drag = null;
    if (!was.started) return;  // a click: handled as a tap
    was.ghost.remove();
    was.tile.classList.remove("dragging");
    var end = dropTarget(event, was.name);
    // The browser's own click, if it follows this pointerup, comes before the timeout.
    dragged = true;
    setTimeout(function () {
      dragged = false;
      if (end === "") {
        was.tile.click();  // the lead: the tile's own button sends it
      } else if (end) {
        send(was.name, end);
      } else {
        choose(chosen);  // dropped elsewhere: the ends as they were
      }
    }, 0);
  });

  // -- after each frame ------------------------------------------------------------------------
  // Where things were before the frame, for the slide of the tile just played.
  var before = null;

  function rectsBefore() {
    var hand = {};
    document.querySelectorAll("#room [data-hand] [data-tile]").forEach(function (tile) {
      hand[tile.dataset.tile] = tile.getBoundingClientRect();
    });
    var seats = {};
    document.querySelectorAll("#table .seat[data-seat]").forEach(function (seat) {
      seats[seat.dataset.seat] = seat.getBoundingClientRect();
    });
    var table = document.getElementById("table");
    return {hand: hand, seats: seats, version: table && table.dataset.version,
            chain: Array.prototype.map.call(
              document.querySelectorAll("#table .chain-tile"), function (t) { return t.dataset.tile; })};
  }

  function slideIn(was) {
    var table = document.getElementById("table");
    var tile = document.querySelector("#table .chain-tile.last");
    if (!was || !table || !tile || !motion.matches || was.version === table.dataset.version
        || was.chain.indexOf(tile.dataset.tile) >= 0) return;
    var from = was.hand[tile.dataset.tile] || was.seats[table.dataset.lastSeat];
    if (!from) return;
    var to = tile.getBoundingClientRect();
    var dx = from.left + from.width / 2 - (to.left + to.width / 2);
    var dy = from.top + from.height / 2 - (to.top + to.height / 2);
    tile.style.transition = "none";
    tile.style.translate = dx + "px " + dy + "px";
    tile.getBoundingClientRect();  // the start, drawn before the transition
    tile.style.transition = "";
    tile.style.translate = "0px 0px";
  }

  // -- the whole round's moves ------------------------------------------------------------
  // A dialog in the table (templates/games/room/table.html), opened by its button; a frame
  // replaces the table with it, so a dialog that was open is opened again, scrolled where
  // it was (or to its latest line, if it was there), with the focus where it was.
  var movesWere = null;

  function movesDialog() {
    return document.querySelector("#table [data-round-moves]");
  }

  function openMoves(dialog, was) {
    if (!dialog || dialog.open || typeof dialog.showModal !== "function") return;
    dialog.showModal();
    var list = dialog.querySelector(".round-moves-list");
    if (was && !was.atEnd) list.scrollTop = was.scrollTop;
    else list.scrollTop = list.scrollHeight;
    if (was && was.focus === "list") list.focus();
  }

  function movesBefore() {
    var dialog = movesDialog();
    if (!dialog || !dialog.open) return null;
    var list = dialog.querySelector(".round-moves-list");
    return {scrollTop: list.scrollTop,
            atEnd: list.scrollTop + list.clientHeight >= list.scrollHeight - 2,
            focus: document.activeElement === list ? "list" : "close"};
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("#table [data-round-moves-open]")) openMoves(movesDialog(), null);
  });
  // Closed, the focus goes back to the button that opened it.
  document.addEventListener("close", function (event) {
    if (!event.target.matches || !event.target.matches("[data-round-moves]")) return;
    var opener = document.querySelector("#table [data-round-moves-open]");
    if (opener && event.target.isConnected) opener.focus();
  }, true);

  document.addEventListener("htmx:wsBeforeMessage", function () {
    before = rectsBefore();
    movesWere = movesBefore();
  });

  // A frame that brought a new table or hand (not a chat line): laid out afresh, and the
  // choice of a tile forgotten (its buttons are new).
  var shown = {table: null, room: null};

  function refresh() {
    var table = document.getElementById("table"), room = document.getElementById("room");
    if (table === shown.table && room === shown.room) return false;
    shown = {table: table, room: room};
    layOut();
    var log = document.querySelector("#table .round-log");
    if (log) log.scrollTop = log.scrollHeight;  // the latest moves in sight
    chosen = null;
    light([]);
    return true;
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    if (refresh()) {
      slideIn(before);
      if (movesWere) openMoves(movesDialog(), movesWere);
    }
    before = null;
    movesWere = null;
  });
  document.addEventListener("DOMContentLoaded", refresh);
  // Resized or turned (a phone on its side): laid out again for the new screen.
  // Turned, the page shows the room from its top again (not when only the height changes:
  // a phone's address bar comes and goes as the person scrolls to the chat).
  var resizing = null, wide = window.innerWidth;
  function relay() {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      if (window.innerWidth !== wide) scrolledToRoom = false;
      wide = window.innerWidth;
      layOut();
      light(endsOf(chosen));
    }, 100);
  }
  window.addEventListener("resize", relay);
  window.addEventListener("orientationchange", relay);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", relay);
})();
