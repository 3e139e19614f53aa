/* Moments in the viewer's own time zone: every <time data-local datetime="..."> is written
 * by the server in the site's zone and rewritten here in the browser's (the bar on
 * leavers says until when, RULES.md 10; the end of a chat mute); data-local="time" gives
 * the time of day alone (a chat line's), and "short", "date", "shortdate", "daytime" the
 * other forms of games/templatetags/moments.py (the moderation log, a player's games,
 * the arenas).  Without JavaScript the site's time stays, its zone named. */
(function () {
  "use strict";
  var DATE_TIME = {day: "numeric", month: "long", hour: "2-digit", minute: "2-digit"};
  var TIME = {hour: "2-digit", minute: "2-digit"};
  var FORMS = {
    time: TIME,
    short: {day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit"},
    date: {day: "numeric", month: "long", year: "numeric"},
    shortdate: {day: "2-digit", month: "2-digit", year: "numeric"},
    daytime: DATE_TIME,
    datetime: DATE_TIME
  };
  var SELECTOR = "time[data-local]:not([data-localized])";
  function localizeOne(el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) return;
    var lang = document.documentElement.lang || undefined;
    var form = FORMS[el.dataset.local] || DATE_TIME;
    el.textContent = el.dataset.local === "time" ? when.toLocaleTimeString(lang, TIME)
      : form.hour ? when.toLocaleString(lang, form) : when.toLocaleDateString(lang, form);
    el.dataset.localized = "true";
  }
  function localize(root) {
    if (root.matches && root.matches(SELECTOR)) localizeOne(root);
    root.querySelectorAll(SELECTOR).forEach(localizeOne);
  }
  document.addEventListener("DOMContentLoaded", function () {
    localize(document);
    // Whatever a socket's frame or a swap brings later (a chat line, a notice) too.
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType === 1) localize(node);
        });
      });
    }).observe(document.body, {childList: true, subtree: true});
  });
})();
