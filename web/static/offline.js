// The page's side of the offline site: it registers the worker, shows what the device holds
// ("available offline", the build, the progress of a download), and answers a search from the
// build's search model when the page is the search page without results (served so offline, or by a
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
  var params = new URLSearchParams(location.search), q = params.get("q");
  if (!shell || !q || !window.KBSearch) return;
  var input = document.getElementById("q");
  if (input) input.value = q;
  var docs = JSON.parse((input && input.form.getAttribute("data-docs")) || "{}");  // ids → names, in this language
  window.KBSearch.load(shell.getAttribute("data-search-data")).then(function (engine) {
    var options = { ui: html.lang, limit: 20 };  // the filters the server's page reads, read alike
    ["doc", "lang", "kind"].forEach(function (k) { if (params.get(k)) options[k] = params.get(k); });
    if (params.get("page")) options.page = parseInt(params.get("page"), 10) || 0;
    var result;
    try {
      result = engine.search(q, options);
    } catch (e) {
      if (!(e instanceof window.KBSearch.QueryError)) throw e;
      return refuse(e.message);  // what the server says of the same query: too long, an unknown filter
    }
    if (result.jump) { location.replace(siteUrl(result.jump.url)); return; }
    render(shell, result);
  }).catch(function () { refuse(shell.getAttribute("data-unavailable")); });

  function refuse(message) {
    var p = el("p", "error", message);
    p.setAttribute("role", "alert");
    shell.appendChild(p);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  function render(into, result) {
    if (result.choices.length) {  // a number both editions have: which one
      var choices = el("div", "choices"), list = choices.appendChild(el("ul"));
      choices.insertBefore(el("p", "", shell.getAttribute("data-choose")), list);
      result.choices.forEach(function (c) {
        var a = el("a", "", (docs[c.doc] || c.doc) + " " + c.label + " — ");
        a.href = siteUrl(c.url);
        a.appendChild(el("span", "", c.title));
        list.appendChild(el("li")).appendChild(a);
      });
      into.appendChild(choices);
    }
    if (result.suggestion) {
      var suggest = el("p", "suggestion", shell.getAttribute("data-suggest") + " "), link = el("a", "", result.suggestion);
      link.href = siteUrl("/search") + "?q=" + encodeURIComponent(result.suggestion);
      suggest.appendChild(link);
      suggest.appendChild(document.createTextNode("?"));
      into.appendChild(suggest);
    }
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
