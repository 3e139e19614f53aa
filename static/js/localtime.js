/* Moments in the viewer's own time zone: every <time data-local datetime="..."> is written
 * by the server in the site's zone and rewritten here in the browser's (the bar on
 * leavers says until when, RULES.md 10; the end of a chat mute); data-local="time" gives
 * the time of day alone (a chat line's).  Without JavaScript the site's time stays. */
(function () {
  "use strict";
  var DATE_TIME = {day: "numeric", month: "long", hour: "2-digit", minute: "2-digit"};
  var TIME = {hour: "2-digit", minute: "2-digit"};
  var SELECTOR = "time[data-local]:not([data-localized])";
  function localizeOne(el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) return;
    var lang = document.documentElement.lang || undefined;
    el.textContent = el.dataset.local === "time"
      ? when.toLocaleTimeString(lang, TIME) : when.toLocaleString(lang, DATE_TIME);
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
