// Search without a server: the build's browser index (kb/search/offline.py), planned, scored
// and ranked as the engine (kb/search/engine.py) does, more simply (no cognates, no "did you
// mean"). KBSearch.load(url) → an engine whose search(q, ui, limit) returns
// {jump, hits: [{doc, unit, clause, label, title, url, snippet: [[text, marked]...]}], said, total}.
(function (root) {
  "use strict";

  function fold(s) { return s.normalize("NFKD").replace(/[\u0300-\u036f]/g, ""); }
  function words(s) { return s.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []; }
  function dedupe(xs) { return Array.from(new Set(xs)); }
  function light(text, shared) {  // glossary.light: plain words, plural and final vowel off
    return plain(text, shared).map(function (w) {
      if (w.length > 4 && w.endsWith("s")) w = w.slice(0, -1);
      if (w.length > 4 && "aeiou".indexOf(w[w.length - 1]) >= 0) w = w.slice(0, -1);
      return w;
    });
  }
  function plain(text, shared) {  // the `plain` analyzer: words, shared stop words out, accents folded
    return words(text).filter(function (w) { return w.length >= 2 && !shared.has(w); }).map(fold);
  }
  function contains(ws, seq) {
    outer: for (var i = 0; i + seq.length <= ws.length; i++) {
      for (var j = 0; j < seq.length; j++) if (ws[i + j] !== seq[j]) continue outer;
      return true;
    }
    return false;
  }
  function editDistance(a, b, limit) {  // Damerau–Levenshtein, giving up past limit
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var prev2 = [], prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur.push(v);
        if (v < best) best = v;
      }
      if (best > limit) return limit + 1;
      prev2 = prev; prev = cur;
    }
    return prev[b.length];
  }
  function urlFor(doc, unit, clause) {
    return "/" + doc + "/" + unit + (clause && clause !== unit ? "#" + clause : "");
  }

  function Engine(data) {
    var self = this;
    this.data = data;
    this.w = data.weights;
    this.langs = data.langs;
    this.analyzers = data.words.analyzers;
    this.shared = new Set(data.words.shared_stop);
    this.question = new Set(data.words.question);
    this.stop = {};
    this.own = {};
    this.analyzers.forEach(function (l) {
      self.stop[l] = new Set(data.words.stop[l]);
      self.own[l] = new Set(data.words.own_stop[l]);
    });
    this.intents = data.words.intents.map(function (i) { return [i[0], new RegExp(i[1], "iu")]; });  // the first wins
    this.bids = data.words.bids || null;  // older data: no bids read
    if (this.bids) {
      this.bidPattern = new RegExp(this.bids.bid, "giu");
      this.bidOver = new RegExp(this.bids.over, "iu");
      this.bidMeant = new RegExp(this.bids.meant, "iu");
    }
    this.n = data.clauses.length;
    this.docOf = data.clauses.map(function (c) { return data.units[c[0]][0]; });
    this.lang = data.docs.map(function (d) { return d.lang; });
    this.otherGameDoc = data.docs.map(function (d) { return data.other_game.indexOf(d.id) >= 0; });
    this.vocabulary = Object.keys(data.terms).filter(function (k) { return k.startsWith("p:"); })
      .map(function (k) { return k.slice(2); }).sort();
    this.byFirst = {};
    this.vocabulary.forEach(function (v) { (self.byFirst[v[0]] = self.byFirst[v[0]] || []).push(v); });
    this.otherGameNames = new Set(data.other_game_names);
    this.lifts = data.lifts;
    this.parallel = data.parallel;
    this._phrasebook(data.phrasebook);
    this.numbers = new Numbers(data.numbers, data.docs);
  }

  Engine.prototype.postings = function (key) {
    var p = this.data.terms[key];
    if (!p) return null;
    if (!p.docs) {  // decoded once: gaps → document numbers
      var docs = new Int32Array(p[0].length), last = 0;
      for (var i = 0; i < docs.length; i++) { last += p[0][i]; docs[i] = last; }
      this.data.terms[key] = p = { docs: docs, scores: p[1] };
    }
    return p;
  };

  Engine.prototype.stemOf = function (word, lang) {
    var f = this.data.forms[word];
    if (!f) return this.stop[lang].has(word) ? "" : word;
    return f[this.analyzers.indexOf(lang)];
  };

  Engine.prototype.plan = function (text) {
    var self = this;
    text = text.normalize("NFKC").replace(/\s+/g, " ").trim();
    var said = this.intents.find(function (i) { return i[1].test(text); }), intent = said ? said[0] : null;
    var body = intent === "definition" ? text.replace(new RegExp(said[1].source, "giu"), " ") : text;
    var ws = dedupe(plain(body, this.shared)).filter(function (w) { return !self.question.has(w); })
      .slice(0, this.w.max_words);
    var p = { text: text, words: ws, stems: {}, expansions: {}, intent: intent, writtenIn: this.writtenIn(text) };
    this.langs.forEach(function (l) {
      p.stems[l] = dedupe(ws.map(function (w) { return self.stemOf(w, l); }).filter(Boolean));
      p.expansions[l] = [];
    });
    var lw = light(body, this.shared), lset = new Set(lw);
    this.data.expansions.forEach(function (e) {
      var seq = e[0], anyOrder = e[1];
      var found = anyOrder ? seq.every(function (w) { return lset.has(w); }) : contains(lw, seq);
      if (!found) return;
      Object.keys(e[2]).forEach(function (l) {
        if (!p.expansions[l]) return;
        e[2][l].forEach(function (s) {
          if (p.stems[l].indexOf(s) < 0 && p.expansions[l].indexOf(s) < 0) p.expansions[l].push(s);
        });
      });
    });
    p.number = this.numbers.parse(text);
    return p;
  };

  // What a story's bids tell (kb/search/bids.py): a bid right after another of its level, in a
  // lower denomination, is insufficient.
  Engine.prototype.bidsTold = function (text, lang) {
    var b = this.bids, name = b && b.names[lang], found = [], m;
    if (!name || this.bidMeant.test(text)) return "";
    var size = b.denominations.length;
    this.bidPattern.lastIndex = 0;
    while ((m = this.bidPattern.exec(text))) {
      var d = b.denominations.split("").findIndex(function (k) { return m.groups[k] !== undefined; });
      found.push([m.index, m.index + m[0].length, parseInt(m[1], 10) * size + d]);
    }
    var order = found.map(function (f) { return f[2]; });
    for (var i = 0; i + 1 < found.length; i++) {
      if (this.bidOver.test(text.slice(found[i][1], found[i + 1][0]))) order.splice(i, 2, order[i + 1], order[i]);
    }
    for (var j = 1; j < order.length; j++) {
      if (order[j] < order[j - 1] && Math.floor(order[j] / size) === Math.floor(order[j - 1] / size)) return name;
    }
    return "";
  };

  Engine.prototype.writtenIn = function (text) {
    var ws = words(text), own = this.own;
    var votes = this.analyzers.map(function (l) {
      return [ws.filter(function (w) { return own[l].has(w); }).length, l];
    }).sort(function (a, b) { return b[0] - a[0] || (b[1] < a[1] ? -1 : 1); });
    return votes[0][0] > (votes.length > 1 ? votes[1][0] : 0) ? votes[0][1] : null;
  };

  // ---------------------------------------------------------------- scoring

  Engine.prototype.run = function (p, fuzzy) {
    var self = this, w = this.w;
    var total = new Float64Array(this.n), matched = new Uint32Array(this.n), bits = {};
    function add(bit, postings, boost, constant) {
      if (!postings) return;
      for (var i = 0; i < postings.docs.length; i++) {
        var d = postings.docs[i];
        total[d] += constant ? boost : boost * postings.scores[i];
        matched[d] |= bit;
      }
    }
    function best(bit, keys, boost, constant) {  // a word's family: each document's best member
      var top = new Map();
      keys.forEach(function (k) {
        var ps = self.postings(k);
        if (!ps) return;
        for (var i = 0; i < ps.docs.length; i++) {
          var v = constant ? boost : boost * ps.scores[i];
          if (!(top.get(ps.docs[i]) >= v)) top.set(ps.docs[i], v);
        }
      });
      top.forEach(function (v, d) { total[d] += v; matched[d] |= bit; });
    }
    p.words.forEach(function (word, i) {
      var bit = bits[word] = 1 << Math.min(i, 30);
      add(bit, self.postings("p:" + word), w.plain_boost);
      if (word.length <= 4 && /^\p{L}+$/u.test(word)) add(bit, self.postings("p:" + word + "s"), w.plain_boost);
      self.langs.forEach(function (l) {
        var s = self.stemOf(word, l);
        if (s) add(bit, self.postings(l + ":" + s), 1.0);
      });
      if (word.length >= w.prefix_min && !/^\d+$/.test(word)) {
        best(bit, self.prefixed(word.slice(0, Math.max(w.prefix_min, Math.round(word.length * 0.6)))), w.prefix_boost);
      }
      if (fuzzy.has(word)) best(bit, self.near(word, word.length > 6 ? 2 : 1), w.fuzzy_boost, true);
    });
    var approx = 1 << 31 >>> 0;
    this.langs.forEach(function (l) {
      p.expansions[l].forEach(function (s) { add(approx, self.postings(l + ":" + s), w.expansion_boost); });
    });
    var out = new Float64Array(this.n), nWords = Math.max(p.words.length, 1);
    for (var d = 0; d < this.n; d++) {
      var m = matched[d];
      if (!m) continue;
      var own = m & ~approx & 0x7fffffff, count = 0;
      while (own) { count += own & 1; own >>>= 1; }
      var coord = count / nWords;
      if (m & approx) coord = Math.max(coord, 0.8);
      out[d] = total[d] * (w.coord_base + (1 - w.coord_base) * coord);
    }
    return out;
  };

  Engine.prototype.prefixed = function (prefix) {
    var v = this.vocabulary, lo = 0, hi = v.length, out = [];
    while (lo < hi) { var mid = (lo + hi) >> 1; if (v[mid] < prefix) lo = mid + 1; else hi = mid; }
    for (var i = lo; i < v.length && out.length < 64 && v[i].startsWith(prefix); i++) out.push("p:" + v[i]);
    return out;
  };

  Engine.prototype.near = function (word, maxdist) {
    return (this.byFirst[word[0]] || []).filter(function (v) {
      return v !== word && Math.abs(v.length - word.length) <= maxdist && editDistance(v, word, maxdist) <= maxdist;
    }).slice(0, 64).map(function (v) { return "p:" + v; });
  };

  Engine.prototype.unknown = function (word) {
    return !this.data.forms[word] && !this.data.terms["p:" + word];
  };

  Engine.prototype.scores = function (p) {
    var self = this;
    var unknown = new Set(p.words.filter(function (w) { return self.unknown(w); }));
    var scores = this.run(p, unknown);
    var top = 0;
    for (var i = 0; i < scores.length; i++) if (scores[i] > top) top = scores[i];
    if (p.words.length && !unknown.size && top < this.w.weak_score) {
      var all = this.run(p, new Set(p.words));
      for (i = 0; i < scores.length; i++) scores[i] = Math.max(scores[i], all[i]);
    }
    return scores;
  };

  // ---------------------------------------------------------------- which game, which language

  Engine.prototype.aboutOtherGame = function (p) {
    var self = this, w = this.w, votes = 0;
    if (p.words.some(function (x) { return self.otherGameNames.has(x); })) return true;
    p.words.forEach(function (x) {
      if (x.length < w.game_word_min || self.englishSaid(x)) return;
      var ps = self.postings("p:" + x);
      if (!ps || ps.docs.length < w.game_word_docs) return;
      var other = 0;
      for (var i = 0; i < ps.docs.length; i++) if (self.otherGameDoc[self.docOf[ps.docs[i]]]) other++;
      var share = other / ps.docs.length;
      votes += share >= w.other_game_share ? 1 : share <= w.bridge_share ? -1 : 0;
    });
    return votes > 0;
  };

  Engine.prototype.englishSaid = function (word) {  // a word of a language no text is in
    var self = this;
    return this.analyzers.some(function (l) {
      return self.langs.indexOf(l) < 0 && self.said[l] && self.said[l].has(self.stemOf(word, l));
    });
  };

  Engine.prototype.readerLanguage = function (p, ui) {
    var self = this;
    if (this.langs.indexOf(p.writtenIn) >= 0) return p.writtenIn;
    if (ui || p.writtenIn) return this.lang[0];  // the Laws in force come first in the manifest's order
    var known = this.langs.map(function (l) {
      return [p.stems[l].filter(function (s) { return self.data.terms[l + ":" + s]; }).length, l];
    }).sort(function (a, b) { return b[0] - a[0]; });
    return known.length > 1 && known[0][0] !== known[1][0] ? known[0][1] : null;
  };

  // ---------------------------------------------------------------- the phrasebook

  Engine.prototype._phrasebook = function (book) {
    var self = this;
    this.entries = book.entries;
    this.numberWords = {};  // "otto" is said as "8"
    Object.keys(book.numbers).forEach(function (l) { self.numberWords[l] = new Map(Object.entries(book.numbers[l])); });
    this.phrases = { bridge: {}, other: {} };  // a book per game and language: each weighs its words among its own
    this.said = {};
    var books = [];
    Object.keys(book.phrases).forEach(function (l) {
      ["bridge", "other"].forEach(function (game) {
        var rows = book.phrases[l].filter(function (r) { return !!book.entries[r[0]].other_game === (game === "other"); });
        if (rows.length) books.push([game, l, rows]);
      });
      self.said[l] = new Set();
    });
    books.forEach(function (g) {
      var game = g[0], l = g[1], rows = g[2], df = new Map(), byStem = new Map(), using = new Map();  // stem → entries whose phrasings use it
      rows.forEach(function (r) { r[1].split(" ").forEach(function (s) { if (s) df.set(s, (df.get(s) || 0) + 1); }); });
      var idf = new Map(), maxIdf = 1;
      df.forEach(function (n, s) { var v = Math.log(1 + rows.length / n); idf.set(s, v); maxIdf = Math.max(maxIdf, v); });
      var weights = rows.map(function (r, i) {
        var sum = 0;
        r[1].split(" ").forEach(function (s) {
          if (!s) return;
          sum += idf.get(s);
          if (!byStem.has(s)) byStem.set(s, []);
          byStem.get(s).push(i);
          if (!using.has(s)) using.set(s, new Set());
          using.get(s).add(r[0]);
        });
        return sum;
      });
      self.phrases[game][l] = { rows: rows, idf: idf, maxIdf: maxIdf, weights: weights, byStem: byStem, using: using };
      if (game === "bridge") df.forEach(function (n, s) { self.said[l].add(s); });  // English bridge players say them too
    });
  };

  Engine.prototype.match = function (text, limit, otherGame) {  // the situations of the query's game
    var self = this, best = new Map(), books = this.phrases[otherGame ? "other" : "bridge"];
    Object.keys(books).forEach(function (l) {
      var book = books[l], stop = self.stop[l];
      var ws = words(text), digits = self.numberWords[l] || new Map();
      var notStop = function (t) { return !stop.has(fold(t)); }, storyWords = dedupe(ws.filter(notStop));
      var query = dedupe(ws.map(function (t) { return digits.get(t) || t; }).filter(notStop)
        .map(function (t) { return self.stemOf(fold(t), l); }).filter(Boolean));
      if (!query.length) return;
      var shared = new Map(), qWeight = 0;
      query.forEach(function (s) {
        qWeight += book.idf.has(s) ? book.idf.get(s) : book.maxIdf;
        (book.byStem.get(s) || []).forEach(function (i) { shared.set(i, (shared.get(i) || 0) + book.idf.get(s)); });
      });
      var covered = null;  // a story: per entry, the share of the query its phrasings say together
      if (storyWords.length >= self.w.story_size) {
        covered = new Map();
        query.forEach(function (s) {
          (book.using.get(s) || []).forEach(function (e) { covered.set(e, (covered.get(e) || 0) + book.idf.get(s)); });
        });
      }
      shared.forEach(function (v, i) {
        var strength = v / Math.sqrt(qWeight * book.weights[i]), share = self.w.phrase_share;
        if (covered) strength = Math.max(strength, share * strength + (1 - share) * covered.get(book.rows[i][0]) / qWeight);
        if (strength < self.w.min_match) return;
        var entry = book.rows[i][0], had = best.get(entry);  // an entry: {id, targets, title, names, other_game}
        if (!had || strength > had.strength) best.set(entry, { entry: self.entries[entry], strength: strength });
      });
    });
    return Array.from(best.values()).sort(function (a, b) {
      return b.strength - a.strength || (a.entry.id < b.entry.id ? -1 : 1);
    }).slice(0, limit);
  };

  Engine.prototype.evidence = function (matches, story, scores) {
    var w = this.w, extra = new Float64Array(this.n);
    if (!matches.length) return extra;
    var top = w.weak_score;
    for (var i = 0; i < scores.length; i++) if (scores[i] > top) top = scores[i];
    var told = story ? w.story_weight : w.name_weight, rank = 0;
    matches.forEach(function (m) {
      if (!story && m.strength < w.name_min) return;
      var seen = {};
      m.entry.targets.forEach(function (t) {
        var n = story ? t[1] : t[2];
        if (n >= 0) {
          var weight = t[3] ? told : told * w.not_lead;
          var v = weight * m.strength * top * Math.pow(w.decay, seen[t[0]] || 0) * Math.pow(w.rank_decay, rank);
          if (v > extra[n]) extra[n] = v;
        }
        seen[t[0]] = (seen[t[0]] || 0) + 1;
      });
      rank++;
    });
    return extra;
  };

  // ---------------------------------------------------------------- ranking

  Engine.prototype.rank = function (scores, p, prefer, otherGame, lifting) {  // lifting: the text's scores alone
    var data = this.data, w = this.w, units = data.units, nu = units.length;
    var best = new Float64Array(nu), second = new Float64Array(nu), third = new Float64Array(nu);
    var whole = new Float64Array(nu), present = new Uint8Array(nu), bestClause = new Array(nu);
    function take(u, s, clause) {
      if (s > best[u]) { third[u] = second[u]; second[u] = best[u]; best[u] = s; bestClause[u] = clause; }
      else if (s > second[u]) { third[u] = second[u]; second[u] = s; }
      else if (s > third[u]) third[u] = s;
    }
    for (var d = 0; d < this.n; d++) {
      if (!scores[d]) continue;
      var c = data.clauses[d];
      present[c[0]] = 1;
      if (c[1] === "*") whole[c[0]] = scores[d]; else take(c[0], scores[d], c[1]);
    }
    lifting = lifting || scores;
    this.lifts.forEach(function (l) {
      if (lifting[l[0]] > 0) { present[l[1]] = 1; take(l[1], lifting[l[0]] * w.link_lift, l[2]); }
    });
    var total = new Float64Array(nu);
    for (var u = 0; u < nu; u++) total[u] = best[u] + w.second_clause_weight * (second[u] + third[u]) + w.unit_weight * whole[u];
    var out = Float64Array.from(total);
    this.parallel.forEach(function (pr) {
      if (present[pr[0]]) { out[pr[1]] += w.parallel_lift * total[pr[0]]; present[pr[1]] = 1; }
    });
    var ranked = [];
    var demote = p.intent && w.intent_demote[p.intent];  // what a term means: the Laws' wording first
    for (u = 0; u < nu; u++) {
      if (!present[u]) continue;
      var kind = units[u][2], doc = units[u][0], weight = w.kind_weight[kind] || 1.0;
      if (demote && demote[0].indexOf(kind) >= 0) weight = demote[1];
      if (p.intent && w.intent_boost[p.intent] && w.intent_boost[p.intent][0].indexOf(kind) >= 0) weight *= w.intent_boost[p.intent][1];
      if (prefer[0] && this.lang[doc] === prefer[0]) weight *= prefer[1];
      if (this.otherGameDoc[doc] !== otherGame) weight *= w.other_game_weight;
      ranked.push([u, out[u] * weight, bestClause[u] || units[u][1]]);
    }
    return ranked.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
  };

  Engine.prototype.search = function (q, ui, limit) {
    var self = this, data = this.data;
    limit = limit || 10;
    var p = this.plan(q);
    if (!p.words.length && !p.number) return { total: 0, hits: [], said: [], jump: null };
    var prefer = this.langs.indexOf(ui) >= 0 ? [ui, this.w.ui_preference] : [this.readerLanguage(p, ui), this.w.query_preference];
    var scores = this.scores(p);
    var otherGame = this.aboutOtherGame(p);
    var heard = [p.text, this.bidsTold(p.text, p.writtenIn || prefer[0])].filter(Boolean).join(" ");
    var said = this.match(heard, this.w.entries, otherGame);
    var story = p.words.filter(function (x) { return !/^\d+$/.test(x) && !self.unknown(x); }).length >= this.w.story_words;
    var extra = this.evidence(said, story, scores), text = Float64Array.from(scores);
    for (var i = 0; i < scores.length; i++) scores[i] += extra[i];
    var number = this.numbers.resolve(p.number, ui);
    var pinned = number.pinned.map(function (t) { return { unit: self.unitNumber(t.doc, t.unit), clause: t.clause }; })
      .filter(function (t) { return t.unit !== undefined; });
    var titled = said.find(function (m) { return m.entry.title && m.strength >= self.w.verbatim; });
    if (!pinned.length && titled) {
      pinned = titled.entry.targets.filter(function (t) { return t[1] >= 0; }).map(function (t) {
        var c = data.clauses[t[1]];
        return { unit: c[0], clause: c[1] === "*" ? data.units[c[0]][1] : c[1] };
      }).sort(function (a, b) {
        return (self.lang[data.units[a.unit][0]] === prefer[0] ? 0 : 1) - (self.lang[data.units[b.unit][0]] === prefer[0] ? 0 : 1);
      });
    }
    var ranked = this.rank(scores, p, prefer, otherGame, text);  // as the engine: evidence is not lent again
    var pinnedUnits = new Set(pinned.map(function (t) { return t.unit; }));
    ranked = pinned.map(function (t) { return [t.unit, Infinity, t.clause]; })
      .concat(ranked.filter(function (r) { return !pinnedUnits.has(r[0]); }));
    return {
      total: ranked.length,
      jump: number.jump,
      said: said.filter(function (m) { return Object.keys(m.entry.names).length && m.strength >= self.w.shown; })
        .map(function (m) {
          var names = m.entry.names;
          return { id: m.entry.id, name: names[ui] || names[Object.keys(names)[0]], url: m.entry.url };
        }),
      hits: ranked.slice(0, limit).map(function (r) { return self.hit(r[0], r[2], p); }),
    };
  };

  Engine.prototype.hit = function (u, clause, p) {
    var data = this.data, unit = data.units[u], doc = data.docs[unit[0]];
    var row = null;
    for (var d = 0; d < this.n; d++) {
      var c = data.clauses[d];
      if (c[0] === u && (c[1] === clause || (!row && c[1] !== "*"))) { row = c; if (c[1] === clause) break; }
    }
    row = row || [u, unit[1], unit[1], urlFor(doc.id, unit[1], unit[1]), ""];
    return { doc: doc.id, unit: unit[1], clause: row[1], label: row[2], title: unit[3], url: row[3], lang: doc.lang,
             snippet: this.snippet(row[4], p, doc.lang) };
  };

  Engine.prototype.snippet = function (text, p, lang) {  // [[text, marked?]...] around the first match
    var self = this, wanted = new Set(p.words), stems = new Set((p.stems[lang] || []).concat(p.expansions[lang] || []));
    var spans = [], re = /[\p{L}\p{N}_]+/gu, m;
    while ((m = re.exec(text))) {
      var f = fold(m[0].toLowerCase());
      if (wanted.has(f) || stems.has(this.stemOf(f, lang))) spans.push([m.index, m.index + m[0].length]);
    }
    var start = spans.length ? Math.max(0, spans[0][0] - 60) : 0;
    if (start) start = text.lastIndexOf(" ", start) + 1;
    var end = Math.min(text.length, start + 180);
    if (end < text.length) end = Math.max(text.lastIndexOf(" ", end), start + 1);
    var out = start ? [["…", false]] : [], pos = start;
    spans.forEach(function (s) {
      if (s[0] < start || s[1] > end) return;
      out.push([text.slice(pos, s[0]), false], [text.slice(s[0], s[1]), true]);
      pos = s[1];
    });
    out.push([text.slice(pos, end) + (end < text.length ? "…" : ""), false]);
    return out.filter(function (x) { return x[0]; });
  };

  // ---------------------------------------------------------------- numbers

  function Numbers(data, docs) {
    this.data = data;
    this.docs = docs;
    this.pattern = new RegExp(data.pattern, "i");
    var keys = Object.keys(data.names).sort(function (a, b) { return b.length - a.length; });
    var alts = keys.map(function (k) { return k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }).join("|");
    this.before = new RegExp("^(?<name>" + alts + ")(?=[\\s.,:]|\\d|$)");
    this.after = new RegExp("\\s+(?:" + data.of + ")?\\s*(?<name>" + alts + ")\\s*$");
  }

  Numbers.prototype.parse = function (text) {
    var doc = null, folded = fold(text.toLowerCase()), m = this.before.exec(folded);
    if (m) { doc = this.data.names[m.groups.name]; text = text.slice(m[0].length).replace(/^[ .,:]+/, ""); }
    else if ((m = this.after.exec(folded)) && m.index > 0) { doc = this.data.names[m.groups.name]; text = text.slice(0, m.index); }
    m = this.pattern.exec(text);
    if (!m || parseInt(m.groups.art, 10) === 0) return null;
    if (/\d\s+[a-g]\s+\d{2}/i.test(text) || (m.groups.item && !m.groups.num)) return null;
    var g = m.groups, art = g.art;
    var clause = art + (g.sec || "").toUpperCase() + (g.num || "") + (g.item || "").toLowerCase() + (g.roman || "").toLowerCase();
    if (g.appendix) return { article: art, clause: art, wants: doc ? [] : [["norms", ""]], doc: doc, appendix: true };
    var said = this.data.langs.find(function (l) { return g[l]; });
    return { article: art, clause: clause, wants: doc ? [] : (said ? [["laws", said], ["laws", ""]] : [["laws", ""]]), doc: doc };
  };

  Numbers.prototype.meant = function (n) {
    if (n.doc) return [n.doc];
    for (var i = 0; i < n.wants.length; i++) {
      var found = this.data.wants[n.wants[i][0] + ":" + n.wants[i][1]] || [];
      if (found.length) return found;
    }
    return [];
  };

  Numbers.prototype.existing = function (doc, n) {
    var ids = this.data.ids[doc], unit = null;
    if (!ids) return null;
    if (n.appendix) unit = ids.appendix[n.article] || null;
    else if (ids.units[n.article]) unit = n.article;
    else {
      unit = Object.keys(ids.units).find(function (u) {
        var r = /^(\d+)-(\d+)$/.exec(u);
        return r && +r[1] <= +n.article && +n.article <= +r[2];
      }) || null;
    }
    if (!unit) return null;
    var clauses = ids.units[unit] || [], clause = n.clause;
    while (clauses.indexOf(clause) < 0 && clause.length > n.article.length) clause = clause.slice(0, -1);
    if (unit !== n.article) clause = unit;
    return { doc: doc, unit: unit, clause: clause, url: urlFor(doc, unit, clause) };
  };

  Numbers.prototype.resolve = function (n, ui) {  // {jump, pinned: [{unit number, clause}]}
    var self = this;
    if (!n) return { jump: null, pinned: [] };
    var targets = this.meant(n).map(function (d) { return self.existing(d, n); }).filter(Boolean);
    if (!targets.length) return { jump: null, pinned: [] };
    var lang = function (d) { return self.docs.find(function (x) { return x.id === d; }).lang; };
    var chosen = targets;
    if (targets.length > 1 && ui) chosen = targets.filter(function (t) { return lang(t.doc) === ui; });
    if (!chosen.length) chosen = targets;
    var pinned = chosen.slice();
    if (this.data.laws.indexOf(chosen[0].doc) >= 0) {
      this.data.laws.forEach(function (d) {
        if (!pinned.some(function (t) { return t.doc === d; })) { var o = self.existing(d, n); if (o) pinned.push(o); }
      });
    }
    return { jump: chosen.length === 1 ? chosen[0].url : null, pinned: pinned };
  };

  Engine.prototype.unitNumber = function (doc, unit) {
    var data = this.data;
    if (!this._unitIndex) {
      this._unitIndex = new Map(data.units.map(function (u, i) { return [data.docs[u[0]].id + "/" + u[1], i]; }));
    }
    return this._unitIndex.get(doc + "/" + unit);
  };

  var KBSearch = {
    Engine: Engine,
    load: function (url) {
      return fetch(url).then(function (r) {
        if (!r.ok) throw new Error("search data: HTTP " + r.status);
        return r.json();
      }).then(function (data) { return new Engine(data); });
    },
  };
  if (typeof module !== "undefined" && module.exports) module.exports = KBSearch;
  else root.KBSearch = KBSearch;
})(this);
