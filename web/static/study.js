// Study mode (issue 16), all of it in the browser: drills over the build's cards scheduled by FSRS-6
// (web/static/fsrs.js, issue 32; the Leitner boxes it replaced are read as FSRS state), bookmarks
// and notes on clauses, read marks for the reading plan; kept in localStorage, exported and
// imported as files. Nothing is sent anywhere: the only request is for the cards.
// The words it shows come from the page (#study-words, translated there); data reaches the page
// through textContent only.
(function () {
  "use strict";
  var KEY = "kb-study", FORMAT = "bridge-laws-study", VERSION = 2, DAY = 24 * 3600 * 1000;
  var VERSIONS = [1, 2];  // a study file's: 1 held Leitner boxes, 2 FSRS state (both import)
  var FSRS = window.KBFsrs;  // on /study only: elsewhere the schedule is kept as it is, never read
  var scheduler = FSRS && new FSRS.Scheduler();
  var LEARNT = 21;  // days of stability (recall 90% after three weeks: Anki's "mature") for a card learnt
  var SAFE = /^[A-Za-z0-9._-]+$/;  // a document, unit or clause id: what may go into a link
  var words = document.getElementById("study-words");
  if (!words) return;
  var html = document.documentElement;

  var w = says(words);

  function says(holder) {  // the words of the interface an element holds: w(name, values), its %(name)s filled in
    return function (name, values) {
      return (holder.getAttribute("data-" + name) || "").replace(/%\((\w+)\)s/g, function (_, k) {
        return values && k in values ? String(values[k]) : "";
      });
    };
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  var siteUrl = window.KBSite.url;

  // ---------------------------------------------------------------- the stored study data
  // The store and a study file hold the same parts (the drills' schedule, the bookmarks and notes, the
  // read marks, the mock exams' results), checked entry by entry alike: a file is
  // imported whole or not at all; of the store, load() keeps the good entries and sets the others
  // aside (said on /study), so that nothing stored can stop a page.
  var NOTE_MAX = 100000, LABEL_MAX = 500, FILE_MAX = 10 * 1024 * 1024;
  var CARD = /^[a-z]+:[A-Za-z0-9._:-]{1,200}$/;  // a drill card's id: its deck, then the ids it asks of
  var PARTS = { schedule: scheduleEntry, clauses: clauseEntry, read: readEntry, exams: examEntry };
  var setAside = [];  // the damaged entries the last load() left out (a whole unreadable store: one)

  function empty() { return { schedule: {}, clauses: {}, read: {}, exams: {} }; }

  function load() {
    var data;
    try {
      data = JSON.parse(localStorage.getItem(KEY) || "{}");
    } catch (e) {
      data = null;
    }
    if (!isMap(data)) {
      setAside = [{ problem: "unreadable" }];
      return empty();
    }
    var sifted = sift(data);
    setAside = sifted.problems;
    return sifted.data;
  }

  function save(data) {  // false when the browser keeps nothing more (its storage is full, or off)
    try {
      localStorage.setItem(KEY, JSON.stringify(data));
      return true;
    } catch (e) { return false; }
  }

  function sift(data) {  // {data: the good entries, problems: [{part, n, key, problem}] for the others}
    var out = empty(), problems = [];
    Object.keys(PARTS).forEach(function (part) {
      var given = data[part];
      if (given === undefined) return;
      if (!isMap(given)) return problems.push({ part: part, n: 0, problem: "not-export" });
      Object.keys(given).forEach(function (key, i) {
        var kept = PARTS[part](key, given[key]);
        if (typeof kept === "string") problems.push({ part: part, n: i + 1, key: key, problem: kept });
        else out[part][key] = kept.entry;
      });
    });
    return { data: out, problems: problems };
  }

  // Each part's check of one entry: the entry as kept ({entry}), or the name of what is wrong.
  // A drill card's entry: its FSRS card (fsrs.js) and how often it was seen; or, as the Leitner
  // drills wrote it, {box, due, seen}, read as FSRS state where the scheduler is (fromLeitner:
  // the due date and the count kept, the box too, as `leitner`, until the card's next review).
  function scheduleEntry(id, e) {
    if (!CARD.test(id)) return "bad-card";
    if (!isMap(e) || !isWhole(e.seen, 0, 1e9) || !isNumber(e.due, -1e15, 1e15)) return "bad-schedule";
    if (e.box !== undefined) return leitnerEntry(e);
    if (!isFsrsCard(e) || (e.leitner !== undefined && !isWhole(e.leitner, 1, 5))) return "bad-schedule";
    var kept = scheduled(e, e.seen);
    if (e.leitner) kept.leitner = e.leitner;
    return { entry: kept };
  }

  function leitnerEntry(e) {
    if (!isWhole(e.box, 1, 5)) return "bad-schedule";
    if (!FSRS) return { entry: { box: e.box, due: e.due, seen: e.seen } };
    var kept = scheduled(FSRS.fromLeitner(e.box, e.due, scheduler), e.seen);
    kept.leitner = e.box;
    return { entry: kept };
  }

  function isFsrsCard(c) {
    var stepped = c.state === 2 ? c.step === null : (c.state === 1 || c.state === 3) && isWhole(c.step, 0, 100);
    return stepped && isNumber(c.stability, 0.001, 1e9) && isNumber(c.difficulty, 1, 10) &&
      isNumber(c.last_review, -1e15, 1e15);
  }

  function scheduled(card, seen) {  // a schedule entry: the card's FSRS fields and its count, nothing else
    return { state: card.state, step: card.step, stability: card.stability, difficulty: card.difficulty,
             due: card.due, last_review: card.last_review, seen: seen };
  }

  function clauseEntry(key, m) {
    if (!isMap(m)) return "bad-mark";
    if (![m.doc, m.unit, m.clause].every(isId) || key !== clauseKey(m.doc, m.unit, m.clause)) return "bad-clause";
    if (m.note !== undefined && typeof m.note !== "string") return "bad-mark";
    if (m.note && m.note.length > NOTE_MAX) return "long-note";
    if (!isText(m.label, LABEL_MAX) || (m.bookmark !== undefined && typeof m.bookmark !== "boolean")) return "bad-mark";
    if (m.at !== undefined && !isDate(m.at)) return "bad-date";
    var kept = { doc: m.doc, unit: m.unit, clause: m.clause, label: m.label || "", bookmark: !!m.bookmark, note: m.note || "" };
    if (m.at) kept.at = m.at;
    return { entry: kept };
  }

  function readEntry(key, at) {
    var ids = key.split("/");
    if (ids.length !== 2 || !ids.every(isId)) return "bad-law";
    return isDate(at) ? { entry: at } : "bad-date";
  }

  // a mock exam's result (web/static/exam.js): when, its time, and each question's answer
  var EXAM = /^exam-[a-z0-9]{1,24}$/, EXAM_QUESTIONS = 100, GIVEN_MAX = 200;

  function examEntry(id, e) {
    if (!EXAM.test(id)) return "bad-exam";
    if (!isMap(e) || !isDate(e.at) || !isWhole(e.seconds, 1, 86400) || !isWhole(e.took, 0, 86400)) return "bad-exam";
    if (!Array.isArray(e.answers) || !e.answers.length || e.answers.length > EXAM_QUESTIONS) return "bad-exam";
    var answers = e.answers.map(examAnswer);
    if (answers.indexOf(null) >= 0) return "bad-exam-answer";
    return { entry: { at: e.at, seconds: e.seconds, took: e.took, answers: answers } };
  }

  function examAnswer(a) {  // a question of it: which, its kind, period and Law, what was given, whether right
    if (!isMap(a) || typeof a.q !== "string" || !CARD.test(a.q) || !isId(a.kind) || typeof a.right !== "boolean") return null;
    if ((a.period !== "" && !isId(a.period)) || (a.law !== "" && !isId(a.law)) || !isText(a.given, GIVEN_MAX)) return null;
    return { q: a.q, kind: a.kind, period: a.period, law: a.law, given: a.given || "", right: a.right };
  }

  function isMap(v) { return !!v && typeof v === "object" && !Array.isArray(v); }
  function isId(s) { return typeof s === "string" && s.length <= 100 && SAFE.test(s); }
  function isText(s, max) { return s === undefined || (typeof s === "string" && s.length <= max); }
  function isDate(s) { return typeof s === "string" && s.length <= 40 && !isNaN(Date.parse(s)); }
  function isWhole(n, least, most) { return isNumber(n, least, most) && n % 1 === 0; }
  function isNumber(n, least, most) { return typeof n === "number" && isFinite(n) && n >= least && n <= most; }

  function clauseKey(doc, unit, clause) { return doc + "/" + unit + "#" + clause; }

  function clauseUrl(m) {  // a bookmark's permalink, made from its ids (never a stored address)
    if (![m.doc, m.unit, m.clause].every(function (s) { return SAFE.test(s || ""); })) return null;
    return "/" + m.doc + "/" + m.unit + (m.clause === m.unit ? "" : "#" + m.clause);
  }

  function download(name, type, text) {
    var a = el("a");
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  function docNames() {
    var form = document.querySelector("form.search");
    try { return JSON.parse((form && form.getAttribute("data-docs")) || "{}"); } catch (e) { return {}; }
  }

  // the store, for the mock exam's page (web/static/exam.js), which keeps its results in it
  window.KBStudy = { load: load, save: save, says: says, el: el, docNames: docNames };

  // ---------------------------------------------------------------- a unit page: its clauses
  var article = document.querySelector("article.clauses[data-doc]");
  if (article) clauseTools(article);

  function toggle(button, on) { button.setAttribute("aria-pressed", String(!!on)); }

  function clauseTools(article) {  // a bookmark and a note in each clause's folded control (the unit's at the top)
    var doc = article.getAttribute("data-doc"), unit = article.getAttribute("data-unit");
    var h1 = document.querySelector("main h1 .label"), unitLabel = h1 ? h1.textContent : unit;
    var controls = {};
    document.querySelectorAll("details.more[data-for]").forEach(function (d) { controls[d.getAttribute("data-for")] = d; });
    article.querySelectorAll("section.clause[id]").forEach(function (section) {
      var clause = section.id, more = controls[clause];
      if (!more) return;
      var head = section.querySelector(".permalink");
      var label = unitLabel + (head && clause !== unit ? " · " + head.textContent : "");
      var where = { doc: doc, unit: unit, clause: clause, label: label };
      var mark = load().clauses[clauseKey(doc, unit, clause)] || {};
      var bar = el("div", "clause-tools"), star = el("button", "bookmark", "☆ " + w("bookmark"));
      var pen = el("button", "note-toggle", "✎ " + w("note"));
      star.type = pen.type = "button";
      var note = el("textarea", "note-field");
      note.setAttribute("aria-label", w("note") + " " + label);
      note.placeholder = w("note-placeholder");
      note.maxLength = NOTE_MAX;  // what an import takes back
      note.value = mark.note || "";
      note.hidden = !mark.note;
      function marked(on) { toggle(star, on); more.classList.toggle("marked", !!on); }
      marked(mark.bookmark);
      toggle(pen, !note.hidden);
      star.addEventListener("click", function () {
        var on = star.getAttribute("aria-pressed") !== "true";
        update(clauseKey(doc, unit, clause), where, { bookmark: on });
        marked(on);
      });
      pen.addEventListener("click", function () {
        note.hidden = !note.hidden;
        toggle(pen, !note.hidden);
        more.open = false;
        if (!note.hidden) note.focus();
      });
      note.addEventListener("input", function () { update(clauseKey(doc, unit, clause), where, { note: note.value }); });
      bar.appendChild(star);
      bar.appendChild(pen);
      more.querySelector(".more-body").appendChild(bar);
      section.appendChild(note);
    });
    var read = document.querySelector(".read-mark");
    if (read) readButton(read, doc, unit);
  }

  function update(key, where, change) {  // a clause's bookmark or note; a clause with neither is dropped
    var data = load(), m = data.clauses[key] || where;
    Object.keys(change).forEach(function (k) { m[k] = change[k]; });
    m.at = new Date().toISOString();
    if (m.bookmark || (m.note && m.note.trim())) data.clauses[key] = m;
    else delete data.clauses[key];
    save(data);
  }

  function readButton(holder, doc, unit) {
    var button = el("button", "read-toggle"), key = doc + "/" + unit;
    button.type = "button";
    function show() {
      var on = !!load().read[key];
      toggle(button, on);
      button.textContent = on ? "✓ " + w("is-read") : w("mark-read");
    }
    button.addEventListener("click", function () {
      var data = load();
      if (data.read[key]) delete data.read[key];
      else data.read[key] = new Date().toISOString();
      save(data);
      show();
    });
    show();
    holder.appendChild(button);
    holder.hidden = false;
  }

  // ---------------------------------------------------------------- the /study page
  var drills = document.getElementById("drills");
  if (!drills) return;
  var hideNoScript = drills.querySelector(".needs-script");
  if (hideNoScript) hideNoScript.hidden = true;
  marksList();
  plan();
  dataTools();
  drillsUp(drills);

  // the bookmarks and notes, with their permalinks; exported as Markdown or JSON
  function marks() {
    var all = load().clauses;
    return Object.keys(all).sort().map(function (k) { return all[k]; })
      .filter(function (m) { return clauseUrl(m); });
  }

  function marksList() {
    var list = document.querySelector("ul.marks"), names = docNames(), found = marks();
    list.replaceChildren();
    if (!found.length) list.appendChild(el("li", "meta", w("no-marks")));
    found.forEach(function (m) {
      var li = el("li"), a = el("a", "", (names[m.doc] || m.doc) + " " + (m.label || m.clause));
      a.href = siteUrl(clauseUrl(m));
      if (m.bookmark) li.appendChild(el("span", "star", "★ "));
      li.appendChild(a);
      if (m.note) li.appendChild(el("p", "note-text", m.note));
      list.appendChild(li);
    });
    var exports = document.querySelector(".exports");
    exports.hidden = !found.length;
  }

  function permalink(m) { return new URL(siteUrl(clauseUrl(m)), location.href).href; }

  function asMarkdown(found) {
    var names = docNames();
    return "# " + document.getElementById("marks-h").textContent + "\n\n" + found.map(function (m) {
      var line = "- " + (m.bookmark ? "★ " : "") + "[" + (names[m.doc] || m.doc) + " " + (m.label || m.clause) + "](" + permalink(m) + ")";
      return line + (m.note ? "\n" + m.note.split("\n").map(function (l) { return "  > " + l; }).join("\n") : "");
    }).join("\n") + "\n";
  }

  document.querySelector(".export-md").addEventListener("click", function () {
    download("bridge-laws-notes.md", "text/markdown", asMarkdown(marks()));
  });
  document.querySelector(".export-marks").addEventListener("click", function () {
    var out = marks().map(function (m) {
      return { doc: m.doc, unit: m.unit, clause: m.clause, label: m.label || "", url: permalink(m),
               bookmark: !!m.bookmark, note: m.note || "" };
    });
    download("bridge-laws-notes.json", "application/json", JSON.stringify(out, null, 2));
  });

  // the reading plan: read marks on each Law, counted per chapter and in all
  function plan() {
    document.querySelectorAll("ul.plan > li[data-unit]").forEach(function (li) {
      var doc = li.getAttribute("data-doc"), unit = li.getAttribute("data-unit");
      var holder = el("span", "read-mark");
      li.appendChild(holder);
      readButton(holder, doc, unit);
      holder.firstChild.addEventListener("click", count);
    });
    count();
  }

  function count() {
    var read = load().read, total = 0, done = 0;
    document.querySelectorAll(".plan-group").forEach(function (g) {
      var items = g.querySelectorAll("li[data-unit]"), n = 0;
      items.forEach(function (li) {
        var on = !!read[li.getAttribute("data-doc") + "/" + li.getAttribute("data-unit")];
        li.classList.toggle("is-read", on);
        if (on) n++;
      });
      g.querySelector(".group-progress").textContent = w("read-count", { read: n, total: items.length });
      total += items.length;
      done += n;
    });
    document.querySelector(".plan-progress").textContent = w("read-count", { read: done, total: total });
  }

  // export and import of everything
  function dataTools() {
    var status = document.querySelector(".data-status");
    document.querySelector(".data-tools").hidden = false;
    if (setAside.length) tell(status, damaged(), true);
    document.querySelector(".export-all").addEventListener("click", function () {
      var data = load();
      download("bridge-laws-study.json", "application/json", JSON.stringify({
        format: FORMAT, version: VERSION, exported: new Date().toISOString(),
        schedule: data.schedule, clauses: data.clauses, read: data.read, exams: data.exams }, null, 2));
    });
    document.querySelector(".import input[type=file]").addEventListener("change", function (e) {
      var file = e.target.files[0];
      e.target.value = "";
      if (!file) return;
      if (file.size > FILE_MAX) return tell(status, w("too-large"), true);
      file.text().then(function (text) {
        var got = readExport(text);
        if (got.data && !merge(got.data)) got.message = w("storage-full");
        if (got.message) return tell(status, got.message, true);
        tell(status, w("imported"), false);
        marksList();
        refreshPlan();
        deckProgress();
      }, function () { tell(status, w("not-export"), true); });
    });
  }

  function tell(status, message, wrong) {
    status.textContent = message;
    status.classList.toggle("error", wrong);
  }

  function damaged() {  // what load() set aside of this device's store, the first named
    var first = setAside[0];
    if (first.problem === "unreadable") return w("store-unreadable");
    var said = w("store-damaged", { n: setAside.length }), entry = first.key === undefined ? "" : where(first);
    return entry ? said + " " + entry.charAt(0).toUpperCase() + entry.slice(1) + ": " + w(first.problem) + "." : said;
  }

  function readExport(text) {  // {data} of a study file, every entry good; else {message} naming what is not
    var got;
    try {
      got = JSON.parse(text);
    } catch (e) { return { message: w("not-json") }; }
    if (!isMap(got) || got.format !== FORMAT || VERSIONS.indexOf(got.version) < 0) return { message: w("not-export") };
    var sifted = sift(got), first = sifted.problems[0];
    if (!first) return { data: sifted.data };
    if (first.problem === "not-export") return { message: w("not-export") };
    var message = w("refused", { where: where(first), problem: w(first.problem) });
    var more = sifted.problems.length - 1;
    return { message: more ? message + " " + w("more-problems", { n: more }) : message };
  }

  function where(p) {  // "entry 3 of the bookmarks and notes (x/y#z)"
    var key = p.key.length > 40 ? p.key.slice(0, 40) + "…" : p.key;
    return w("entry-" + p.part, { n: p.n, key: key });
  }

  function merge(incoming) {  // false, and nothing changed, if it cannot be kept
    var data = load();
    Object.keys(PARTS).forEach(function (part) {
      Object.keys(incoming[part]).forEach(function (k) { data[part][k] = incoming[part][k]; });
    });
    return save(data);
  }

  function refreshPlan() {
    document.querySelectorAll("ul.plan > li[data-unit] > .read-mark").forEach(function (h) { h.remove(); });
    plan();
  }

  // ---------------------------------------------------------------- drills
  var deck = null, cards = {}, current = null, previous = null;

  function drillsUp(section) {
    var picker = section.querySelector(".decks");
    if (!FSRS) return section.appendChild(el("p", "error", w("unavailable")));  // its scheduler did not load
    fetch(section.getAttribute("data-cards")).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (data) {
      cards = forReader(data.decks || {});
      picker.hidden = false;
      picker.querySelectorAll("button.deck").forEach(function (b) {
        b.addEventListener("click", function () { pick(b.getAttribute("data-deck")); });
      });
      deckProgress();
      wire(section);
    }).catch(function () {
      section.appendChild(el("p", "error", w("unavailable")));
    });
  }

  function forReader(decks) {  // a situation in the reader's language (all of them if none is)
    var mine = (decks.situations || []).filter(function (c) { return c.lang === html.lang; });
    if (mine.length) decks.situations = mine;
    return decks;
  }

  function stats(name, schedule) {
    var list = cards[name] || [], now = Date.now(), s = { seen: 0, due: 0, learnt: 0, total: list.length };
    list.forEach(function (c) {
      var e = schedule[c.id];
      if (!e) return;
      s.seen++;
      if (e.due <= now) s.due++;
      if (e.state === FSRS.State.Review && e.stability >= LEARNT) s.learnt++;
    });
    return s;
  }

  function deckProgress() {
    var schedule = load().schedule;
    document.querySelectorAll("button.deck").forEach(function (b) {
      b.querySelector(".deck-progress").textContent = w("progress", stats(b.getAttribute("data-deck"), schedule));
    });
    if (deck) drills.querySelector(".drill-progress").textContent = w("progress", stats(deck, schedule));
  }

  function pick(name) {
    deck = name;
    previous = null;
    drills.querySelectorAll("button.deck").forEach(function (b) { toggle(b, b.getAttribute("data-deck") === name); });
    drills.querySelector(".drill").hidden = false;
    next();
  }

  function choose(name, schedule) {  // the longest-due card, else a new one, else the one just seen if due
    var list = cards[name] || [], now = Date.now(), due = null, fresh = null;
    list.forEach(function (c) {
      var e = schedule[c.id];
      if (!e) { if (!fresh) fresh = c; return; }
      if (e.due <= now && c !== previous && (!due || e.due < schedule[due.id].due)) due = c;
    });
    if (due || fresh) return due || fresh;
    return previous && schedule[previous.id] && schedule[previous.id].due <= now ? previous : null;
  }

  function next() {
    var box = drills.querySelector(".drill"), schedule = load().schedule;
    current = choose(deck, schedule);
    deckProgress();
    ["choices", "answer", "grade", "verdict", "free"].forEach(function (c) { box.querySelector("." + c).hidden = true; });
    box.querySelector(".choices").replaceChildren();
    var q = box.querySelector(".question"), prompt = box.querySelector(".prompt"), show = box.querySelector(".show");
    if (!current) {
      prompt.textContent = w("done");
      q.textContent = "";
      show.hidden = true;
      return;
    }
    var picked = drills.querySelector("button.deck[aria-pressed=true]");
    prompt.textContent = picked.getAttribute("data-prompt");
    q.textContent = deck === "titles" ? (docNames()[current.id.split(":")[1]] || "") + " · " + current.question : current.question;
    if (deck === "titles") q.removeAttribute("lang");
    else q.lang = current.lang;
    show.hidden = false;
    if (deck === "situations" && current.ref) choices(box, current);
  }

  function lawOf(ref) { return (String(ref).match(/^\d+/) || [""])[0]; }

  function choices(box, card) {  // the clause that rules it and three of other Laws, in a random order
    var others = {}, pool = (cards.situations || []).filter(function (c) {
      return c.ref && lawOf(c.ref) !== lawOf(card.ref);
    });
    for (var tries = 0; Object.keys(others).length < 3 && tries < 200; tries++) {
      var c = pool[Math.floor(Math.random() * pool.length)];
      if (c && !Object.keys(others).some(function (r) { return lawOf(r) === lawOf(c.ref); })) others[c.ref] = true;
    }
    var refs = Object.keys(others).concat([card.ref]).sort(function () { return Math.random() - 0.5; });
    var group = box.querySelector(".choices");
    refs.forEach(function (ref) {
      var b = el("button", "choice", ref);
      b.type = "button";
      b.addEventListener("click", function () { judge(ref === card.ref, b); });
      group.appendChild(b);
    });
    group.hidden = false;
    box.querySelector(".free").hidden = false;
  }

  function same(typed, ref) {  // "27 b 1 (b)" is 27B1(b); a Law's number alone is its Law
    var norm = function (s) { return String(s).toLowerCase().replace(/[^0-9a-z]/g, ""); };
    return !!typed.trim() && (norm(typed) === norm(ref) || norm(typed) === lawOf(ref));
  }

  function judge(right, button) {
    var verdict = drills.querySelector(".verdict");
    verdict.textContent = right ? w("right") : w("wrong");
    verdict.className = "verdict " + (right ? "right" : "wrong");
    verdict.hidden = false;
    drills.querySelectorAll(".choice").forEach(function (b) {
      b.disabled = true;
      if (b.textContent === current.ref) b.classList.add("right");
    });
    if (button && !right) button.classList.add("wrong");
    reveal();
  }

  function reveal() {
    var box = drills.querySelector(".drill"), text = box.querySelector(".answer-text"), link = box.querySelector(".answer-link");
    text.replaceChildren(el("strong", "", w("answer") + " "));
    var said = text.appendChild(el("span", "", current.answer));
    said.lang = current.lang;
    var a = el("a", "", current.ref ? current.ref : w("open"));
    a.href = siteUrl(current.url);
    link.replaceChildren(a);
    box.querySelector(".show").hidden = true;
    box.querySelector(".answer").hidden = false;
    intervals(box);
    box.querySelector(".grade").hidden = false;
    box.querySelector(".rate[data-rating='3']").focus();  // Good, as Anki's space bar
  }

  // ---------------------------------------------------------------- the four ratings (FSRS)
  function cardNow(schedule) {  // the current card's FSRS card (a new one if never seen) and its count
    var e = schedule[current.id];
    return e ? { card: e, seen: e.seen } : { card: FSRS.newCard(), seen: 0 };
  }

  function intervals(box) {  // each rating's button says when that rating brings the card back
    var now = Date.now(), was = cardNow(load().schedule);
    var after = scheduler.preview(was.card, now, FSRS.draw(current.id, was.seen + 1));
    box.querySelectorAll(".rate").forEach(function (b) {
      b.querySelector(".rate-interval").textContent = span(after[+b.getAttribute("data-rating") - 1].due - now);
    });
  }

  function span(ms) {  // "10 min", "5 d", "1.5 months" in the reader's language (months and years from 1.5: plural)
    var minutes = ms / 60000, days = ms / DAY;
    if (minutes < 60) return w("in-minutes", { n: number(minutes) });
    if (days < 1) return w("in-hours", { n: number(minutes / 60) });
    if (days < 45) return w("in-days", { n: number(days) });
    if (days < 1.5 * 365) return w("in-months", { n: number(days / 30) });
    return w("in-years", { n: number(days / 365) });
  }

  function number(x) { return new Intl.NumberFormat(html.lang, { maximumFractionDigits: 1 }).format(x); }

  function grade(rating) {
    var data = load(), was = cardNow(data.schedule), seen = was.seen + 1;
    var card = scheduler.review(was.card, rating, Date.now(), FSRS.draw(current.id, seen));
    data.schedule[current.id] = scheduled(card, seen);
    save(data);
    previous = current;
    next();
  }

  function wire(section) {
    section.querySelector(".show").textContent = w("show");
    section.querySelector(".check").textContent = w("check");
    section.querySelector(".free-label").textContent = w("free");
    section.querySelector(".show").addEventListener("click", reveal);
    section.querySelectorAll(".rate").forEach(function (b) {
      b.addEventListener("click", function () { grade(+b.getAttribute("data-rating")); });
    });
    section.querySelector(".free").addEventListener("submit", function (e) {
      e.preventDefault();
      var input = section.querySelector("#free-answer");
      judge(same(input.value, current.ref));
      input.value = "";
    });
  }
})();
