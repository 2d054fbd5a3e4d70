// Search without a server: the build's search model (kb/search/model.py), read and searched as the
// server's engine reads and searches it. Each section below follows one Python module of kb/search
// function for function (the names are the Python names in camelCase): model, analysis (with the
// Snowball stemmers of stemmers.js), query, scoring, phrasebook, told, answer, bids, ranking, numbers,
// snippets, engine. tests/test_one_engine.py runs this file in Node on every judged query and
// holds its results to the server's, query by query.
//
// KBSearch.load(url) → a promise of an engine; engine.search(q, {ui, doc, lang, kind, limit, page})
// → {query, total, hits: [{doc, unit, clause, kind, title, lang, url, score, label, parallel,
// snippet: [[text, marked?]...]}], suggestion, jump, choices, facets, page, limit, said, answer}.
(function (root) {
  "use strict";
  var Stemmers = root.KBStemmers || (typeof require === "function" ? require("./stemmers.js") : null);

  // ================================================================ model.py
  var FORMAT = 2, MAGIC = "KBSEARCH", UNIT_LEVEL = "*", PREFIX = 48;  // magic, format, header's length, SHA-256
  var DTYPES = { u1: Uint8Array, u2: Uint16Array, u4: Uint32Array };

  function ModelError(message) { this.name = "ModelError"; this.message = message; }
  ModelError.prototype = Object.create(Error.prototype);
  function QueryError(message) { this.name = "QueryError"; this.message = message; }
  QueryError.prototype = Object.create(Error.prototype);

  function parse(buffer) {  // model.parse, but for the digest: `verified` checks it where the page can
    var bytes = new Uint8Array(buffer), view = new DataView(buffer);
    if (bytes.length < PREFIX || String.fromCharCode.apply(null, bytes.subarray(0, 8)) !== MAGIC) {
      throw new ModelError("not a search model");
    }
    var version = view.getUint32(8, true), size = view.getUint32(12, true);
    if (version !== FORMAT) throw new ModelError("search model of format " + version + ", this page reads " + FORMAT);
    var header, base = PREFIX + size + ((8 - (PREFIX + size) % 8) % 8), arrays = {};
    try {
      header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX, PREFIX + size)));
    } catch (e) {
      throw new ModelError("damaged search model (its header)");
    }
    Object.keys(header.arrays).forEach(function (name) {
      var d = header.arrays[name], type = DTYPES[d[0]];
      if (!type || base + d[1] + d[2] * type.BYTES_PER_ELEMENT > buffer.byteLength) {
        throw new ModelError("damaged search model (" + name + ")");
      }
      arrays[name] = new type(buffer, base + d[1], d[2]);
    });
    return new Model(header, arrays);
  }

  function verified(buffer) {  // a promise of the buffer, once its SHA-256 is the one it says
    var scope = typeof globalThis !== "undefined" ? globalThis : root, subtle = scope.crypto && scope.crypto.subtle;
    if (!subtle || buffer.byteLength < PREFIX) return Promise.resolve(buffer);  // an insecure page has no digest
    return subtle.digest("SHA-256", buffer.slice(PREFIX)).then(function (digest) {
      var said = new Uint8Array(buffer, PREFIX - 32, 32), got = new Uint8Array(digest);
      for (var i = 0; i < 32; i++) if (said[i] !== got[i]) throw new ModelError("damaged search model (its digest)");
      return buffer;
    });
  }

  function tuningOf(saved) {  // a name the model lacks is an error, never undefined (NaN downstream)
    return new Proxy(Object.freeze(saved), {
      get: function (t, name) {
        if (!(name in t)) throw new ModelError("the model's tuning has no " + String(name));
        return t[name];
      },
    });
  }

  function Model(h, a) {
    this.header = h;
    this.arrays = a;
    this.tuning = tuningOf(h.tuning);
    this.build = h.build;
    this.langs = h.langs;
    this.documents = h.docs;
    this.units = h.units.map(function (u) { return [h.docs[u[0]].id, u[1]]; });
    this.unitKind = h.units.map(function (u) { return u[2]; });
    this.unitTitle = h.units.map(function (u) { return u[3]; });
    this.clauseNames = h.clause_names;
    this.rowUnit = a.row_unit;
    this.rowClause = a.row_clause;
    this.docCount = a.row_unit.length;
    this.fields = fieldsOf(h, a);
    this.entries = h.phrasebook.entries.map(function (e) { return entryOf(e, h.docs); });
    this.books = h.phrasebook.books.map(function (b, i) { return new Book(b, a, i); });
    this.cards = cardsOf(h.cards, this);
  }

  function fieldsOf(h, a) {
    var out = {};
    h.fields.forEach(function (f) {
      var codes = a[f.name + ".lengths"], lengths = new Float64Array(codes.length);
      for (var i = 0; i < codes.length; i++) lengths[i] = codes[i] ? h.length_table[codes[i]] : NaN;
      var idf = new Map();
      Object.keys(f.idf).forEach(function (df) { idf.set(+df, f.idf[df]); });
      out[f.name] = { name: f.name, terms: f.terms, number: indexOf(f.terms), offsets: a[f.name + ".offsets"],
                      docs: a[f.name + ".docs"], tf: a[f.name + ".tf"], lengths: lengths, average: f.average, idf: idf };
    });
    return out;
  }

  function indexOf(items) {
    var m = new Map();
    for (var i = 0; i < items.length; i++) m.set(items[i], i);
    return m;
  }

  function entryOf(e, docs) {
    return { id: e.id, title: e.title, names: e.names, url: e.url, otherGame: e.other_game,
             period: e.period, actors: e.actors, acts: e.acts,
             targets: e.targets.map(function (t) {
               return { doc: docs[t[0]].id, unit: t[1], clause: t[2], row: t[3], unitRow: t[4], leads: !!t[5] };
             }) };
  }

  function entryName(entry, lang) {
    var names = entry.names, keys = Object.keys(names);
    if (lang && Object.prototype.hasOwnProperty.call(names, lang)) return names[lang];
    return keys.length ? names[keys[0]] : entry.id;
  }

  function Book(b, a, i) {  // model.Book: its idf, weights and entries derived as the server derives them
    this.lang = b.lang;
    this.otherGame = b.other_game;
    this.start = b.start;
    this.stems = b.stems;
    this.number = indexOf(b.stems);
    this.offsets = a["book" + i + ".offsets"];
    this.phrases = a["book" + i + ".phrases"];
    this.entryOf = a["book" + i + ".entry_of"];
    var n = this.stems.length, s, j, idf = new Float64Array(n), weights = new Float64Array(this.entryOf.length);
    for (s = 0; s < n; s++) idf[s] = b.idf[this.offsets[s + 1] - this.offsets[s]];
    this.idf = idf;
    var top = -Infinity;
    for (s = 0; s < n; s++) if (idf[s] > top) top = idf[s];
    this.unknownIdf = n ? top : 1.0;
    for (s = 0; s < n; s++) for (j = this.offsets[s]; j < this.offsets[s + 1]; j++) weights[this.phrases[j]] += idf[s];
    this.weights = weights;
    var uOffsets = new Uint32Array(n + 1), uEntries = [];
    for (s = 0; s < n; s++) {  // per stem, the entries some phrase of which says it (ascending within a stem)
      var last = -1;
      for (j = this.offsets[s]; j < this.offsets[s + 1]; j++) {
        var e = this.entryOf[this.phrases[j]];
        if (e !== last) { uEntries.push(e); last = e; }
      }
      uOffsets[s + 1] = uEntries.length;
    }
    this.usingOffsets = uOffsets;
    this.usingEntries = Uint32Array.from(uEntries);
  }

  function cardsOf(cards, model) {  // per unit: its clauses' rows, in order
    var byUnit = [];
    for (var row = 0; row < cards.length; row++) {
      if (cards[row][0] === null) continue;
      var u = model.rowUnit[row];
      (byUnit[u] = byUnit[u] || []).push(row);
    }
    return byUnit;
  }

  // ================================================================ analysis.py
  function Analysis(words) {
    this.wordRe = new RegExp(charClass(words.word) + "+", "gu");
    this.combining = new RegExp(charClass(words.combining), "gu");
    this.control = new RegExp(charClass(words.control), "gu");  // what the server's Unicode calls "C…"
    this.digits = new RegExp("^" + charClass(words.digit) + "+$", "u");  // str.isdigit
    this.accents = new Map();
    var self = this;
    Object.keys(words.accents).forEach(function (cp) { self.accents.set(String.fromCharCode(+cp), words.accents[cp]); });
    this.sharedStop = new Set(words.shared_stop);
    this.stop = {};
    Object.keys(words.stop).forEach(function (l) { self.stop[l] = new Set(words.stop[l]); });
    this.numbers = {};
    Object.keys(words.numbers).forEach(function (l) { self.numbers[l] = words.numbers[l]; });
    this.cache = {};
    this.letters = new Map();
  }

  function charClass(ranges) {
    return "[" + ranges.map(function (r) {
      return r[0] === r[1] ? cp(r[0]) : cp(r[0]) + "-" + cp(r[1]);
    }).join("") + "]";
  }
  function cp(n) { return "\\u{" + n.toString(16) + "}"; }

  Analysis.prototype.isDigits = function (word) { return this.digits.test(word); };

  // What Python's case-insensitive patterns read: its re.I takes the Turkish dotless ı and dotted İ
  // for i, JavaScript's does not; one letter for one, so that positions stay the text's.
  function caseless(text) { return text.replace(/\u0131/g, "i").replace(/\u0130/g, "I"); }

  Analysis.prototype.words = function (text) {  // WORD.findall
    return text.match(this.wordRe) || [];
  };

  Analysis.prototype.foldAccents = function (s) {  // kb.text.fold_accents
    if (/^[\x00-\x7f]*$/.test(s)) return s;
    return s.normalize("NFKD").replace(this.combining, "");
  };

  Analysis.prototype.terms = function (chain, text) {
    var words = this.words(text), out = [];
    for (var i = 0; i < words.length; i++) {
      var found = this.termsOfWord(chain, words[i]);
      for (var j = 0; j < found.length; j++) out.push(found[j]);
    }
    return out;
  };

  Analysis.prototype.firstTerm = function (chain, text) {
    var found = this.terms(chain, text);
    return found.length ? found[0] : null;
  };

  Analysis.prototype.termsOfWord = function (chain, word) {
    var cache = this.cache[chain] || (this.cache[chain] = new Map()), found = cache.get(word);
    if (found === undefined) {
      found = chain === "plain" ? this.plainWord(word) : this.stems(chain, word);
      if (cache.size > 65536) cache.clear();
      cache.set(word, found);
    }
    return found;
  };

  Analysis.prototype.plainWord = function (word) {
    var w = word.toLowerCase();
    if (codePoints(w) < 2 || this.sharedStop.has(w)) return [];
    var out = "", accents = this.accents;
    for (var i = 0; i < w.length; i++) {
      var to = accents.get(w[i]);
      out += to === undefined ? w[i] : to;
    }
    return [out];
  };

  function codePoints(s) {
    return /[\uD800-\uDBFF]/.test(s) ? Array.from(s).length : s.length;
  }

  Analysis.prototype.stems = function (lang, word) {
    var w = word.toLowerCase(), folded = this.foldAccents(w);
    if (this.stop[lang].has(folded)) return [];
    var first = this.foldAccents(Stemmers.stem(lang, w));
    if (folded !== w) {
      var other = Stemmers.stem(lang, folded);
      if (other !== first) return [first, other];
    }
    return [first];
  };

  Analysis.prototype.stemsSaid = function (lang, text) {
    var digits = this.numbers[lang] || {};
    text = text.replace(this.wordRe, function (m) {
      var key = m.toLowerCase();
      return Object.prototype.hasOwnProperty.call(digits, key) ? digits[key] : m;
    });
    return sortedUnique(this.terms(lang, text));
  };

  function sortedUnique(items) {
    return Array.from(new Set(items)).sort(byCodePoint);
  }

  function byCodePoint(a, b) {  // Python's order of strings (UTF-16 units sort some letters otherwise)
    if (!/[\uD800-\uDFFF]/.test(a + b)) return a < b ? -1 : a > b ? 1 : 0;
    var x = Array.from(a), y = Array.from(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i].codePointAt(0) - y[i].codePointAt(0);
    }
    return x.length - y.length;
  }

  function head(word, n) {  // word[:n], in code points
    return /[\uD800-\uDFFF]/.test(word) ? Array.from(word).slice(0, n).join("") : word.slice(0, n);
  }

  Analysis.prototype.positions = function (text) {  // (start, end, word as written, plain term)
    var out = [], re = new RegExp(this.wordRe.source, "gu"), m;
    while ((m = re.exec(text))) {
      var found = this.termsOfWord("plain", m[0]);
      if (found.length) out.push([m.index, m.index + m[0].length, m[0], found[0]]);
    }
    return out;
  };

  Analysis.prototype.light = function (text) {
    return this.terms("plain", text).map(function (w) {
      if (codePoints(w) > 4 && w.endsWith("s")) w = w.slice(0, -1);
      if (codePoints(w) > 4 && "aeiou".indexOf(w[w.length - 1]) >= 0) w = w.slice(0, -1);
      return w;
    });
  };

  Analysis.prototype.fold = function (text) {  // letter for letter
    var out = "", self = this;
    for (var ch of text.toLowerCase()) {
      var f = self.letters.get(ch);
      if (f === undefined) {
        f = Array.from(self.foldAccents(ch))[0] || ch;
        self.letters.set(ch, f);
      }
      out += f;
    }
    return out;
  };

  function dedupe(items) { return Array.from(new Set(items)); }

  // ================================================================ query.py
  function Query(model, analysis) {
    var w = model.header.words, n = model.header.numbers;
    this.a = analysis;
    this.tuning = model.tuning;
    this.langs = model.langs;
    this.question = new Set(w.question);
    this.own = {};
    var self = this;
    Object.keys(w.own_stop).forEach(function (l) { self.own[l] = new Set(w.own_stop[l]); });
    this.ownLangs = Object.keys(w.own_stop);
    this.intents = w.intents.map(function (i) { return [i[0], new RegExp(i[1], "iu")]; });  // the first wins
    this.definition = new RegExp(w.intents.find(function (i) { return i[0] === "definition"; })[1], "giu");
    this.maxChars = w.max_query_chars;
    this.number = new RegExp(n.pattern, "id");
    this.twoArticles = new RegExp(n.two_articles);
    this.before = n.before ? new RegExp("^" + n.before) : null;
    this.after = n.after ? new RegExp(n.after) : null;
    this.link = new RegExp(n.link, "iu");
    this.named = n.named;
    this.numberLangs = n.langs;
    this.kinds = n.kinds;  // the kinds of document a number means: the Laws, the norms
    this.expansions = new Expansions(model.header.expansions, analysis);
  }

  Query.prototype.clean = function (text) {
    var control = this.a.control;
    text = text.replace(control, " ");  // first too: a character this browser knows and the server does not stays one
    if (codePoints(text) <= this.maxChars) text = text.normalize("NFKC");
    var n = codePoints(text);
    if (n > this.maxChars) throw new QueryError("query too long (" + n + " characters; at most " + this.maxChars + ")");
    return text.replace(control, " ").replace(/\s+/g, " ").trim();
  };

  function Expansions(rows, analysis) {
    this.rows = rows;
    this.a = analysis;
    this.starting = new Map();  // a row can match only a query holding its first word
    for (var i = 0; i < rows.length; i++) {
      var first = rows[i][0][0];
      if (!this.starting.has(first)) this.starting.set(first, []);
      this.starting.get(first).push(i);
    }
  }

  Expansions.prototype.added = function (text) {
    var words = this.a.light(text), present = new Set(words), found = new Set(), out = {}, self = this;
    present.forEach(function (w) { (self.starting.get(w) || []).forEach(function (i) { found.add(i); }); });
    Array.from(found).sort(function (x, y) { return x - y; }).forEach(function (i) {
      var row = self.rows[i], seq = row[0];
      var matched = row[1] ? seq.every(function (w) { return present.has(w); }) : contains(words, seq);
      if (!matched) return;
      Object.keys(row[2]).forEach(function (lang) {
        (out[lang] = out[lang] || []).push.apply(out[lang], row[2][lang]);
      });
    });
    return out;
  };

  function contains(words, seq) {
    outer: for (var i = 0; i + seq.length <= words.length; i++) {
      for (var j = 0; j < seq.length; j++) if (words[i + j] !== seq[j]) continue outer;
      return true;
    }
    return false;
  }

  Query.prototype.plan = function (text, named, expansions) {  // named: a document's name may lead a number
    var self = this, a = this.a;
    text = this.clean(text);
    var read = caseless(text);
    var said = this.intents.find(function (i) { return i[1].test(read); }), intent = said ? said[0] : null;
    var body = intent === "definition" ? this.withoutCues(text, read) : text;
    var words = dedupe(a.terms("plain", body)).filter(function (w) { return !self.question.has(w); })
      .slice(0, this.tuning.max_words);
    var p = { text: text, words: words, stems: {}, expansions: {}, intent: intent, writtenIn: this.writtenIn(text),
              number: this.numberQuery(text, named) };
    var joined = words.join(" ");
    this.langs.forEach(function (l) { p.stems[l] = dedupe(a.terms(l, joined)); });
    var added = expansions ? this.expansions.added(body) : {};
    this.langs.forEach(function (l) {
      var own = new Set(p.stems[l]);
      p.expansions[l] = dedupe((added[l] || []).filter(function (s) { return !own.has(s); }));
    });
    return p;
  };

  Query.prototype.withoutCues = function (text, read) {  // _DEFINITION_CUES.sub(" ", text)
    var out = "", at = 0, m, re = this.definition;
    re.lastIndex = 0;
    while ((m = re.exec(read))) {
      if (!m[0].length) { re.lastIndex++; continue; }
      out += text.slice(at, m.index) + " ";
      at = m.index + m[0].length;
    }
    return out + text.slice(at);
  };

  Query.prototype.writtenIn = function (text) {
    var ws = this.a.words(text.toLowerCase()), own = this.own;
    var votes = this.ownLangs.map(function (l) {
      return [ws.filter(function (w) { return own[l].has(w); }).length, l];
    }).sort(function (x, y) { return y[0] - x[0] || (y[1] < x[1] ? -1 : y[1] > x[1] ? 1 : 0); });
    return votes[0][0] > (votes.length > 1 ? votes[1][0] : 0) ? votes[0][1] : null;
  };

  Query.prototype.namedDocument = function (text) {  // [doc, the rest] (doc null: none named)
    if (!this.before) return [null, text];
    var folded = this.a.fold(text), m = this.before.exec(folded);
    if (m) return [this.named[m.groups.name], caseless(text.slice(m[0].length).replace(/^[ .,:]+/, "")).replace(this.link, "")];
    m = this.after.exec(folded);
    if (m && m.index > 0) return [this.named[m.groups.name], caseless(text.slice(0, m.index)).replace(this.link, "")];
    return [null, text];
  };

  Query.prototype.numberQuery = function (text, named) {
    var doc = null;
    if (named) { var found = this.namedDocument(text); doc = found[0]; text = found[1]; }
    var m = this.number.exec(caseless(text));
    if (!m || parseInt(m.groups.art, 10) === 0) return null;
    var g = {};  // each group as the query typed it (caseless only to match)
    Object.keys(m.indices.groups).forEach(function (k) {
      var at = m.indices.groups[k];
      g[k] = at ? text.slice(at[0], at[1]) : undefined;
    });
    if (this.twoArticles.test(text)) return null;  // "27 e 28" is two articles, not 27E28
    if (g.item && !g.num) return null;  // "27 b a" is no id
    var clause = g.art + (g.sec || "").toUpperCase() + (g.num || "") + (g.item || "").toLowerCase() +
      (g.roman || "").toLowerCase();
    var laws = this.kinds[0], norms = this.kinds[1];
    if (g.appendix) return { article: g.art, clause: g.art, wants: doc ? [] : [[norms, null]], doc: doc, appendix: true };
    var said = this.numberLangs.find(function (l) { return g[l]; }) || null;
    var wants = said ? [[laws, said], [laws, null]] : [[laws, null]];
    return { article: g.art, clause: clause, wants: doc ? [] : wants, doc: doc, appendix: false };
  };

  var EXPANDED = "~";  // the word a glossary translation's terms stand for

  Query.prototype.wordQueries = function (word, langs, fuzzy, cognate) {
    var t = this.tuning, out = [{ field: "plain", text: word, boost: t.plain_boost, kind: "term" }], a = this.a;
    if (codePoints(word) <= t.acronym_max && /^\p{L}+$/u.test(word)) {
      out.push({ field: "plain", text: word + "s", boost: t.plain_boost, kind: "term" });
    }
    langs.forEach(function (lang) {
      var stem = a.firstTerm(lang, word);
      if (stem) {
        out.push({ field: "title_" + lang, text: stem, boost: t.title_boost, kind: "term" },
                 { field: "body_" + lang, text: stem, boost: 1.0, kind: "term" });
      }
    });
    var n = codePoints(word);
    if (n >= t.prefix_min && !a.isDigits(word)) {
      out.push({ field: "plain", text: head(word, Math.max(t.prefix_min, Math.floor(n * t.prefix_share + 0.5))),
                 boost: t.prefix_boost, kind: "prefix" });
    }
    if (fuzzy) out.push({ field: "plain", text: word, boost: t.fuzzy_boost, kind: "near", maxdist: n > t.fuzzy_long ? 2 : 1, prefix: 1 });
    else if (cognate) out.push({ field: "plain", text: word, boost: t.cognate_boost, kind: "near", maxdist: n > t.cognate_long ? 2 : 1, prefix: 2 });
    return out;
  };

  Query.prototype.expansionQueries = function (expansions) {
    var t = this.tuning, out = [];
    Object.keys(expansions).forEach(function (lang) {
      expansions[lang].forEach(function (stem) {
        out.push({ field: "title_" + lang, text: stem, boost: t.expansion_boost * t.title_boost, kind: "term" },
                 { field: "body_" + lang, text: stem, boost: t.expansion_boost, kind: "term" });
      });
    });
    return out;
  };

  // ================================================================ scoring.py
  var EMPTY = { docs: new Uint32Array(0), values: new Float64Array(0) };

  function Scorer(model) {
    this.fields = model.fields;
    this.docCount = model.docCount;
    this.tuning = model.tuning;
    this.vocabulary = model.fields.plain.terms;
    this.scored = new Map();
    this.nearCache = new Map();
  }

  Scorer.prototype.postings = function (field, term) {  // {docs, tf}
    var f = this.fields[field], i = f ? f.number.get(term) : undefined;
    if (i === undefined) return { docs: EMPTY.docs, tf: EMPTY.values };
    return { docs: f.docs.subarray(f.offsets[i], f.offsets[i + 1]), tf: f.tf.subarray(f.offsets[i], f.offsets[i + 1]) };
  };

  Scorer.prototype.docFrequency = function (field, term) { return this.postings(field, term).docs.length; };
  Scorer.prototype.frequency = function (word) { return this.docFrequency("plain", word); };

  Scorer.prototype.term = function (field, term, boost) {  // {docs, values}: BM25 scores
    var key = field + "\u0000" + term, scored = this.scored.get(key);
    if (scored === undefined) {
      var p = this.postings(field, term);
      if (!p.docs.length) return EMPTY;
      var f = this.fields[field], t = this.tuning, k1 = t.k1, b = t.b, idf = f.idf.get(p.docs.length);
      var values = new Float64Array(p.docs.length);
      for (var i = 0; i < values.length; i++) {
        var tf = p.tf[i], norm = k1 * ((1 - b) + b * f.lengths[p.docs[i]] / f.average);
        values[i] = idf * (tf * (k1 + 1)) / (tf + norm);
      }
      scored = { docs: p.docs, values: values };
      this.scored.set(key, scored);
    }
    if (boost === 1.0) return scored;
    var boosted = new Float64Array(scored.values.length);
    for (var j = 0; j < boosted.length; j++) boosted[j] = boost * scored.values[j];
    return { docs: scored.docs, values: boosted };
  };

  Scorer.prototype.best = function (field, terms, boost) {  // each document its best term's BM25
    var self = this;
    var found = terms.map(function (t) { return self.term(field, t, boost); }).filter(function (f) { return f.docs.length; });
    if (found.length <= 1) return found.length ? found[0] : EMPTY;
    var dense = new Float64Array(this.docCount);
    found.forEach(function (f) {
      for (var i = 0; i < f.docs.length; i++) if (f.values[i] > dense[f.docs[i]]) dense[f.docs[i]] = f.values[i];
    });
    return fromDense(dense);
  };

  function fromDense(dense) {
    var docs = [], values = [];
    for (var d = 0; d < dense.length; d++) if (dense[d] !== 0) { docs.push(d); values.push(dense[d]); }
    return { docs: Uint32Array.from(docs), values: Float64Array.from(values) };
  }

  Scorer.prototype.constant = function (field, terms, boost) {  // each document `boost` once
    var self = this, seen = new Set();
    terms.forEach(function (t) { self.postings(field, t).docs.forEach(function (d) { seen.add(d); }); });
    var docs = Uint32Array.from(seen).sort(), values = new Float64Array(docs.length).fill(boost);
    return { docs: docs, values: values };
  };

  Scorer.prototype.matches = function (q) {
    if (q.kind === "near") return this.constant(q.field, this.near(q.text, q.maxdist, q.prefix), q.boost);
    if (q.kind === "prefix") return this.best(q.field, this.withPrefix(q.text), q.boost);
    return this.term(q.field, q.text, q.boost);
  };

  Scorer.prototype.withPrefix = function (prefix) {
    var v = this.vocabulary, i = bisectLeft(v, prefix), out = [], most = this.tuning.max_expansions;
    while (i < v.length && out.length < most && v[i].startsWith(prefix)) out.push(v[i++]);
    return out;
  };

  function bisectLeft(sorted, x) {
    var lo = 0, hi = sorted.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (sorted[mid] < x) lo = mid + 1; else hi = mid; }
    return lo;
  }

  Scorer.prototype.near = function (word, maxdist, prefix) {  // in vocabulary order
    var key = word + "\u0000" + maxdist + "\u0000" + prefix, found = this.nearCache.get(key);
    if (found === undefined) {
      var v = this.vocabulary, first = Array.from(word)[0] || "", length = codePoints(word), start = head(word, prefix);
      found = [];
      for (var i = bisectLeft(v, first); i < v.length && v[i].startsWith(first); i++) {
        var w = v[i];
        if (Array.from(w)[0] !== first || Math.abs(codePoints(w) - length) > maxdist) continue;
        if (w !== word && head(w, prefix) === start && editDistance(w, word, maxdist) <= maxdist) found.push(w);
      }
      found = found.slice(0, this.tuning.max_expansions);
      if (this.nearCache.size >= 4096) this.nearCache.clear();
      this.nearCache.set(key, found);
    }
    return found;
  };

  function summed(lists, size) {  // each document the sum of its values, added in the lists' order
    var acc = new Float64Array(size), seen = new Uint8Array(size), count = 0, i, d;
    lists.forEach(function (l) {
      for (i = 0; i < l.docs.length; i++) {
        d = l.docs[i];
        if (!seen[d]) { seen[d] = 1; count++; }
        acc[d] += l.values[i];
      }
    });
    var docs = new Uint32Array(count), values = new Float64Array(count), k = 0;
    for (d = 0; d < size; d++) if (seen[d]) { docs[k] = d; values[k++] = acc[d]; }
    return { docs: docs, values: values };
  }

  function editDistance(a, b, limit) {  // Damerau–Levenshtein over code points, giving up past limit
    if (/[\uD800-\uDFFF]/.test(a + b)) { a = Array.from(a); b = Array.from(b); }
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var prev2 = [], prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      for (j = 1; j <= b.length; j++) {
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] !== b[j - 1] ? 1 : 0));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur.push(v);
      }
      if (Math.min.apply(null, cur) > limit) return limit + 1;
      prev2 = prev; prev = cur;
    }
    return prev[b.length];
  }

  // ================================================================ phrasebook.py
  function Phrasebook(model, analysis) {
    this.entries = model.entries;
    this.books = model.books;
    this.tuning = model.tuning;
    this.entryRank = model.arrays.entry_rank;
    this.rankOf = new Map(model.entries.map(function (e, i) { return [e.id, model.arrays.entry_rank[i]]; }));
    this.a = analysis;
  }

  Phrasebook.prototype.words = function (otherGame) {  // "lang stem" of every phrase (of one game's)
    var out = new Set();
    this.books.forEach(function (b) {
      if (otherGame === undefined || b.otherGame === otherGame) b.stems.forEach(function (s) { out.add(b.lang + " " + s); });
    });
    return out;
  };

  Phrasebook.prototype.storySize = function (lang, text) {
    var a = this.a, stop = a.stop[lang];
    return new Set(a.words(text.toLowerCase()).filter(function (w) { return !stop.has(a.foldAccents(w)); })).size;
  };

  Phrasebook.prototype.match = function (text, limit, otherGame, read) {  // whole, then window by window
    var t = this.tuning, pool = Math.max(limit, t.fit_pool), self = this, best = new Map();
    this.said(text, otherGame, pool).forEach(function (m) { best.set(m.entry.id, m); });
    var words = text.split(" ");
    if (words.length >= t.window_story) {
      var half = Math.floor(t.window / 2), windows = new Map();
      for (var start = 0; start < Math.max(1, words.length - half); start += half) {
        this.said(words.slice(start, start + t.window).join(" "), otherGame, pool).forEach(function (m) {
          windows.set(m.entry.id, (windows.get(m.entry.id) || 0) + 1);
          var s = m.strength * t.window_share, had = best.get(m.entry.id);
          if (!had || s > had.strength) best.set(m.entry.id, { entry: m.entry, strength: s, phrase: m.phrase });
        });
      }
      best.forEach(function (m, id) {  // a situation the story keeps telling
        best.set(id, { entry: m.entry, strength: m.strength + t.window_repeat * ((windows.get(id) || 1) - 1), phrase: m.phrase });
      });
    }
    var matches = Array.from(best.values());
    matches.sort(function (x, y) {
      return cmp(y.strength, x.strength) || self.rankOf.get(x.entry.id) - self.rankOf.get(y.entry.id) || x.phrase - y.phrase;
    });
    return this.refit(matches.slice(0, pool), read || NOTHING).slice(0, limit);
  };

  Phrasebook.prototype.said = function (text, otherGame, limit) {  // strongest first, one match per entry
    var t = this.tuning, found = [], strengths = [], self = this, any = false;
    var storySize = t.story_size, least = t.min_match;
    this.books.forEach(function (book) {
      if (book.otherGame !== otherGame) return;
      any = true;
      var story = self.storySize(book.lang, text) >= storySize;
      var r = self.saidIn(book, self.a.stemsSaid(book.lang, text), story);
      for (var i = 0; i < r.said.length; i++) {
        if (r.strength[i] >= least) { found.push(r.said[i] + book.start); strengths.push(r.strength[i]); }
      }
    });
    return any ? this.best(found, strengths, limit) : [];
  };

  Phrasebook.prototype.refit = function (matches, read) {  // strongest first, ties as they were
    if (!read.acts.size) return matches;
    var t = this.tuning;
    var fitted = matches.map(function (m, i) {
      return { entry: m.entry, strength: m.strength + t.fit_scale * (fit(m.entry.period, m.entry.actors, m.entry.acts, read, t) - 1),
               phrase: m.phrase, i: i };
    });
    fitted.sort(function (x, y) { return cmp(y.strength, x.strength) || x.i - y.i; });
    return fitted.map(function (m) { return { entry: m.entry, strength: m.strength, phrase: m.phrase }; });
  };

  Phrasebook.prototype.saidIn = function (book, query, story) {  // {said: phrases, strength}
    if (!query.length) return { said: [], strength: [] };
    var stems = query.map(function (s) { var i = book.number.get(s); return i === undefined ? null : i; });
    var shared = idfOf(stems, book, book.offsets, book.phrases, book.entryOf.length);
    var said = [], i;
    for (i = 0; i < shared.length; i++) if (shared[i] !== 0) said.push(i);
    var qWeight = 0.0;
    stems.forEach(function (s) { qWeight += s === null ? book.unknownIdf : book.idf[s]; });
    var strength = said.map(function (n) { return shared[n] / Math.sqrt(qWeight * book.weights[n]); });
    if (!story) return { said: said, strength: strength };
    var covered = idfOf(stems, book, book.usingOffsets, book.usingEntries, this.entries.length);
    var share = this.tuning.phrase_share;
    return { said: said, strength: strength.map(function (cosine, k) {
      var told = share * cosine + (1 - share) * (covered[book.entryOf[said[k]]] / qWeight);
      return Math.max(cosine, told);
    }) };
  };

  function idfOf(stems, book, offsets, rows, size) {
    var out = new Float64Array(size);
    stems.forEach(function (s) {
      if (s === null) return;
      for (var j = offsets[s]; j < offsets[s + 1]; j++) out[rows[j]] += book.idf[s];
    });
    return out;
  }

  Phrasebook.prototype.best = function (found, strength, limit) {
    var self = this, order = found.map(function (_, i) { return i; });
    order.sort(function (x, y) { return cmp(strength[y], strength[x]) || found[x] - found[y]; });
    order = order.slice(0, this.tuning.candidates);
    var seen = new Set(), firsts = [];
    order.forEach(function (i) {
      var e = self.entryOf(found[i]);
      if (!seen.has(e)) { seen.add(e); firsts.push([e, strength[i], found[i]]); }
    });
    firsts.sort(function (x, y) { return cmp(y[1], x[1]) || self.entryRank[x[0]] - self.entryRank[y[0]] || x[2] - y[2]; });
    return firsts.slice(0, limit).map(function (f) { return { entry: self.entries[f[0]], strength: f[1], phrase: f[2] }; });
  };

  Phrasebook.prototype.entryOf = function (phrase) {
    for (var i = 0; i < this.books.length; i++) {
      var b = this.books[i];
      if (phrase >= b.start && phrase < b.start + b.entryOf.length) return b.entryOf[phrase - b.start];
    }
    return -1;
  };

  function cmp(x, y) { return x < y ? -1 : x > y ? 1 : 0; }

  // ================================================================ story.py
  var SEATS = new Set(["declarer", "dummy", "defender"]), DEFINE = "define";
  var GAP = 2, NOTHING = { roles: new Set(), periods: new Set(), acts: new Set() };

  function Reader(saved, analysis) {
    var self = this;
    saved = saved || { tags: [], phrases: [], aside: [] };
    this.a = analysis;
    this.tags = saved.tags.map(function (tag) { var k = tag.indexOf(":"); return [tag.slice(0, k), tag.slice(k + 1)]; });
    this.exact = new Map();   // a phrase by its first word…
    this.prefix = new Map();  // …or its first word's beginning
    saved.phrases.forEach(function (p) {
      var first = p[1][0], star = first.endsWith("*"), table = star ? self.prefix : self.exact;
      var key = star ? first.slice(0, -1) : first;
      if (!table.has(key)) table.set(key, []);
      table.get(key).push([p[0], p[1]]);
    });
    this.shortest = Infinity;
    this.prefix.forEach(function (_, k) { self.shortest = Math.min(self.shortest, codePoints(k)); });
    if (this.shortest === Infinity) this.shortest = 1;
    this.aside = (saved.aside || []).map(function (x) { return new RegExp(x[0], x[1] ? "giu" : "gu"); });
  }

  Reader.prototype.read = function (text) {  // the roles, periods and acts a text tells
    var words = this.a.words(this.a.fold(text)), told = new Set(), self = this;
    words.forEach(function (word, i) {
      self.starting(word).forEach(function (p) {
        if (!told.has(p[0]) && follows(words, i, p[1])) told.add(p[0]);
      });
    });
    var found = { role: new Set(), period: new Set(), act: new Set() };
    told.forEach(function (tag) { var t = self.tags[tag]; found[t[0]].add(t[1]); });
    return { roles: found.role, periods: found.period, acts: found.act };
  };

  Reader.prototype.starting = function (word) {  // in the vocabulary's order
    var out = (this.exact.get(word) || []).slice(), chars = Array.from(word);
    for (var n = this.shortest; n <= chars.length; n++) {
      var found = this.prefix.get(chars.slice(0, n).join(""));
      if (found) out = out.concat(found);
    }
    return out;
  };

  Reader.prototype.setAside = function (text) {  // story.set_aside
    text = caseless(text);
    this.aside.forEach(function (re) { text = text.replace(re, " "); });
    return text;
  };

  function said(word, token) {
    return token.endsWith("*") ? word.startsWith(token.slice(0, -1)) : word === token;
  }

  function follows(words, start, phrase) {
    var at = start;
    for (var k = 1; k < phrase.length; k++) {
      var next = -1;
      for (var j = at + 1; j < Math.min(at + 2 + GAP, words.length); j++) {
        if (said(words[j], phrase[k])) { next = j; break; }
      }
      if (next < 0) return false;
      at = next;
    }
    return true;
  }

  function fit(period, actors, acts, read, t) {
    if (!read.acts.size || !acts.length) return 1.0;
    var shared = acts.filter(function (a) { return read.acts.has(a); }).length, factor;
    if (!shared || (acts.indexOf(DEFINE) >= 0 && !read.acts.has(DEFINE))) factor = t.fit_floor;
    else factor = t.fit_some + (1 - t.fit_some) * shared / acts.length;
    if (actors.length) {
      if (actors.some(function (a) { return read.roles.has(a); })) factor *= t.fit_actor;
      else if (actors.every(function (a) { return SEATS.has(a); }) && Array.from(read.roles).some(function (r) { return SEATS.has(r); })) {
        factor *= t.fit_other_actor;
      }
    }
    if (period && read.periods.size) factor *= read.periods.has(period) ? t.fit_period : t.fit_other_period;
    return factor;
  }

  // ================================================================ told.py
  var Told = {
    added: function (matches, story, scores, t, powers) {
      var extra = new Float64Array(scores.length);
      if (!matches.length) return extra;
      var top = Math.max(maxOf(scores), t.weak_score), told = story ? t.story_weight : t.name_weight;
      var notLead = t.not_lead, nameMin = t.name_min, rank = 0;
      matches.forEach(function (m) {
        if (!story && m.strength < nameMin) return;
        var seen = {};
        m.entry.targets.forEach(function (target) {
          var n = story ? target.row : target.unitRow, k = seen[target.doc] || 0;
          if (n >= 0) {
            var weight = target.leads ? told : told * notLead;
            var v = weight * m.strength * top * powers.decay[k] * powers.rank_decay[rank];
            if (v > extra[n]) extra[n] = v;
          }
          seen[target.doc] = k + 1;
        });
        rank++;
      });
      return extra;
    },
    titled: function (matches, first, t) {
      var m = matches.find(function (x) { return x.entry.title && x.strength >= t.verbatim; });
      if (!m) return [];
      var targets = m.entry.targets.map(function (x) { return [x.doc, x.unit, x.clause]; });
      return targets.sort(function (x, y) { return (first(x[0]) ? 0 : 1) - (first(y[0]) ? 0 : 1); });
    },
    named: function (matches, lang, t) {
      return matches.filter(function (m) { return Object.keys(m.entry.names).length && m.strength >= t.shown; })
        .map(function (m) { return { id: m.entry.id, name: entryName(m.entry, lang), url: m.entry.url }; });
    },
  };

  function maxOf(values) {
    var top = 0.0;
    for (var i = 0; i < values.length; i++) if (values[i] > top) top = values[i];
    return top;
  }

  // ================================================================ answer.py
  var Answer = {
    chosen: function (said, hits, t) {  // the situation said most closely (closely enough), when it rules one of the first hits
      var named = said.find(function (m) { return Object.keys(m.entry.names).length && m.strength >= t.answer_strength; });
      if (!named) return null;
      var firstHits = new Set(hits.slice(0, t.answer_hits).map(function (h) { return h[0] + "\u0000" + h[1]; }));
      return named.entry.targets.some(function (x) { return x.leads && firstHits.has(x.doc + "\u0000" + x.unit); }) ? named : null;
    },
    parts: function (entry, library, reader, see) {  // {ruling, beside, older, time, see}
      var inForce = library.lawsInForce, leads = entry.targets.filter(function (x) { return x.leads; });
      var ruling = leads.find(function (x) { return x.doc === inForce; }) || leads[0];
      var laws = library.laws.indexOf(ruling.doc) >= 0;
      var beside = firstTarget(entry, function (x) {
        return x.doc !== ruling.doc && (laws ? library.kind[x.doc] === "norms" : x.doc === inForce);
      });
      var own = reader ? library.lawsIn(reader) : null;
      var older = laws && own && own !== inForce ? firstTarget(entry, function (x) { return x.doc === own; }) : null;
      var time = firstTarget(entry, function (x) { return library.kind[x.doc] === "timeref"; });
      var shown = new Set([ruling, beside, older, time].filter(Boolean).map(function (x) { return x.doc + "\u0000" + x.unit; }));
      var others = leads.filter(function (x) { return x.doc === ruling.doc && !shown.has(x.doc + "\u0000" + x.unit); });
      return { ruling: ruling, beside: beside, older: older, time: time, see: firstOfUnits(others).slice(0, see) };
    },
  };

  function firstTarget(entry, wanted) { return entry.targets.find(wanted) || null; }

  function firstOfUnits(targets) {  // the first target of each unit, in order
    var firsts = new Map();
    targets.forEach(function (x) { var k = x.doc + "\u0000" + x.unit; if (!firsts.has(k)) firsts.set(k, x); });
    return Array.from(firsts.values());
  }

  // ================================================================ bids.py
  function Bids(b) {
    this.bid = new RegExp(b.bid, "giu");
    this.over = new RegExp(b.over, "iu");
    this.meant = new RegExp(b.meant, "iu");
    this.denominations = b.denominations;
    this.names = b.names;
  }

  Bids.prototype.ranks = function (text) {
    var found = [], m, d = this.denominations, size = d.length;
    text = caseless(text);
    this.bid.lastIndex = 0;
    while ((m = this.bid.exec(text))) {
      var which = d.split("").findIndex(function (k) { return m.groups[k] !== undefined; });
      found.push([m.index, m.index + m[0].length, parseInt(m[1], 10) * size + which]);
    }
    var order = found.map(function (f) { return f[2]; });
    for (var i = 0; i + 1 < found.length; i++) {
      if (this.over.test(text.slice(found[i][1], found[i + 1][0]))) order.splice(i, 2, order[i + 1], order[i]);
    }
    return order;
  };

  Bids.prototype.insufficient = function (text) {
    if (this.meant.test(caseless(text))) return false;
    var order = this.ranks(text), size = this.denominations.length;
    for (var j = 1; j < order.length; j++) {
      if (order[j] < order[j - 1] && Math.floor(order[j] / size) === Math.floor(order[j - 1] / size)) return true;
    }
    return false;
  };

  Bids.prototype.told = function (text, lang) {
    return lang && this.names[lang] && this.insufficient(text) ? this.names[lang] : "";
  };

  // ================================================================ ranking.py
  function UnitRanker(model) {
    var a = model.arrays, self = this;
    this.tuning = model.tuning;
    this.units = model.units;
    this.clauseNames = model.clauseNames;
    this.number = new Map(model.units.map(function (u, i) { return [u[0] + "\u0000" + u[1], i]; }));
    this.docUnit = a.row_unit;
    this.docClause = a.row_clause;
    this.whole = model.clauseNames.indexOf(UNIT_LEVEL);
    this.liftSrc = a.lift_src; this.liftUnit = a.lift_unit; this.liftClause = a.lift_clause;
    this.parallelSrc = a.parallel_src; this.parallelDst = a.parallel_dst;
    var ordinal = indexOf(model.clauseNames);
    this.unitClause = model.units.map(function (u) { return ordinal.get(u[1]); });
    this.kind = model.unitKind;
    var langs = {}, games = {};
    model.documents.forEach(function (d) { langs[d.id] = d.lang; games[d.id] = d.other_game; });
    this.lang = model.units.map(function (u) { return langs[u[0]]; });
    this.otherGame = model.units.map(function (u) { return games[u[0]]; });
    this.kindWeight = model.unitKind.map(function (k) {
      var w = self.tuning.kind_weight;
      return Object.prototype.hasOwnProperty.call(w, k) ? w[k] : 1.0;
    });
  }

  UnitRanker.prototype.rank = function (scores, intent, prefer, otherGame, pinned, lifting) {
    var r = this.unitScores(scores, lifting), weights = this.weights(intent, prefer, otherGame), found = [];
    for (var u = 0; u < this.units.length; u++) if (r.present[u]) found.push([u, r.total[u] * weights[u]]);
    found.sort(function (x, y) { return cmp(y[1], x[1]) || x[0] - y[0]; });
    var names = this.clauseNames, units = this.units;
    var ranked = found.map(function (f) { return [units[f[0]], names[r.best[f[0]]], f[1]]; });
    if (pinned.length) {
      var top = ranked.length ? ranked[0][2] : 1.0, keep = new Set(pinned.map(function (p) { return p[0] + "\u0000" + p[1]; }));
      ranked = pinned.map(function (p, i) { return [[p[0], p[1]], p[2], top * 10 + pinned.length - i]; })
        .concat(ranked.filter(function (x) { return !keep.has(x[0][0] + "\u0000" + x[0][1]); }));
    }
    return ranked;  // [[doc, unit], best clause, score]
  };

  UnitRanker.prototype.unitScores = function (scores, lifting) {
    var t = this.tuning, n = this.units.length, d, i, u;
    lifting = lifting || scores;
    var present = new Uint8Array(n), whole = new Float64Array(n), best = Int32Array.from(this.unitClause);
    var tops = [];  // per unit its three best [score, clause], best first (ties: the lower clause)
    function take(unit, score, clause) {
      var list = tops[unit] || (tops[unit] = []);
      var at = list.length;
      while (at > 0 && (score > list[at - 1][0] || (score === list[at - 1][0] && clause < list[at - 1][1]))) at--;
      if (at < 3) { list.splice(at, 0, [score, clause]); if (list.length > 3) list.pop(); }
    }
    for (d = 0; d < scores.length; d++) {
      if (scores[d] === 0) continue;
      present[this.docUnit[d]] = 1;
      if (this.docClause[d] === this.whole) whole[this.docUnit[d]] = scores[d];
      else take(this.docUnit[d], scores[d], this.docClause[d]);
    }
    var linkLift = t.link_lift, second = t.second_clause_weight, unitWeight = t.unit_weight, lift = t.parallel_lift;
    for (i = 0; i < this.liftSrc.length; i++) {
      if (lifting[this.liftSrc[i]] > 0) {
        present[this.liftUnit[i]] = 1;
        take(this.liftUnit[i], lifting[this.liftSrc[i]] * linkLift, this.liftClause[i]);
      }
    }
    var total = new Float64Array(n);
    for (u = 0; u < n; u++) {
      var list = tops[u] || [], bestScore = 0, nextTwo = 0;
      if (list.length) { bestScore = list[0][0]; best[u] = list[0][1]; }
      if (list.length > 1) nextTwo += list[1][0];
      if (list.length > 2) nextTwo += list[2][0];
      total[u] = bestScore + second * nextTwo + unitWeight * whole[u];
    }
    var out = Float64Array.from(total);
    for (i = 0; i < this.parallelSrc.length; i++) {
      if (present[this.parallelSrc[i]]) out[this.parallelDst[i]] += lift * total[this.parallelSrc[i]];
    }
    for (i = 0; i < this.parallelSrc.length; i++) if (present[this.parallelSrc[i]]) present[this.parallelDst[i]] = 1;
    return { present: present, best: best, total: out };
  };

  UnitRanker.prototype.weights = function (intent, prefer, otherGame) {
    var t = this.tuning, w = Float64Array.from(this.kindWeight), u, elsewhere = t.other_game_weight;
    var demote = intent && Object.prototype.hasOwnProperty.call(t.intent_demote, intent) ? t.intent_demote[intent] : null;
    var boost = intent && Object.prototype.hasOwnProperty.call(t.intent_boost, intent) ? t.intent_boost[intent] : null;
    for (u = 0; u < w.length; u++) {
      if (demote && demote[0].indexOf(this.kind[u]) >= 0) w[u] = demote[1];
      if (boost && boost[0].indexOf(this.kind[u]) >= 0) w[u] *= boost[1];
      if (prefer[0] && this.lang[u] === prefer[0]) w[u] *= prefer[1];
      if (this.otherGame[u] !== otherGame) w[u] *= elsewhere;
    }
    return w;
  };

  // ================================================================ numbers.py
  function Numbers(model) {
    var n = model.header.numbers;
    this.ids = n.ids;
    this.inForce = n.in_force;
    this.all = n.all;
    this.laws = model.header.laws;
    this.across = n.across;
    this.lang = {};
    var self = this;
    model.documents.forEach(function (d) { self.lang[d.id] = d.lang; });
  }

  Numbers.prototype.resolve = function (n, doc, lang, ui) {  // [jump, choices, pinned]
    if (!n) return [null, [], []];
    var self = this;
    var targets = this.meant(n, doc, lang).map(function (d) { return self.existing(d, n); }).filter(Boolean);
    if (!targets.length) return [null, [], []];
    var chosen = targets;
    if (targets.length > 1 && ui) {
      chosen = targets.filter(function (x) { return self.lang[x.doc] === ui; });
      if (!chosen.length) chosen = targets;
    }
    var pinned = chosen.map(function (x) { return [x.doc, x.unit, x.clause]; });
    if (this.laws.indexOf(chosen[0].doc) >= 0) {
      var docs = new Set(chosen.map(function (x) { return x.doc; }));
      this.laws.forEach(function (d) {
        var other = docs.has(d) ? null : self.existing(d, n);
        if (other) pinned.push([d, other.unit, other.clause]);
      });
    }
    return chosen.length === 1 ? [chosen[0], [], pinned] : [null, chosen, pinned];
  };

  Numbers.prototype.meant = function (n, doc, lang) {
    var self = this;
    if (n.doc) return (!doc || doc === n.doc) && (!lang || this.lang[n.doc] === lang) ? [n.doc] : [];
    for (var i = 0; i < n.wants.length; i++) {
      var pool = (doc ? this.all : this.inForce)[n.wants[i][0] + ":" + (n.wants[i][1] || "")] || [];
      var found = pool.filter(function (d) { return (!doc || d === doc) && (!lang || self.lang[d] === lang); });
      if (found.length) return found;
    }
    return [];
  };

  Numbers.prototype.existing = function (doc, n) {
    var ids = this.ids[doc];
    var unit = n.appendix ? (Object.prototype.hasOwnProperty.call(ids.appendix, n.article) ? ids.appendix[n.article] : null)
      : unitNumbered(ids.units, n.article);
    if (unit === null) return null;
    var clauses = new Map((ids.units[unit] || []).map(function (c) { return [c[0], c[1]]; }));
    var clause = n.clause, across = this.across[doc] || {};
    var moved = Object.prototype.hasOwnProperty.call(across, clause) ? across[clause] : null;
    if (!clauses.has(clause) && moved !== null && clauses.has(moved)) clause = moved;  // another edition's number
    while (!clauses.has(clause) && clause.length > n.article.length) clause = clause.slice(0, -1);
    if (unit !== n.article) clause = unit;  // norm 92-93 is the norm of Law 92
    return { doc: doc, unit: unit, clause: clause, label: clauses.has(clause) ? clauses.get(clause) : clause,
             title: ids.titles[unit], url: urlFor(doc, unit, clause), exact: clause === n.clause };
  };

  function unitNumbered(units, number) {
    if (Object.prototype.hasOwnProperty.call(units, number)) return number;
    var found = Object.keys(units).find(function (u) {
      var r = /^(\d+)-(\d+)$/.exec(u);
      return r && +r[1] <= +number && +number <= +r[2];
    });
    return found === undefined ? null : found;
  }

  function urlFor(doc, unit, clause) {  // kb.urls.url_for
    return "/" + doc + "/" + unit + (clause && clause !== unit ? "#" + clause : "");
  }

  // ================================================================ snippets.py
  function Snippets(analysis, tuning) { this.a = analysis; this.tuning = tuning; this.read = new Map(); }

  Snippets.prototype.window = function (text, p, lang) {  // [start, end, spans]
    var r = this.words(text, lang), found = new Set(), t = this.tuning;
    p.words.forEach(function (w) { (r.byWord.get(w) || []).forEach(function (i) { found.add(i); }); });
    (p.stems[lang] || []).concat(p.expansions[lang] || []).forEach(function (s) {
      (r.byStem.get(s) || []).forEach(function (i) { found.add(i); });
    });
    var spans = Array.from(found).sort(function (x, y) { return x - y; }).map(function (i) { return r.words[i]; });
    var start = spans.length ? Math.max(0, spans[0][0] - t.snippet_lead) : 0;
    if (start) start = text.lastIndexOf(" ", start - 1) + 1;
    var end = Math.min(text.length, start + t.snippet_chars);
    if (end < text.length) {
      var space = end > start ? text.lastIndexOf(" ", end - 1) : -1;
      end = Math.max(space >= start ? space : -1, start + 1);
    }
    return [start, end, spans.filter(function (s) { return s[0] >= start && s[1] <= end; })];
  };

  Snippets.prototype.parts = function (text, p, lang) {  // [[text, marked?]...]: snippet()'s pieces
    var w = this.window(text, p, lang), start = w[0], end = w[1], out = [], pos = start;
    if (start) out.push(["…", false]);
    w[2].forEach(function (s) {
      out.push([text.slice(pos, s[0]), false], [text.slice(s[0], s[1]), true]);
      pos = s[1];
    });
    out.push([text.slice(pos, end), false]);
    if (end < text.length) out.push(["…", false]);
    return out.filter(function (x) { return x[0]; });
  };

  Snippets.prototype.words = function (text, lang) {
    var key = lang + "\u0000" + text, r = this.read.get(key), a = this.a;
    if (r) return r;
    var words = a.positions(text).map(function (x) { return [x[0], x[1], x[3], a.firstTerm(lang, x[2])]; });
    var byWord = new Map(), byStem = new Map();
    words.forEach(function (x, i) {
      if (!byWord.has(x[2])) byWord.set(x[2], []);
      byWord.get(x[2]).push(i);
      if (!byStem.has(x[3])) byStem.set(x[3], []);
      byStem.get(x[3]).push(i);
    });
    r = { words: words, byWord: byWord, byStem: byStem };
    if (this.read.size > 8192) this.read.clear();
    this.read.set(key, r);
    return r;
  };

  // ================================================================ words.py
  function Words(model, scorer, phrasebook, analysis) {
    var h = model.header, self = this;
    this.tuning = model.tuning;
    this.langs = model.langs;
    this.scorer = scorer;
    this.analysis = analysis;
    this.analyzers = h.analyzers;
    this.known = new Set(h.known);
    this.anyStop = new Set();
    Object.keys(h.words.stop).forEach(function (l) { h.words.stop[l].forEach(function (w) { self.anyStop.add(w); }); });
    this.saidWords = phrasebook.words();
    this.bridgeWords = phrasebook.words(false);
    this.otherGameNames = new Set(h.other_game_names);
    this.lawsInForce = h.laws_in_force;
    this.docLang = {};
    model.documents.forEach(function (d) { self.docLang[d.id] = d.lang; });
    this.otherGameDocs = new Uint8Array(model.docCount);
    for (var d = 0; d < model.docCount; d++) this.otherGameDocs[d] = h.docs[h.units[model.rowUnit[d]][0]].other_game ? 1 : 0;
    this.unknownCache = new Map();
  }

  Words.prototype.cognates = function (p, prefer) {  // foreign to the reader's language, the others' texts have them
    var t = this.tuning, sc = this.scorer, a = this.analysis;
    if (!prefer) return new Set();
    return new Set(p.words.filter(function (w) {
      return codePoints(w) >= t.cognate_min && sc.docFrequency("body_" + prefer, a.firstTerm(prefer, w) || w) === 0 &&
        sc.docFrequency("plain", w) > 0;
    }));
  };

  Words.prototype.story = function (p) {  // enough words the texts or the phrasebook know
    var self = this;
    return p.words.filter(function (w) { return !self.analysis.isDigits(w) && !self.unknown(w); }).length >=
      this.tuning.story_words;
  };

  Words.prototype.unknown = function (word) {
    var had = this.unknownCache.get(word);
    if (had === undefined) {
      had = this.isUnknown(word);
      if (this.unknownCache.size > 8192) this.unknownCache.clear();
      this.unknownCache.set(word, had);
    }
    return had;
  };

  Words.prototype.isUnknown = function (word) {
    var self = this;
    if (this.scorer.docFrequency("plain", word) || this.analysis.light(word).some(function (w) { return self.known.has(w); })) {
      return false;
    }
    if (this.anyStop.has(word) || this.said(word, this.analyzers, this.saidWords)) return false;
    return !this.langs.some(function (l) { return self.inLanguage(word, l); });
  };

  Words.prototype.said = function (word, langs, said) {
    var a = this.analysis;
    return langs.some(function (l) { return a.terms(l, word).some(function (s) { return said.has(l + " " + s); }); });
  };

  Words.prototype.aboutOtherGame = function (p) {
    var t = this.tuning, self = this, votes = 0;
    if (p.words.some(function (w) { return self.otherGameNames.has(w); })) return true;
    var foreign = this.analyzers.filter(function (l) { return self.langs.indexOf(l) < 0; });
    p.words.forEach(function (w) {
      if (codePoints(w) < t.game_word_min || self.said(w, foreign, self.bridgeWords)) return;
      var docs = self.scorer.postings("plain", w).docs;
      if (docs.length < t.game_word_docs) return;
      var other = 0;
      for (var i = 0; i < docs.length; i++) other += self.otherGameDocs[docs[i]];
      var share = other / docs.length;
      votes += share >= t.other_game_share ? 1 : share <= t.bridge_share ? -1 : 0;
    });
    return votes > 0;
  };

  Words.prototype.readerLanguage = function (p, ui) {
    if (this.langs.indexOf(p.writtenIn) >= 0) return p.writtenIn;
    if (ui || p.writtenIn) return this.lawsInForce ? this.docLang[this.lawsInForce] : null;
    return this.languageOf(p);
  };

  Words.prototype.languageOf = function (p) {
    if (p.writtenIn) return p.writtenIn;
    var sc = this.scorer;
    var known = this.langs.map(function (l) {
      return [p.stems[l].filter(function (s) { return sc.docFrequency("body_" + l, s); }).length, l];
    }).sort(function (x, y) { return y[0] - x[0] || (y[1] < x[1] ? -1 : y[1] > x[1] ? 1 : 0); });
    if (known.length < 2 || known[0][0] === known[1][0]) return null;
    return known[0][1];
  };

  Words.prototype.suggestion = function (p, unknown, lang) {  // [the corrected query, may it be shown?]
    var self = this, ours = this.langs.indexOf(lang) >= 0;
    var tries = (ours ? [lang] : this.langs).map(function (l) { return self.corrected(p, unknown, l); });
    var best = tries[0];
    tries.forEach(function (x) { if (x[1] > best[1]) best = x; });  // the first language wins a tie
    var shown = ours || (lang === null && best[1] === unknown.size);
    return best[1] ? [best[0].join(" "), shown] : [null, false];
  };

  Words.prototype.corrected = function (p, unknown, lang) {
    var self = this, sc = this.scorer, changed = 0, t = this.tuning;
    var words = p.words.map(function (w) {
      var maxdist = codePoints(w) > t.correction_long ? 2 : 1;
      var near = unknown.has(w) ? sc.near(w, maxdist, 1).filter(function (c) { return self.inLanguage(c, lang); }) : [];
      if (!near.length) return w;
      changed++;
      return near.map(function (c) { return [editDistance(c, w, maxdist), -sc.frequency(c), c]; })
        .sort(function (x, y) { return x[0] - y[0] || x[1] - y[1] || cmp(x[2], y[2]); })[0][2];
    });
    return [words, changed];
  };

  Words.prototype.inLanguage = function (word, lang) {
    var sc = this.scorer;
    return this.analysis.terms(lang, word).some(function (s) { return sc.docFrequency("body_" + lang, s); });
  };

  // ================================================================ engine.py
  function Engine(model) {
    var h = model.header, self = this;
    this.model = model;
    this.tuning = model.tuning;
    this.build = model.build;
    this.langs = model.langs;
    this.analysis = new Analysis(h.words);
    this.query = new Query(model, this.analysis);
    this.documents = model.documents.map(function (d) { return d.id; });
    this.kinds = h.kinds;
    this.docLang = {};
    this.manifestLangs = dedupe(model.documents.map(function (d) { return d.lang; }));
    model.documents.forEach(function (d) { self.docLang[d.id] = d.lang; });
    this.otherGameIds = model.documents.filter(function (d) { return d.other_game; }).map(function (d) { return d.id; });
    this.named = !!h.numbers.before;  // the documents have names a number may follow
    this.scorer = new Scorer(model);
    this.phrasebook = new Phrasebook(model, this.analysis);
    this.reader = new Reader(h.story, this.analysis);
    this.ranker = new UnitRanker(model);
    this.numbers = new Numbers(model);
    this.snippets = new Snippets(this.analysis, model.tuning);
    this.words = new Words(model, this.scorer, this.phrasebook, this.analysis);
    this.powers = h.powers;
    this.bids = new Bids(h.words.bids);
    this.wordCache = new Map();
    var kind = {}, laws = h.laws;
    model.documents.forEach(function (d) { kind[d.id] = d.kind; });
    this.library = { lawsInForce: h.laws_in_force, laws: laws, kind: kind,  // kb.library.Library, as answer.py asks it
                     lawsIn: function (lang) { return laws.find(function (d) { return self.docLang[d] === lang; }) || null; } };
  }

  Engine.prototype.plan = function (q) { return this.query.plan(q, this.named, true); };

  Engine.prototype.search = function (q, options) {
    var o = options || {}, t = this.tuning, self = this;
    var doc = given(o.doc, null), lang = given(o.lang, null), kind = given(o.kind, null), ui = given(o.ui, null);
    var limit = given(o.limit, 10), page = given(o.page, 1);
    this.checkFilters(doc, lang, kind, limit, page);
    var p = this.plan(q);
    if (!p.words.length && !p.number) return result(p.text, 0, [], null, null, [], {}, page, limit, []);
    var shown = p.text;
    if (p.words.length >= t.aside_words) p = this.plan(this.reader.setAside(p.text));  // a story's noise aside
    var prefer = this.langs.indexOf(ui) >= 0 ? [ui, t.ui_preference] : [this.words.readerLanguage(p, ui), t.query_preference];
    var keep = this.keep(doc, lang, kind);
    var s = this.scores(p, keep, prefer[0]), scores = s[0], suggestion = s[1], correction = s[2];
    var otherGame = (doc !== null && this.otherGameIds.indexOf(doc) >= 0) || this.words.aboutOtherGame(p);
    var heard = [p.text, correction, this.bids.told(p.text, p.writtenIn || prefer[0])].filter(Boolean).join(" ");
    var structure = this.reader.read(heard);  // who acted, when, what was done
    var said = this.phrasebook.match(heard, t.entries, otherGame, structure);
    var evidence = Told.added(said, this.words.story(p), scores, t, this.powers), text = scores, total = new Float64Array(scores.length);
    for (var i = 0; i < scores.length; i++) total[i] = scores[i] + (keep ? evidence[i] * keep[i] : evidence[i]);
    var number = this.numbers.resolve(p.number, doc, lang, ui), jump = number[0], choices = number[1], pinned = number[2];
    if (!pinned.length) pinned = Told.titled(said, function (d) { return self.docLang[d] === prefer[0]; }, t);
    if (pinned.length) suggestion = null;  // the number found its clause: nothing to correct
    var units = this.ranker.rank(total, p.intent, prefer, otherGame, pinned, text);
    var facets = this.facets(units);
    units = units.filter(function (u) { return (!doc || u[0][0] === doc) && (!lang || self.docLang[u[0][0]] === lang); });
    var start = (page - 1) * limit;
    if (suggestion) p.words = p.words.concat(this.query.plan(suggestion, false, false).words);  // highlight them too
    var hits = units.slice(start, start + limit).map(function (u) { return self.hit(u[0], u[1], u[2], p); });
    var found = page === 1 ? this.answer(said, units, ui) : null;
    return result(shown, units.length, hits, suggestion, jump, choices, facets, page, limit, Told.named(said, ui, t), found);
  };

  Engine.prototype.answer = function (said, units, ui) {  // the answer card: the situation the first hits agree with
    var t = this.tuning, self = this;
    var m = Answer.chosen(said, units.slice(0, t.answer_hits).map(function (u) { return u[0]; }), t);
    if (!m) return null;
    var p = Answer.parts(m.entry, this.library, this.langs.indexOf(ui) >= 0 ? ui : null, t.answer_see);
    var out = { situation: { id: m.entry.id, name: entryName(m.entry, ui), url: m.entry.url } };
    ["ruling", "beside", "older", "time"].forEach(function (k) { out[k] = p[k] ? self.part(p[k]) : null; });
    out.see = p.see.map(function (x) { return self.part(x); });
    return out;
  };

  Engine.prototype.part = function (target) {  // a clause as an answer shows it, with the items of a list it opens
    var m = this.model, unit = this.ranker.number.get(target.doc + "\u0000" + target.unit);
    var rows = m.cards[unit] || [], wanted = target.clause || target.unit, row = rows[0];
    for (var i = 0; i < rows.length; i++) if (m.clauseNames[m.rowClause[rows[i]]] === wanted) { row = rows[i]; break; }
    var card = m.header.cards[row], clause = m.clauseNames[m.rowClause[row]], text = card[1];
    return { doc: target.doc, unit: target.unit, clause: clause, label: card[0], title: m.unitTitle[unit],
             lang: this.docLang[target.doc], text: text,
             items: /:$/.test(text.replace(/\s+$/, "")) ? this.items(unit, clause).filter(function (i) { return i[1] !== text; }) : [],
             url: urlFor(target.doc, target.unit, clause) };
  };

  Engine.prototype.items = function (unit, clause) {  // the clauses under `clause` in its unit, as [label, text]
    var m = this.model, out = [];
    (m.cards[unit] || []).forEach(function (row) {
      var name = m.clauseNames[m.rowClause[row]];
      if (name !== clause && name.indexOf(clause) === 0) out.push([m.header.cards[row][0], m.header.cards[row][1]]);
    });
    return out.slice(0, this.tuning.answer_items);
  };

  function given(value, otherwise) { return value === undefined || value === null ? otherwise : value; }

  function result(query, total, hits, suggestion, jump, choices, facets, page, limit, said, answer) {
    return { query: query, total: total, hits: hits, suggestion: suggestion, jump: jump, choices: choices,
             facets: facets, page: page, limit: limit, said: said, answer: answer || null };
  }

  // ---------------------------------------------------------------- scoring

  Engine.prototype.scores = function (p, keep, prefer) {  // [scores, suggestion, correction]
    var t = this.tuning, words = this.words;
    var scores = this.run(p, keep, new Set(), words.cognates(p, prefer));
    var unknown = new Set(p.words.filter(function (w) { return words.unknown(w); }));
    var found = unknown.size ? words.suggestion(p, unknown, words.languageOf(p)) : [null, false];
    var correction = found[0], suggestion = null;
    if (correction) {
      var corrected = this.run(this.query.plan(correction, false, true), keep, new Set(), new Set());
      if (found[1] && maxOf(corrected) > maxOf(scores) * (1 + t.rounding)) suggestion = correction;
      scores = maximum(scores, corrected);
    }
    if (p.words.length && (unknown.size || maxOf(scores) < t.weak_score)) {
      scores = maximum(scores, this.run(p, keep, unknown.size ? unknown : new Set(p.words), new Set()));
    }
    return [scores, suggestion, correction];
  };

  function maximum(x, y) {
    var out = new Float64Array(x.length);
    for (var i = 0; i < x.length; i++) out[i] = x[i] > y[i] ? x[i] : y[i];
    return out;
  }

  Engine.prototype.run = function (p, keep, fuzzy, cognates) {
    var t = this.tuning, n = this.scorer.docCount, self = this;
    var total = new Float64Array(n), matched = new Int32Array(n), bits = new Map();
    var langs = Object.keys(p.stems);
    var lists = p.words.map(function (w) { return [w, self.wordScores(w, langs, fuzzy.has(w), cognates.has(w))]; });
    if (langs.some(function (l) { return p.expansions[l].length; })) {
      lists.push([EXPANDED, this.translationScores(p.expansions)]);
    }
    lists.forEach(function (l) {
      if (!bits.has(l[0])) bits.set(l[0], 1 << bits.size);
      var bit = bits.get(l[0]), docs = l[1].docs, values = l[1].values;
      for (var i = 0; i < docs.length; i++) { total[docs[i]] += values[i]; matched[docs[i]] |= bit; }
    });
    var approximate = bits.has(EXPANDED) ? bits.get(EXPANDED) : 0, words = Math.max(p.words.length, 1);
    var out = new Float64Array(n), base = t.coord_base, least = t.expansion_coord;
    for (var d = 0; d < n; d++) {
      var m = keep ? matched[d] * keep[d] : matched[d];
      if (m <= 0) continue;
      var coord = popcount(m & ~approximate) / words;
      if (approximate && (m & approximate)) coord = Math.max(coord, least);
      out[d] = total[d] * (base + (1 - base) * coord);
    }
    return out;
  };

  function popcount(x) {
    var count = 0;
    while (x) { count += x & 1; x >>>= 1; }
    return count;
  }

  Engine.prototype.wordScores = function (word, langs, fuzzy, cognate) {
    var key = word + "\u0000" + langs.join(",") + "\u0000" + fuzzy + cognate, had = this.wordCache.get(key);
    if (had === undefined) {
      had = this.summedQueries(this.query.wordQueries(word, langs, fuzzy, cognate));
      if (this.wordCache.size > 2048) this.wordCache.clear();
      this.wordCache.set(key, had);
    }
    return had;
  };

  Engine.prototype.translationScores = function (expansions) {
    return this.summedQueries(this.query.expansionQueries(expansions));
  };

  Engine.prototype.summedQueries = function (queries) {
    var sc = this.scorer;
    return summed(queries.map(function (q) { return sc.matches(q); }), sc.docCount);
  };

  Engine.prototype.keep = function (doc, lang, kind) {  // 0/1 per index document, or null
    if (!(doc || lang || kind)) return null;
    var m = this.model, out = new Int32Array(m.docCount);
    for (var d = 0; d < out.length; d++) {
      var u = m.rowUnit[d], unitDoc = m.units[u][0];
      out[d] = (!doc || unitDoc === doc) && (!lang || this.docLang[unitDoc] === lang) && (!kind || m.unitKind[u] === kind) ? 1 : 0;
    }
    return out;
  };

  // ---------------------------------------------------------------- hits

  Engine.prototype.hit = function (key, best, score, p) {
    var m = this.model, doc = key[0], unit = this.ranker.number.get(key[0] + "\u0000" + key[1]);
    var rows = m.cards[unit] || [], row = rows[0];
    for (var i = 0; i < rows.length; i++) if (m.clauseNames[m.rowClause[rows[i]]] === best) { row = rows[i]; break; }
    var card = m.header.cards[row], clause = m.clauseNames[m.rowClause[row]], lang = this.docLang[doc];
    return { doc: doc, unit: key[1], clause: clause, kind: m.unitKind[unit], title: m.unitTitle[unit], lang: lang,
             snippet: this.snippets.parts(card[1], p, lang), url: urlFor(doc, key[1], clause), score: score,
             label: card[0], parallel: card[2].map(function (x) {
               return { doc: x[0], unit: x[1], clause: x[2], label: x[3], relation: x[4], url: x[5] };
             }) };
  };

  Engine.prototype.checkFilters = function (doc, lang, kind, limit, page) {
    if (doc !== null && this.documents.indexOf(doc) < 0) {
      throw new QueryError("unknown document '" + doc + "'; documents: " + this.documents.join(", "));
    }
    if (lang !== null && this.langs.indexOf(lang) < 0) {
      throw new QueryError("unknown language '" + lang + "'; languages: " + this.langs.join(", "));
    }
    if (kind !== null && this.kinds.indexOf(kind) < 0) {
      throw new QueryError("unknown kind '" + kind + "'; kinds: " + this.kinds.join(", "));
    }
    if (!(limit >= 1 && limit <= 100)) throw new QueryError("limit must be between 1 and 100");
    if (!(page >= 1 && page <= 1000)) throw new QueryError("page must be between 1 and 1000");
  };

  Engine.prototype.facets = function (units) {
    var byDoc = {}, self = this, langs = {}, out = {};
    units.forEach(function (u) { byDoc[u[0][0]] = (byDoc[u[0][0]] || 0) + 1; });
    Object.keys(byDoc).sort().forEach(function (d) { out[d] = byDoc[d]; });
    this.manifestLangs.forEach(function (l) {
      var n = 0;
      Object.keys(byDoc).forEach(function (d) { if (self.docLang[d] === l) n += byDoc[d]; });
      if (n) langs[l] = n;
    });
    return { doc: out, lang: langs };
  };

  var KBSearch = {
    Engine: Engine,
    parse: parse,
    open: function (buffer) { return new Engine(parse(buffer)); },
    verified: verified,
    load: function (url) {
      return fetch(url).then(function (r) {
        if (!r.ok) throw new ModelError("search model: HTTP " + r.status);
        return r.arrayBuffer();
      }).then(verified).then(function (buffer) { return new Engine(parse(buffer)); });
    },
    QueryError: QueryError,
    ModelError: ModelError,
  };
  var loaded = {};
  KBSearch.shared = function (url) {  // one engine per model and page, whichever script asks first
    if (!loaded[url]) {
      loaded[url] = KBSearch.load(url);
      loaded[url].catch(function () { delete loaded[url]; });
    }
    return loaded[url];
  };
  if (typeof module !== "undefined" && module.exports) module.exports = KBSearch;
  else root.KBSearch = KBSearch;
})(this);
