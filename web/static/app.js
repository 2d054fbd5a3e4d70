// Progressive enhancement: "/" focuses the search box; results appear as you type.
(function () {
  "use strict";
  var input = document.getElementById("q");
  if (!input) return;
  document.addEventListener("keydown", function (e) {
    var tag = (document.activeElement && document.activeElement.tagName) || "";
    if (e.key === "/" && tag !== "INPUT" && tag !== "TEXTAREA") { e.preventDefault(); input.focus(); input.select(); }
  });
  var box = document.createElement("ul");
  box.className = "live";
  box.setAttribute("role", "listbox");
  box.setAttribute("aria-label", input.getAttribute("placeholder") || "");
  input.form.appendChild(box);
  var timer = null, last = "";
  function text(el, s) { el.textContent = s; return el; }
  function show(data) {
    box.replaceChildren();
    (data.hits || []).slice(0, 6).forEach(function (h) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = h.url;
      text(a, h.doc + " " + h.label + " — " + h.title);
      li.appendChild(a);
      box.appendChild(li);
    });
  }
  input.addEventListener("input", function () {
    var q = input.value.trim();
    clearTimeout(timer);
    if (q.length < 3) { box.replaceChildren(); return; }
    timer = setTimeout(function () {
      if (q === last) return;
      last = q;
      fetch("/api/search?limit=6&q=" + encodeURIComponent(q) + "&ui=" + document.documentElement.lang)
        .then(function (r) { return r.ok ? r.json() : { hits: [] }; })
        .then(show)
        .catch(function () { box.replaceChildren(); });
    }, 200);
  });
})();

// The sticky header's height, for the clause a link lands on to stop just below it (it wraps on phones).
(function () {
  "use strict";
  var header = document.querySelector("header.top");
  if (!header) return;
  function measure() {
    document.documentElement.style.setProperty("--header", header.getBoundingClientRect().height + "px");
  }
  measure();
  window.addEventListener("resize", measure);
  if (location.hash) {
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView();
  }
})();
