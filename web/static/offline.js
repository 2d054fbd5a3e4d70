// The page's side of the offline site: it registers the worker, shows what the device holds
// ("available offline", the build, the progress of a download), and answers a search from the
// browser's index when the page is the search page without results (served so offline, or by a
// static copy). The words it shows come from the page itself (data attributes, translated there).
(function () {
  "use strict";
  var html = document.documentElement;
  var root = html.getAttribute("data-root");            // a static copy: "../" to its top, "" at the top
  var state = document.getElementById("offline-state");

  function siteUrl(path) {  // a site path ("/doc/unit#clause") as this copy links it
    if (root === null) return path;
    var hash = path.indexOf("#"), frag = hash >= 0 ? path.slice(hash) : "";
    var bare = (hash >= 0 ? path.slice(0, hash) : path).replace(/^\//, "");
    return root + (bare ? bare + ".html" : "index.html") + frag;
  }

  function say(message) {
    if (!state) return;
    var m = message || {}, text;
    if (m.complete && !m.syncing) text = state.getAttribute("data-ready") + " · " + state.getAttribute("data-build") + " " + m.build;
    else if (m.total) text = state.getAttribute("data-saving") + " " + m.done + " / " + m.total;
    else return;
    state.textContent = text;
    state.hidden = false;
  }

  if ("serviceWorker" in navigator && window.isSecureContext) {  // https, or this machine
    var worker = state ? state.getAttribute("data-worker") : null;
    if (worker) {
      navigator.serviceWorker.addEventListener("message", function (e) { say(e.data); });
      navigator.serviceWorker.register(worker).then(function () { return navigator.serviceWorker.ready; })
        .then(function (reg) {
          reg.active.postMessage({ type: "locale", locale: html.lang });
          reg.active.postMessage({ type: "state" });
        }).catch(function () { /* no worker (a private window, a file:// copy): the site still reads */ });
    }
  }

  // ---------------------------------------------------------------- search without the server
  var shell = document.querySelector("[data-search-shell]");
  var q = new URLSearchParams(location.search).get("q");
  if (!shell || !q || !window.KBSearch) return;
  var input = document.getElementById("q");
  if (input) input.value = q;
  var docs = JSON.parse((input && input.form.getAttribute("data-docs")) || "{}");  // ids → names, in this language
  window.KBSearch.load(shell.getAttribute("data-search-data")).then(function (engine) {
    var ui = html.lang, result = engine.search(q, ui, 20);
    if (result.jump) { location.replace(siteUrl(result.jump)); return; }
    render(shell, result);
  }).catch(function () {
    var p = document.createElement("p");
    p.className = "error";
    p.setAttribute("role", "alert");
    p.textContent = shell.getAttribute("data-unavailable");
    shell.appendChild(p);
  });

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  function render(into, result) {
    if (result.said.length) {
      var said = el("p", "said", shell.getAttribute("data-said") + " ");
      result.said.forEach(function (s, i) {
        if (i) said.appendChild(document.createTextNode(" · "));
        var a = el("a", "", s.name);
        a.href = siteUrl(s.url);
        said.appendChild(a);
      });
      into.appendChild(said);
    }
    into.appendChild(el("p", "count", result.total + " " + shell.getAttribute("data-results")));
    var list = el("ol", "hits");
    result.hits.forEach(function (h) {
      var li = el("li", "hit"), a = el("a", "hit-title");
      a.href = siteUrl(h.url);
      a.appendChild(el("span", "label", (docs[h.doc] || h.doc) + " " + h.label));
      a.appendChild(document.createTextNode(" "));
      var title = a.appendChild(el("span", "", h.title));
      title.lang = h.lang;
      var snippet = el("p", "snippet");
      snippet.lang = h.lang;
      h.snippet.forEach(function (part) {
        snippet.appendChild(part[1] ? el("mark", "", part[0]) : document.createTextNode(part[0]));
      });
      li.appendChild(a);
      li.appendChild(snippet);
      list.appendChild(li);
    });
    into.appendChild(list);
  }
})();
