/* An arena's page: when the site seats this player (the page shows the table's
 * commitment, [data-arena-seat]), the browser makes its client seed (16 random bytes,
 * hex: RECORD.md kozel-fair/1) and sends it over the page's socket, with a chime and the
 * tab's title; the page goes to the game when it starts (the server sends the redirect,
 * static/js/kozel.js follows it).  The server decides everything. */
(function () {
  "use strict";

  var link = null;          // htmx's wrapper of the open socket
  var sent = {};            // tables whose seed this page has sent
  var baseTitle = document.title;

  function randomHex(bytes) {
    var values = new Uint8Array(bytes);
    window.crypto.getRandomValues(values);
    return Array.prototype.map.call(values, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function chime() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      var context = new Context();
      [[660, 0], [990, 0.13]].forEach(function (note) {
        var oscillator = context.createOscillator();
        var gain = context.createGain();
        var at = context.currentTime + 0.01 + note[1];
        oscillator.frequency.setValueAtTime(note[0], at);
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.45);
        oscillator.connect(gain);
        gain.connect(context.destination);
        oscillator.start(at);
        oscillator.stop(at + 0.5);
      });
    } catch (error) { /* no sound: the title says it */ }
  }

  function seatShown() {
    var seat = document.querySelector("[data-arena-seat]");
    var page = document.querySelector("[data-arena]");
    if (!seat || !page) {
      document.title = baseTitle;
      return;
    }
    var table = Number(seat.dataset.arenaSeat);
    if (sent[table] || !link) return;
    sent[table] = true;
    document.title = page.dataset.yourTable + " — " + baseTitle;
    chime();
    if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
    link.send(JSON.stringify({seed: randomHex(16), table: table}));
  }

  // The time to the start or the end, as h:mm:ss, by the server's clock (data-now).
  var offset = 0;
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var now = document.getElementById("arena-now");
    if (now && now.dataset.now && now.dataset.read !== now.dataset.now) {
      now.dataset.read = now.dataset.now;
      offset = Number(now.dataset.now) - Date.now();
    }
    document.querySelectorAll("[data-arena-deadline]").forEach(function (clock) {
      var left = Math.max(0, Math.ceil((Number(clock.dataset.arenaDeadline) - Date.now() - offset) / 1000));
      var hours = Math.floor(left / 3600), minutes = Math.floor(left / 60) % 60;
      clock.textContent = (hours ? hours + ":" + two(minutes) : String(minutes)) + ":" + two(left % 60);
    });
  }
  setInterval(tick, 500);
  document.addEventListener("htmx:oobAfterSwap", tick);
  document.addEventListener("DOMContentLoaded", tick);

  document.addEventListener("htmx:wsOpen", function (event) {
    link = event.detail.socketWrapper;
    seatShown();
  });
  document.addEventListener("htmx:oobAfterSwap", seatShown);

  // The viewer's own row of the standings, which are the same for every page.
  function markMine() {
    var page = document.querySelector("[data-arena]");
    if (!page || !page.dataset.me) return;
    document.querySelectorAll("table.standings tr[data-user]").forEach(function (row) {
      row.classList.toggle("mine", row.dataset.user === page.dataset.me);
    });
  }
  document.addEventListener("htmx:oobAfterSwap", markMine);
  document.addEventListener("DOMContentLoaded", markMine);
  document.addEventListener("DOMContentLoaded", seatShown);
})();
