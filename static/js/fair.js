/* The client seeds of the verifiable deal (RECORD.md, kozel-fair/1): every empty
 * [data-client-seed] field gets 16 random bytes of the browser's own, in hex.  The
 * player may change it; the server checks it, and makes one itself when none comes.
 * The lobby's join buttons are re-rendered whenever the lobby changes: they all share
 * one seed per page, so a seed the player typed survives the re-rendering. */
(function () {
  "use strict";

  function randomHex(bytes) {
    var values = new Uint8Array(bytes);
    window.crypto.getRandomValues(values);
    return Array.prototype.map.call(values, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  var joinSeed = randomHex(16);

  function fill() {
    document.querySelectorAll("input[data-client-seed]").forEach(function (field) {
      if (field.hasAttribute("data-join-seed")) {
        field.value = joinSeed;
      } else if (!field.value) {
        field.value = randomHex(16);
      }
    });
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[data-join-seed]")) {
      joinSeed = event.target.value;
    }
  });
  document.addEventListener("DOMContentLoaded", fill);
  document.addEventListener("htmx:oobAfterSwap", fill);
  document.addEventListener("htmx:afterSwap", fill);
})();
