// The static copy's top page: on to the home in the reader's language — the one last read in this
// copy, else the first of the browser's languages that the copy has, else its first. Without
// script, the page's links to each language are the way in.
(function () {
  "use strict";
  var script = document.currentScript, languages = script.getAttribute("data-languages").split(" ");
  var kept = null;
  try { kept = localStorage.getItem("kb-language"); } catch (e) { /* storage refused: the browser's */ }
  var wanted = [kept].concat(navigator.languages || [navigator.language]).filter(Boolean).map(function (tag) {
    return tag.toLowerCase().split("-")[0];
  });
  var lang = wanted.filter(function (tag) { return languages.indexOf(tag) >= 0; })[0] || languages[0];
  location.replace(lang + "/index.html" + location.hash);
})();
