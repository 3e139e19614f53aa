/* Boxes that scroll sideways ([data-scroll-hint], e.g. the score table on a phone): each
 * says on which side more is hidden, as data-more="left right", and the CSS fades that
 * edge (site.css).  Kept true as the box scrolls, the window resizes, a <details> opens,
 * and a frame or an htmx swap brings a new box. */
(function () {
  "use strict";

  function mark(box) {
    var more = [];
    if (box.scrollLeft > 1) more.push("left");
    if (box.scrollLeft + box.clientWidth < box.scrollWidth - 1) more.push("right");
    var value = more.join(" ");
    if ((box.dataset.more || "") !== value) {
      if (value) box.dataset.more = value; else delete box.dataset.more;
    }
  }

  function markAll() {
    document.querySelectorAll("[data-scroll-hint]").forEach(mark);
  }

  document.addEventListener("scroll", function (event) {
    if (event.target.matches && event.target.matches("[data-scroll-hint]")) mark(event.target);
  }, true);
  document.addEventListener("toggle", markAll, true);  // a <details> opened
  document.addEventListener("DOMContentLoaded", markAll);
  document.addEventListener("htmx:afterSettle", markAll);
  document.addEventListener("htmx:wsAfterMessage", markAll);
  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(markAll, 100);
  });
})();
