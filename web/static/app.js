// Progressive enhancement: "/" focuses the search box; suggestions appear as you type, as a
// WAI-ARIA combobox: ArrowDown/ArrowUp move through them, Enter opens one, Escape closes them.
(function () {
  "use strict";
  var input = document.getElementById("q");
  if (!input) return;
  var docs = JSON.parse(input.form.getAttribute("data-docs") || "{}");  // document ids → names, in this language
  document.addEventListener("keydown", function (e) {
    var tag = (document.activeElement && document.activeElement.tagName) || "";
    if (e.key === "/" && tag !== "INPUT" && tag !== "TEXTAREA") { e.preventDefault(); input.focus(); input.select(); }
  });
  var box = document.createElement("ul");
  box.id = "q-suggestions";
  box.className = "live";
  box.hidden = true;
  box.setAttribute("role", "listbox");
  if (input.labels && input.labels[0]) {
    input.labels[0].id = input.labels[0].id || "q-label";
    box.setAttribute("aria-labelledby", input.labels[0].id);
  }
  input.form.appendChild(box);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", box.id);
  input.setAttribute("aria-expanded", "false");
  var timer = null, last = "", active = -1;

  function options() { return box.querySelectorAll("[role=option]"); }
  function open(yes) {
    box.hidden = !(yes && options().length);
    input.setAttribute("aria-expanded", String(!box.hidden));
    if (box.hidden) activate(-1);
  }
  function activate(i) {
    var all = options();
    active = i;
    all.forEach(function (o, j) { o.setAttribute("aria-selected", String(j === i)); });
    if (i >= 0) input.setAttribute("aria-activedescendant", all[i].id);
    else input.removeAttribute("aria-activedescendant");
  }
  function option(h, i) {
    var li = document.createElement("li"), a = document.createElement("a"), title = document.createElement("span");
    li.id = "q-option-" + i;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    a.href = h.url;
    a.tabIndex = -1;  // the input keeps the focus; the active option is aria-activedescendant
    a.textContent = (docs[h.doc] || h.doc) + " " + h.label + " — ";
    title.lang = h.lang;  // law text in its own language, whatever the interface's
    title.textContent = h.title;
    a.appendChild(title);
    li.appendChild(a);
    return li;
  }
  function show(data) {
    box.replaceChildren.apply(box, (data.hits || []).slice(0, 6).map(option));
    open(document.activeElement === input);
  }
  function clear() { box.replaceChildren(); open(false); }

  input.addEventListener("keydown", function (e) {
    var n = options().length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!n) return;
      e.preventDefault();
      if (box.hidden) open(true);
      var step = e.key === "ArrowDown" ? 1 : -1;
      activate(active < 0 ? (step > 0 ? 0 : n - 1) : (active + step + n) % n);
    } else if (e.key === "Enter" && !box.hidden && active >= 0) {
      e.preventDefault();
      location.assign(options()[active].querySelector("a").href);
    } else if (e.key === "Escape" && !box.hidden) {
      e.preventDefault();
      open(false);
    }
  });
  function leaving(e) {  // a tap on a suggestion focuses it first: the list stays until it opens
    if (e.relatedTarget !== input && !box.contains(e.relatedTarget)) open(false);
  }
  input.addEventListener("blur", leaving);
  box.addEventListener("focusout", leaving);
  input.addEventListener("focus", function () { open(true); });
  input.addEventListener("input", function () {
    var q = input.value.trim();
    clearTimeout(timer);
    if (q.length < 3) { last = ""; clear(); return; }
    timer = setTimeout(function () {
      if (q === last) return;
      last = q;
      fetch("/api/search?limit=6&q=" + encodeURIComponent(q) + "&ui=" + document.documentElement.lang)
        .then(function (r) { return r.ok ? r.json() : { hits: [] }; })
        .then(show)
        .catch(clear);
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
  if (window.ResizeObserver) new ResizeObserver(measure).observe(header);  // it grows when the offline state shows
  function land() {  // a fold the link points at (a Law's changes) opens
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (!target) return;
    if (target.tagName === "DETAILS") target.open = true;
    target.scrollIntoView();
  }
  land();
  window.addEventListener("hashchange", land);
})();

// The compare page's Law picker goes straight to the other Law's compare page: this page's address
// with its Law number changed (so it also works in a static copy, whose pages are files such as
// compare/12.html); without script, or at an address it does not recognise, the server redirects.
(function () {
  "use strict";
  var form = document.querySelector("form.picker"), input = form && form.elements.n;
  if (!input) return;
  var number = new RegExp("(^|/)" + input.defaultValue + "(?=[^/]*$)");
  form.addEventListener("submit", function (e) {
    if (!form.checkValidity() || !number.test(location.pathname)) return;
    e.preventDefault();
    location.assign(location.pathname.replace(number, "$1" + input.value.trim()) + location.search);
  });
})();

// A printed Law shows the FIGB norms folded beside its clauses; the screen folds them again after.
(function () {
  "use strict";
  var opened = [];
  window.addEventListener("beforeprint", function () {
    opened = [].slice.call(document.querySelectorAll("details.norm:not([open])"));
    opened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
})();

// The compare page's switch: only the rows whose two texts differ (the others hidden, not removed).
(function () {
  "use strict";
  var button = document.querySelector("button.only-diff"), table = document.querySelector(".compare");
  if (!button || !table) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    var on = table.classList.toggle("only-diff");
    button.setAttribute("aria-pressed", on ? "true" : "false");
  });
})();

// The changes page's filters: one kind of change at a time, every Law that has it unfolded (press
// again for all, folded as they were).
(function () {
  "use strict";
  var buttons = document.querySelectorAll("button.kind");
  if (!buttons.length) return;
  var laws = [].slice.call(document.querySelectorAll("details.law-changes")), opened = null;
  function show(kind) {
    buttons.forEach(function (b) { b.setAttribute("aria-pressed", b.getAttribute("data-kind") === kind ? "true" : "false"); });
    document.querySelectorAll("ul.changes > li").forEach(function (li) {
      li.hidden = Boolean(kind) && li.getAttribute("data-kind") !== kind;
    });
    if (kind && !opened) opened = laws.filter(function (d) { return d.open; });
    laws.forEach(function (d) {
      d.hidden = !d.querySelector("li:not([hidden])");
      d.open = kind ? true : (opened || []).indexOf(d) >= 0;
    });
    if (!kind) opened = null;
    document.querySelectorAll("section.chapter").forEach(function (s) {
      s.hidden = !s.querySelector("details.law-changes:not([hidden])");
    });
  }
  buttons.forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () { show(b.getAttribute("aria-pressed") === "true" ? null : b.getAttribute("data-kind")); });
  });
})();
