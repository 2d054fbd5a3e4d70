// The page's side of the offline site: it registers the worker, shows what the device holds
// ("available offline", the build, the progress of a download), and answers a search from the
// build's search model when the page is the search page without results (served so offline, or by a
// static copy). The words it shows come from the page itself (data attributes, translated there).
(function () {
  "use strict";
  var html = document.documentElement;
  var state = document.getElementById("offline-state");      // the footer's, announced as it changes
  var badge = document.querySelector("header .offline-state");  // the header's, in a word or two

  var siteUrl = window.KBSite.url;

  function say(message) {
    if (!state) return;
    var m = message || {}, text;
    var ready = m.complete && !m.syncing && (!m.locale || m.locale === html.lang);  // kept in this page's language
    if (ready) text = state.getAttribute("data-ready") + " · " + state.getAttribute("data-build") + " " + m.build;
    else if (m.total && m.done < m.total) text = state.getAttribute("data-saving") + " " + m.done + " / " + m.total;
    else return;
    state.textContent = text;
    state.hidden = false;
    if (!badge) return;
    badge.textContent = ready ? badge.getAttribute("data-ready") : badge.getAttribute("data-saving") + " " +
      Math.floor(100 * m.done / m.total) + "%";
    badge.title = text;
    badge.classList.toggle("ready", Boolean(ready));
    badge.hidden = false;
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
  window.KBSearch.shared(shell.getAttribute("data-search-data")).then(function (engine) {
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

  function linkTo(text, url) {  // (not `link`: render's suggestion names a variable so)
    var a = el("a", "", text);
    a.href = siteUrl(url);
    return a;
  }

  function partText(p) {  // _answer.html's part_text
    var div = el("div", "text");
    div.lang = p.lang;
    div.appendChild(el("p", "", p.text));
    if (p.items.length) {
      var list = div.appendChild(el("ul", "items"));
      p.items.forEach(function (item) {
        var li = list.appendChild(el("li"));
        li.appendChild(el("strong", "", item[0]));
        li.appendChild(document.createTextNode(" " + item[1]));
      });
    }
    return div;
  }

  function answerCard(a) {  // _answer.html's answer_card, drawn from the browser's engine
    var card = el("section", "answer");
    card.setAttribute("aria-labelledby", "answer-title");
    var kicker = card.appendChild(el("p", "answer-kicker", shell.getAttribute("data-answer") + " · "));
    kicker.appendChild(linkTo(a.situation.name, a.situation.url));
    var h = card.appendChild(el("h2"));
    h.id = "answer-title";
    h.appendChild(linkTo((docs[a.ruling.doc] || a.ruling.doc) + " " + a.ruling.label, a.ruling.url));
    h.appendChild(document.createTextNode(" "));
    h.appendChild(el("span", "", a.ruling.title)).lang = a.ruling.lang;
    card.appendChild(partText(a.ruling));
    if (a.older) {
      var older = card.appendChild(el("div", "answer-part older")), head = older.appendChild(el("p", "answer-head"));
      head.appendChild(linkTo((docs[a.older.doc] || a.older.doc) + " " + a.older.label, a.older.url));
      head.appendChild(document.createTextNode(" "));
      head.appendChild(el("span", "badge", shell.getAttribute("data-replaced")));
      older.appendChild(partText(a.older));
    }
    if (a.beside) {  // folded when long, as the server's page folds it (the page says how long)
      var beside = card.appendChild(el("details", "answer-part beside"));
      beside.open = a.beside.text.length <= parseInt(shell.getAttribute("data-fold"), 10);
      beside.appendChild(el("summary", "answer-head", (docs[a.beside.doc] || a.beside.doc) + " " + a.beside.label));
      beside.appendChild(partText(a.beside));
      beside.appendChild(el("p", "source")).appendChild(linkTo((docs[a.beside.doc] || a.beside.doc) + " " + a.beside.label + " →", a.beside.url));
    }
    if (a.time) {
      var time = card.appendChild(el("div", "answer-part time"));
      time.appendChild(el("p", "answer-head", shell.getAttribute("data-time") + ": ")).appendChild(linkTo(a.time.title, a.time.url));
      time.appendChild(partText(a.time));
    }
    if (a.see.length) {
      var see = card.appendChild(el("p", "answer-see", shell.getAttribute("data-see") + ": "));
      a.see.forEach(function (s, i) {
        if (i) see.appendChild(document.createTextNode(" · "));
        see.appendChild(linkTo((docs[s.doc] || s.doc) + " " + s.label, s.url));
      });
    }
    return card;
  }

  function summaryLine(result) {  // the count, and the facets folded under it, as the server's page has them
    var line = el("details", "summary-line"), summary = line.appendChild(el("summary"));
    summary.appendChild(el("span", "count", result.total + " " + shell.getAttribute("data-results")));
    var byDoc = Object.keys(result.facets.doc || {});
    if (!byDoc.length) return line;
    summary.appendChild(document.createTextNode(" · " + shell.getAttribute("data-filter")));
    var nav = line.appendChild(el("nav", "facets")), list = nav.appendChild(el("ul"));
    nav.setAttribute("aria-label", shell.getAttribute("data-filter-by"));
    function facet(text, key, value) {
      var a = list.appendChild(el("li")).appendChild(el("a", "", text));
      a.href = siteUrl("/search") + "?q=" + encodeURIComponent(q) + "&" + key + "=" + encodeURIComponent(value);
    }
    byDoc.forEach(function (d) { facet((docs[d] || d) + " (" + result.facets.doc[d] + ")", "doc", d); });
    Object.keys(result.facets.lang || {}).forEach(function (l) { facet(l.toUpperCase() + " (" + result.facets.lang[l] + ")", "lang", l); });
    return line;
  }

  var replacedDocs = JSON.parse(shell.getAttribute("data-replaced-docs") || "[]"), inForce = shell.getAttribute("data-in-force");
  var relations = JSON.parse(shell.getAttribute("data-relations") || "{}");

  function relationBadge(relation) {  // _text.html's relation_badge
    var cut = relation.split("-in-"), word = relations[cut.length > 1 ? cut[0] : relation];
    return el("span", "badge " + relation, word ? word.replace("%(edition)s", cut[1] || "") : relation);
  }

  function parallelLine(p, inForceHere) {  // search.html's hit parallel line
    var line = el("p", "parallel" + (inForceHere ? " in-force" : ""));
    if (inForceHere) {
      line.appendChild(el("strong", "", shell.getAttribute("data-in-force-word") + ":"));
      line.appendChild(document.createTextNode(" "));
    }
    line.appendChild(linkTo("↔ " + (docs[p.doc] || p.doc) + " " + p.label, p.url));
    line.appendChild(document.createTextNode(" "));
    line.appendChild(relationBadge(p.relation));
    return line;
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
    if (result.answer) into.appendChild(answerCard(result.answer));
    var others = result.said.filter(function (s) { return !result.answer || s.id !== result.answer.situation.id; });
    if (others.length) {
      var said = el("p", "said", shell.getAttribute("data-said") + " ");
      others.forEach(function (s, i) {
        if (i) said.appendChild(document.createTextNode(" · "));
        said.appendChild(linkTo(s.name, s.url));
      });
      into.appendChild(said);
    }
    into.appendChild(summaryLine(result));
    if (!result.total) into.appendChild(el("p", "nothing", shell.getAttribute("data-nothing")));
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
      var replaced = replacedDocs.indexOf(h.doc) >= 0, parallel = h.parallel.slice();
      if (replaced) {  // search.html's: a replaced edition's hit so badged, its clause in force first
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("span", "badge replaced", shell.getAttribute("data-replaced")));
        parallel.sort(function (x, y) { return (y.doc === inForce) - (x.doc === inForce); });
      }
      li.appendChild(snippet);
      if (replaced && !parallel.some(function (p) { return p.doc === inForce; })) {
        var none = li.appendChild(el("p", "parallel in-force"));
        none.appendChild(el("strong", "", shell.getAttribute("data-in-force-word") + ":"));
        none.appendChild(document.createTextNode(" " + shell.getAttribute("data-not-in-force")));
      }
      parallel.forEach(function (p) { li.appendChild(parallelLine(p, replaced && p.doc === inForce)); });
      list.appendChild(li);
    });
    into.appendChild(list);
  }
})();
