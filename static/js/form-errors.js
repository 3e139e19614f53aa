/* A form sent back with errors: the first error is brought into view and its field
 * focused, so that on a phone it is not a screen or two below the top of the page. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var error = document.querySelector("main form .errorlist");
    if (!error) return;
    var holder = error.closest("fieldset, .check, .seconds, p, div") || error.parentNode;
    var field = holder.querySelector("input:not([type=hidden]), select, textarea");
    error.scrollIntoView({block: "center"});
    if (field) field.focus({preventScroll: true});
  });
})();
