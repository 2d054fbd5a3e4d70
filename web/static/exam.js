// The mock exam (issue 32), all in the browser: questions drawn from the build's (kb/exam.py,
// /study/exam.json) across the periods of the board and the kinds of material, one countdown for
// the whole exam, answered by choice or by typing a clause — read by the search engine's own
// number parser (search.js, numberQuery: "27 b 1 b" is 27B1b) —, graded at the end, by area. Its
// result is kept in the study data's store (study.js: checked there, exported and imported with
// the rest). Nothing is sent anywhere; data reaches the page through textContent only.
(function () {
  "use strict";
  var section = document.getElementById("exam"), words = document.getElementById("exam-words"), study = window.KBStudy;
  if (!section || !words || !study) return;
  var w = study.says(words), el = study.el, siteUrl = window.KBSite.url, lang = document.documentElement.lang;
  var PER = Number(section.getAttribute("data-seconds")) || 45, CHOICES = 4, WEAKEST = 3, LINKS = 5;
  var bank = null, parser = null, typedOff = false, sitting = null;
  var setup = section.querySelector(".exam-setup"), seat = section.querySelector(".exam-sitting");
  var result = section.querySelector(".exam-result");

  section.querySelector(".needs-script").hidden = true;
  pastExams();
  fetch(section.getAttribute("data-questions")).then(function (r) {
    if (!r.ok) throw new Error("HTTP " + r.status);
    return r.json();
  }).then(function (data) {
    bank = banked(data);
    setup.hidden = false;
  }).catch(function () {
    section.appendChild(el("p", "error", w("unavailable")));
  });

  function banked(data) {  // the questions by kind, then by period
    var byKind = {};
    data.kinds.forEach(function (k) { byKind[k] = {}; });
    data.questions.forEach(function (q) { (byKind[q.kind][q.period] = byKind[q.kind][q.period] || []).push(q); });
    return { kinds: data.kinds, shares: data.shares, periods: data.periods, targets: data.targets, byKind: byKind };
  }

  // ---------------------------------------------------------------- drawing an exam
  function quotas(n) {  // each kind's number of questions: its share of n, the largest remainders rounded up
    var kinds = bank.kinds, exact = kinds.map(function (k) { return n * (bank.shares[k] || 0); }), out = {}, left = n;
    kinds.forEach(function (k, i) { out[k] = Math.floor(exact[i]); left -= out[k]; });
    kinds.map(function (k, i) { return [exact[i] - out[k], i]; })
      .sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; })
      .slice(0, left).forEach(function (r) { out[kinds[r[1]]]++; });
    return out;
  }

  function shuffled(items) {
    var out = items.slice();
    for (var i = out.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1)), t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }

  // The periods come round in turn, one question at a time, across the kinds (a kind with none in
  // a period passes it on): twenty questions meet every period of the board. A situation is asked once.
  function draw(n) {
    var quota = quotas(n), periods = shuffled(bank.periods), turn = 0, taken = [], about = {};
    bank.kinds.forEach(function (kind) {
      var buckets = bank.byKind[kind], timeless = !!buckets[""];  // a definition has no period
      for (var k = 0; k < quota[kind]; k++) {
        var q = timeless ? pick(buckets[""], about) : null;
        for (var tries = 0; !q && !timeless && tries < periods.length; tries++) {
          q = pick(buckets[periods[turn++ % periods.length]], about);
        }
        if (!q) break;
        taken.push(q);
        if (q.about) about[q.about] = true;
      }
    });
    return shuffled(taken);
  }

  function pick(bucket, about) {  // a question of the bucket not asked yet about a situation asked
    var free = (bucket || []).filter(function (q) { return !q.used && !(q.about && about[q.about]); });
    var q = free.length ? free[Math.floor(Math.random() * free.length)] : null;
    if (q) q.used = true;
    return q;
  }

  function options(q) {  // the answer and three of its distractors, in a random order
    return shuffled([q.answer].concat(shuffled(q.distractors).slice(0, CHOICES - 1)));
  }

  // ---------------------------------------------------------------- sitting it
  setup.addEventListener("submit", function (e) {
    e.preventDefault();
    var n = Number(new FormData(setup).get("size"));
    Object.keys(bank.byKind).forEach(function (k) {
      Object.keys(bank.byKind[k]).forEach(function (p) { bank.byKind[k][p].forEach(function (q) { q.used = false; }); });
    });
    begin(draw(n));
  });

  function begin(questions) {
    var now = Date.now();
    sitting = { questions: questions, options: questions.map(options), answers: [], at: 0, started: now,
                limit: questions.length * PER, deadline: now + questions.length * PER * 1000, timer: null };
    readNumbers();
    setup.hidden = result.hidden = true;
    seat.hidden = false;
    sitting.timer = setInterval(tick, 250);
    tick();
    ask();
    seat.scrollIntoView();
  }

  function readNumbers() {  // the search engine, whose number parser reads a typed clause (the page's search box loads the same)
    var form = document.querySelector("form.search"), url = form && form.getAttribute("data-search-data");
    if (parser) return;
    if (!url || !window.KBSearch) typedOff = true;
    if (typedOff) return;
    parser = window.KBSearch.shared(url);
    parser.catch(function () {  // no search model here: answers by choice only
      parser = null;
      typedOff = true;
      if (sitting) seat.querySelector(".typed").hidden = true;
    });
  }

  function clock(seconds) { return Math.floor(seconds / 60) + ":" + ("0" + (seconds % 60)).slice(-2); }

  function tick() {
    var left = Math.max(0, Math.ceil((sitting.deadline - Date.now()) / 1000)), shown = seat.querySelector(".countdown");
    shown.textContent = clock(left);
    shown.setAttribute("aria-label", w("time-left") + " " + clock(left));
    shown.classList.toggle("short", left <= 60);
    if (!left) finish(true);
  }

  function ask() {
    var i = sitting.at, q = sitting.questions[i], typed = seat.querySelector(".typed");
    seat.querySelector(".exam-count").textContent = w("question", { n: i + 1, total: sitting.questions.length });
    seat.querySelector(".exam-kind").textContent = w("kind-" + q.kind) + (q.period ? " · " + w("period-" + q.period) : "");
    seat.querySelector(".prompt").textContent = w("prompt-" + q.kind);
    said(seat.querySelector(".question"), q);
    var group = seat.querySelector(".choices");
    group.replaceChildren();
    group.classList.toggle("long", q.kind === "norm" || q.kind === "definition");
    sitting.options[i].forEach(function (key) {
      var b = el("button", "choice");
      b.type = "button";
      b.appendChild(named(bank.targets[key]));
      b.addEventListener("click", function () { answer({ key: key }); });
      group.appendChild(b);
    });
    typed.hidden = typedOff || q.kind === "definition";
    typed.querySelector(".typed-label").textContent = w(q.kind === "norm" ? "typed-norm" : "typed-clause");
    typed.querySelector("input").value = "";
    seat.querySelector(".typed-error").hidden = true;
  }

  function said(holder, q) {  // the question in the reader's language, else in the one it is said in
    var by = q.ask[lang] !== undefined ? lang : Object.keys(q.ask)[0];
    holder.textContent = q.ask[by];
    holder.lang = by;
  }

  function named(t) {  // a target as an option or a link names it: "27B1(b)", "Norma 8 · Sequenza dei round"
    var span = el("span");
    if (t.form === "norm" || t.form === "appendix") {
      span.appendChild(document.createTextNode(w(t.form, { n: t.label })));
      if (t.title) span.appendChild(inLang(el("span", "option-title", " · " + t.title), t.lang));
    } else if (t.form === "paragraph") {
      var appendix = t.match[0] && t.match[0].indexOf("a:") === 0 ? t.match[0].slice(2) : null;
      span.textContent = (appendix ? w("appendix", { n: appendix }) : w("norm", { n: t.law })) + (t.label ? " §" + t.label : "");
      if (t.title) span.appendChild(inLang(el("span", "option-title", " · " + t.title), t.lang));
    } else {
      span.textContent = t.label;
      if (t.form === "term" || t.form === "entry") span.lang = t.lang;
    }
    return span;
  }

  function inLang(e, code) { e.lang = code; return e; }

  seat.querySelector(".typed").addEventListener("submit", function (e) {
    e.preventDefault();
    var text = seat.querySelector("#exam-typed").value.trim();
    if (!text) return;
    if (!parser) return answer({ typed: text, right: false });  // no engine to read it: a typed answer is not graded right
    var at = sitting.at;
    parser.then(function (engine) {
      if (!sitting || sitting.at !== at) return;
      var n = engine.query.numberQuery(text, engine.named);
      if (!n) {
        var problem = seat.querySelector(".typed-error");
        problem.textContent = w("not-a-number");
        problem.hidden = false;
        return;
      }
      answer({ typed: text, right: typedRight(sitting.questions[at], n) });
    }, function () { answer({ typed: text, right: false }); });
  });

  function rightKeys(q) { return [q.answer].concat(q.accepted); }

  function typedRight(q, n) {  // what the number names: a clause (27B1b), a norm by its Law's number, an appendix
    var meant = n.appendix ? ["a:" + n.article] : [n.clause, "n:" + n.article];
    return rightKeys(q).some(function (key) {
      return bank.targets[key].match.some(function (m) { return meant.indexOf(m) >= 0; });
    });
  }

  function answer(given) {
    var q = sitting.questions[sitting.at];
    if (given.key) given.right = rightKeys(q).indexOf(given.key) >= 0;
    sitting.answers[sitting.at] = given;
    next();
  }

  function next() {
    sitting.at++;
    if (sitting.at >= sitting.questions.length) finish(false);
    else ask();
  }

  seat.querySelector(".pass").addEventListener("click", next);
  seat.querySelector(".finish").addEventListener("click", function () { finish(false); });
  result.querySelector(".again").addEventListener("click", function () {
    result.hidden = true;
    setup.hidden = false;
    setup.scrollIntoView();
  });

  // ---------------------------------------------------------------- grading
  function finish(timeUp) {
    if (!sitting) return;
    clearInterval(sitting.timer);
    var done = sitting, took = Math.min(done.limit, Math.round((Date.now() - done.started) / 1000));
    sitting = null;
    var graded = done.questions.map(function (q, i) { return { q: q, given: done.answers[i] || null }; });
    var kept = keep(graded, done, took);
    seat.hidden = true;
    show(graded, took, done.limit, timeUp, kept);
    pastExams();
  }

  function keep(graded, done, took) {  // the result, into the study data's store; false if it has no room
    var data = study.load(), id = "exam-" + done.started.toString(36) + Math.floor(Math.random() * 1296).toString(36);
    data.exams[id] = { at: new Date(done.started).toISOString(), seconds: done.limit, took: took,
                       answers: graded.map(function (g) {
                         return { q: g.q.id, kind: g.q.kind, period: g.q.period, law: bank.targets[g.q.answer].law,
                                  given: givenLabel(g.given).slice(0, 200), right: !!(g.given && g.given.right) };
                       }) };
    return study.save(data);
  }

  function givenLabel(given) {
    if (!given) return "";
    return given.key ? named(bank.targets[given.key]).textContent : given.typed;
  }

  function show(graded, took, limit, timeUp, kept) {
    var right = graded.filter(function (g) { return g.given && g.given.right; }).length;
    result.querySelector(".score").textContent = w("score", { right: right, total: graded.length });
    result.querySelector(".took").textContent = w("took", { took: clock(took), limit: clock(limit) }) +
      (timeUp ? " " + w("time-up") : "") + (kept ? "" : " " + w("not-kept"));
    var periods = areas(graded, function (q) { return q.period; }, bank.periods, "period-");
    var kinds = areas(graded, function (q) { return q.kind; }, bank.kinds, "kind-");
    listAreas(result.querySelector(".by-period"), periods);
    listAreas(result.querySelector(".by-kind"), kinds);
    weakest(result.querySelector(".weakest"), periods.concat(kinds));
    review(result.querySelector(".review"), graded);
    result.hidden = false;
    result.querySelector("#result-h").focus();
  }

  function areas(graded, of, order, word) {  // [{name, right, total, missed: [questions], period?, kind?}] in the board's order
    var by = {};
    graded.forEach(function (g) {
      var id = of(g.q);
      if (!id) return;
      var a = by[id] = by[id] || { id: id, name: w(word + id), right: 0, total: 0, missed: [], period: word === "period-" };
      a.total++;
      if (g.given && g.given.right) a.right++;
      else a.missed.push(g.q);
    });
    return order.filter(function (id) { return by[id]; }).map(function (id) { return by[id]; });
  }

  function listAreas(list, found) {
    list.replaceChildren();
    found.forEach(function (a) {
      var li = el("li"), meter = el("meter");
      li.appendChild(el("span", "area-name", a.name));
      li.appendChild(el("span", "area-score", w("of", { right: a.right, total: a.total })));
      meter.min = 0;
      meter.max = a.total;
      meter.value = a.right;
      meter.low = a.total / 2;  // under half right shows as such
      meter.high = a.total * 0.8;
      meter.optimum = a.total;
      li.appendChild(meter);
      list.appendChild(li);
    });
  }

  function weakest(list, found) {  // the areas with most wrong, each to its Laws, its situations and the drills
    list.replaceChildren();
    var weak = found.filter(function (a) { return a.right < a.total; }).sort(function (x, y) {
      return x.right / x.total - y.right / y.total || y.total - x.total;
    }).slice(0, WEAKEST);
    if (!weak.length) list.appendChild(el("li", "meta", w("no-weak")));
    weak.forEach(function (a) {
      var li = el("li"), links = el("span", "area-links");
      li.appendChild(el("strong", "", a.name + " "));
      li.appendChild(el("span", "area-score", w("of", { right: a.right, total: a.total })));
      lawsOf(a.missed).forEach(function (t) { links.appendChild(link(named(t), lawUrl(t))); });
      if (a.period) links.appendChild(link(el("span", "", w("situations")), "/situations/" + a.id));
      links.appendChild(link(el("span", "", w("drills")), "/study#drills"));
      li.appendChild(links);
      list.appendChild(li);
    });
  }

  function lawsOf(questions) {  // the Laws (norms, terms) of the right answers, each once
    var seen = {}, out = [];
    questions.forEach(function (q) {
      var t = law(bank.targets[q.answer]), key = t.doc + "/" + t.unit;
      if (!seen[key] && out.length < LINKS) out.push(t);
      seen[key] = true;
    });
    return out;
  }

  function law(t) {  // a clause's Law, as a target of its own (a norm, an appendix, a term: itself)
    return t.form === "clause" ? { doc: t.doc, unit: t.unit, form: "law", label: w("law", { n: t.unit }) } : t;
  }

  function lawUrl(t) { return "/" + t.doc + "/" + t.unit; }

  function link(content, path) {
    var a = el("a");
    a.href = siteUrl(path);
    a.appendChild(content);
    return a;
  }

  function review(list, graded) {  // each question: what was given, the right clause with its text and link
    list.replaceChildren();
    var names = study.docNames();
    graded.forEach(function (g) {
      var ok = !!(g.given && g.given.right), li = el("li", ok ? "right" : "wrong"), fold = el("details");
      var summary = el("summary"), t = bank.targets[g.q.answer];
      fold.open = !ok;
      summary.appendChild(el("span", "mark", ok ? "✓ " : "✗ "));
      said(summary.appendChild(el("span")), g.q);
      fold.appendChild(summary);
      var yours = el("p", "yours", w("yours") + " ");
      yours.appendChild(el("span", ok ? "verdict right" : "verdict wrong", g.given ? givenLabel(g.given) : w("unanswered")));
      fold.appendChild(yours);
      fold.appendChild(clauseShown(w("right-answer"), t, names));
      if (g.q.accepted.length) fold.appendChild(alsoRight(g.q.accepted));
      g.q.shows.filter(function (k) { return bank.targets[k].form !== "entry"; })
        .forEach(function (k) { fold.appendChild(clauseShown("", bank.targets[k], names)); });
      var entries = g.q.shows.filter(function (k) { return bank.targets[k].form === "entry"; });
      if (entries.length) fold.appendChild(tableEntries(entries));
      li.appendChild(fold);
      list.appendChild(li);
    });
  }

  function clauseShown(heading, t, names) {  // "Right answer: Codice 2017 · 27B1(b)", linked, then its text
    var box = el("div", "shown");
    var head = el("p", "shown-head", heading ? heading + " " : "");
    head.appendChild(el("span", "meta edition", (names[t.doc] || t.doc) + " ·"));
    head.appendChild(document.createTextNode(" "));  // a line may break here, not inside the edition's name
    head.appendChild(link(named(t), t.url));
    box.appendChild(head);
    if (t.text) box.appendChild(textOf(t.text, t.lang));
    return box;
  }

  function textOf(text, code) {
    var block = inLang(el("div", "shown-text"), code);
    text.split("\n").forEach(function (line) { block.appendChild(el("p", "", line)); });
    return block;
  }

  function alsoRight(keys) {
    var p = el("p", "also", w("also-right") + " ");
    keys.forEach(function (k, i) {
      if (i) p.appendChild(document.createTextNode(", "));
      p.appendChild(link(named(bank.targets[k]), bank.targets[k].url));
    });
    return p;
  }

  function tableEntries(keys) {  // the time-reference table's entries for it, with their references as written (2007)
    var box = el("div", "shown");
    box.appendChild(el("p", "shown-head", w("table")));
    keys.forEach(function (k) {
      var t = bank.targets[k], p = inLang(el("p", "entry"), t.lang);
      p.appendChild(link(el("strong", "", t.label), t.url));
      p.appendChild(document.createTextNode(" " + t.text));
      box.appendChild(p);
    });
    return box;
  }

  // ---------------------------------------------------------------- the past exams on this device
  function pastExams() {
    var list = document.querySelector("#exam-history ul.history"), exams = study.load().exams;
    var ids = Object.keys(exams).sort(function (a, b) { return exams[b].at < exams[a].at ? -1 : 1; });
    list.replaceChildren();
    if (!ids.length) list.appendChild(el("li", "meta", w("no-history")));
    ids.forEach(function (id) {
      var e = exams[id], right = e.answers.filter(function (a) { return a.right; }).length;
      list.appendChild(el("li", "", w("history-item", { date: new Date(e.at).toLocaleString(lang), right: right,
                                                          total: e.answers.length })));
    });
  }
})();
