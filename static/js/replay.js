/* The replay's keys: \u2190 and \u2192 step back and on, as the Back and Next links do
 * (outside the move slider, which has the arrow keys to itself). */
(function () {
  "use strict";

  var STEPS = { ArrowLeft: "previous", ArrowRight: "next" };

  document.addEventListener("keyup", function (event) {
    var step = STEPS[event.key];
    if (!step || event.target.tagName === "INPUT") return;
    var link = document.querySelector('#replay [data-step="' + step + '"]');
    if (link) link.click();
  });
})();
