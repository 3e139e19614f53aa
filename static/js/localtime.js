/* Moments in the viewer's own time zone: every <time data-local datetime="..."> is written
 * by the server in the site's zone and rewritten here in the browser's (the bar on
 * leavers says until when, RULES.md 10).  Without JavaScript the site's time stays. */
(function () {
  "use strict";
  function localize(root) {
    (root || document).querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      el.textContent = when.toLocaleString(document.documentElement.lang || undefined, {
        day: "numeric", month: "long", hour: "2-digit", minute: "2-digit"});
      el.dataset.localized = "true";
    });
  }
  document.addEventListener("DOMContentLoaded", function () { localize(); });
  document.addEventListener("htmx:afterSwap", function () { localize(); });
  document.addEventListener("htmx:oobAfterSwap", function () { localize(); });
})();
