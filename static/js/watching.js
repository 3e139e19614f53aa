/* Who watches a game: the room's count of watchers (templates/games/_watching.html) is a
 * button that opens the list (#watching-list, fetched from the server each time it is
 * opened, and again when the count changes while it is open); a second press closes it.
 * The count is swapped by the game's socket, the list beside it stays. */
(function () {
  "use strict";

  function list() {
    return document.getElementById("watching-list");
  }

  function button() {
    return document.querySelector("#room-watching [data-watching-open]");
  }

  function fetchList(opener) {
    var target = list();
    if (!opener || !target) return;
    fetch(opener.dataset.url, {credentials: "same-origin", headers: {"HX-Request": "true"}})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response); })
      .then(function (markup) {
        // The server's own escaped markup (templates/games/_watchers.html).
        target.innerHTML = markup;
        target.hidden = false;
        var now = button();
        if (now) now.setAttribute("aria-expanded", "true");
      })
      .catch(function () { close(); });
  }

  function close() {
    var target = list();
    if (target) target.hidden = true;
    var opener = button();
    if (opener) opener.setAttribute("aria-expanded", "false");
  }

  document.addEventListener("click", function (event) {
    var opener = event.target.closest("#room-watching [data-watching-open]");
    if (!opener) return;
    if (opener.getAttribute("aria-expanded") === "true") close();
    else fetchList(opener);
  });

  // The count swapped (someone came or went): the open list follows it.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var target = list();
    if (!target || target.hidden) return;
    var opener = button();
    if (!opener) {
      close();
    } else if (opener.getAttribute("aria-expanded") !== "true") {
      opener.setAttribute("aria-expanded", "true");
      fetchList(opener);
    }
  });
})();
