// The site's addresses, as this copy links them: a server's paths, or a static copy's relative files
// (<html data-root="../">); offline.js and study.js link through it too.
window.KBSite = (function () {
  "use strict";
  var root = document.documentElement.getAttribute("data-root");
  function url(path) {  // a site path ("/doc/unit#clause") as this copy links it
    if (root === null) return path;
    var hash = path.indexOf("#"), frag = hash >= 0 ? path.slice(hash) : "";
    var bare = (hash >= 0 ? path.slice(0, hash) : path).replace(/^\//, "");
    return root + (bare ? bare + ".html" : "index.html") + frag;
  }
  if (root !== null) {  // the copy's top page goes on to the language last read here
    try { localStorage.setItem("kb-language", document.documentElement.lang); } catch (e) { /* storage refused */ }
  }
  return { url: url, copy: root !== null };
})();

// Progressive enhancement: "/" focuses the search box; suggestions appear as you type, as a
// WAI-ARIA combobox: ArrowDown/ArrowUp move through them, Enter opens one, Escape closes them. They
// come from the server's /api/search, or, offline, in a static copy or when the server does not
// answer, from the browser's own engine (search.js, the same search model), loaded on first need.
(function () {
  "use strict";
  var input = document.getElementById("q");
  if (!input) return;
  var here = document.currentScript ? document.currentScript.src : location.href;  // …/static/app.js
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
  function option(o, i) {
    var li = document.createElement("li"), a = document.createElement("a"), words = document.createElement("span");
    li.id = "q-option-" + i;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    if (o.situation) li.className = "situation";
    a.href = window.KBSite.url(o.url);
    a.tabIndex = -1;  // the input keeps the focus; the active option is aria-activedescendant
    a.appendChild(document.createElement("strong")).textContent = o.name;
    if (o.words) {
      a.appendChild(document.createTextNode(" — "));
      words.lang = o.lang;  // law text in its own language, whatever the interface's
      words.textContent = o.words;
      a.appendChild(words);
    }
    li.appendChild(a);
    return li;
  }
  function opening(text) {  // a few words of a clause (its "…" kept when they start mid-clause), so that 16B1 and 16C1 read apart
    var t = text.replace(/\s+/g, " ").trim();
    return t.length <= 70 ? t : t.slice(0, 70).replace(/\s+\S*$/, "") + "…";
  }
  function snippetText(s) {  // the server's snippet is escaped HTML with <mark>; the browser's, parts
    if (typeof s !== "string") return s.map(function (part) { return part[0]; }).join("");
    return new DOMParser().parseFromString(s, "text/html").body.textContent;
  }
  function choices(data) {  // the recognised situation (its ruling clause) first, then the clauses
    var out = [], name = function (d, label) { return (docs[d] || d) + " " + label; };
    if (data.jump) out.push({ url: data.jump.url, name: "→ " + name(data.jump.doc, data.jump.label || "") });
    if (data.answer) {
      var r = data.answer.ruling;
      out.push({ url: r.url, name: data.answer.situation.name + " → " + name(r.doc, r.label), situation: true });
    } else if (data.said && data.said.length) {
      out.push({ url: data.said[0].url, name: data.said[0].name, situation: true });
    }
    (data.hits || []).forEach(function (h) {
      out.push({ url: h.url, name: name(h.doc, h.label), words: opening(snippetText(h.snippet)), lang: h.lang });
    });
    return out.slice(0, 6);
  }
  function show(data) {
    box.replaceChildren.apply(box, choices(data).map(option));
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
  var local = null;  // the browser's engine, once loaded
  function scripts(names) {  // the engine's scripts beside this one (a search page has them already)
    return names.reduce(function (ready, name) {
      return ready.then(function () {
        return new Promise(function (done, fail) {
          var tag = document.createElement("script");
          tag.src = new URL(name, here).href;
          tag.onload = done;
          tag.onerror = fail;
          document.head.appendChild(tag);
        });
      });
    }, Promise.resolve());
  }
  function browserSearch(q) {
    if (!local) {
      local = (window.KBSearch ? Promise.resolve() : scripts(["stemmers.js", "search.js"])).then(function () {
        return window.KBSearch.shared(input.form.getAttribute("data-search-data"));
      });
      local.catch(function () { local = null; });  // a later keystroke tries again
    }
    return local.then(function (engine) { return engine.search(q, { ui: document.documentElement.lang, limit: 6 }); });
  }
  function ask(q) {
    if (window.KBSite.copy || navigator.onLine === false) return browserSearch(q);
    return fetch("/api/search?limit=6&q=" + encodeURIComponent(q) + "&ui=" + document.documentElement.lang)
      .then(function (r) {
        if (r.status >= 500) return browserSearch(q);  // a server that cannot answer; a 4xx is its answer
        return r.ok ? r.json() : { hits: [] };
      }, function () { return browserSearch(q); });  // no network
  }
  input.addEventListener("input", function () {
    var q = input.value.trim();
    clearTimeout(timer);
    if (q.length < 3) { last = ""; clear(); return; }
    timer = setTimeout(function () {
      if (q === last) return;
      last = q;
      ask(q).then(function (data) { if (q === last) show(data); }).catch(clear);
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

// A clause's control: copy its citation or its permalink (this copy's own address: a server, a static
// copy, the offline app), or hand both to the phone's share sheet. Without script it shows them to select.
(function () {
  "use strict";
  var words = document.getElementById("more-words");
  if (!words) return;
  function say(name) { return words.getAttribute("data-" + name) || ""; }
  function button(cls, text, act, done, failed) {  // done, failed: what the button says after (none: nothing)
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = text;
    function after(word) {
      if (!word) return;
      b.textContent = word;
      setTimeout(function () { b.textContent = text; }, 2000);
    }
    b.addEventListener("click", function () {
      Promise.resolve().then(act).then(function () { after(done); }, function () { after(failed); });
    });
    return b;
  }
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = document.createElement("textarea");  // plain http on a tournament's network
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    var done = document.execCommand("copy");
    area.remove();
    return done ? undefined : Promise.reject(new Error("copy"));
  }
  document.querySelectorAll("details.more[data-for]").forEach(function (more) {
    var line = more.querySelector("p.cite"), cite = more.querySelector(".cite-text").textContent;
    var link = function () { return more.querySelector("a.cite-link").href; };  // absolute, as the browser resolved it
    var tools = document.createElement("span");
    tools.className = "cite-tools";
    tools.appendChild(button("copy-cite", say("copy-cite"), function () { return copy(cite); }, say("copied"), say("not-copied")));
    tools.appendChild(button("copy-link", say("copy-link"), function () { return copy(link()); }, say("copied"), say("not-copied")));
    if (navigator.share) {  // the phone's share sheet says what became of it
      tools.appendChild(button("share", say("share"), function () { return navigator.share({ title: cite, url: link() }); }));
    }
    line.appendChild(tools);
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
