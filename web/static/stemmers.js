// The Snowball stemmers the server's search uses (Italian, Spanish, English), ported one to one from
// whoosh 2.7.4 (whoosh/lang/snowball/{bases,italian,spanish,english}.py, BSD licence, itself NLTK's
// port), quirks included, so that the browser stems every word as the server does.
// tests/test_one_engine.py holds each stemmer to whoosh's over the corpus's words and more.
// Where Python would raise IndexError the port throws too: kb.search.analysis.stem_word then keeps
// the word as it is, and so does `stem` here.
(function (root) {
  "use strict";

  function IndexError() { this.name = "IndexError"; }

  function at(s, i) {  // s[i] as Python reads it: a negative index counts from the end, past either end raises
    var j = i < 0 ? s.length + i : i;
    if (j < 0 || j >= s.length) throw new IndexError();
    return s[j];
  }
  function isIn(ch, letters) { return letters.indexOf(ch) >= 0; }
  function endsWith(s, suffixes) {
    for (var i = 0; i < suffixes.length; i++) if (s.endsWith(suffixes[i])) return true;
    return false;
  }
  function cut(s, n) { return s.slice(0, -n); }              // s[:-n], n > 0
  function replaceAll(s, a, b) { return s.split(a).join(b); }  // str.replace: every occurrence
  function oneOf(s, words) { return words.indexOf(s) >= 0; }

  // ---------------------------------------------------------------- bases.py: _StandardStemmer
  function r1r2(word, vowels) {
    var r1 = "", r2 = "", i;
    for (i = 1; i < word.length; i++) {
      if (!isIn(word[i], vowels) && isIn(word[i - 1], vowels)) { r1 = word.slice(i + 1); break; }
    }
    for (i = 1; i < r1.length; i++) {
      if (!isIn(r1[i], vowels) && isIn(r1[i - 1], vowels)) { r2 = r1.slice(i + 1); break; }
    }
    return [r1, r2];
  }
  function rvStandard(word, vowels) {
    var rv = "", i;
    if (word.length >= 2) {
      if (!isIn(word[1], vowels)) {
        for (i = 2; i < word.length; i++) if (isIn(word[i], vowels)) { rv = word.slice(i + 1); break; }
      } else if (vowels.indexOf(word.slice(0, 2)) >= 0) {  // Python's `word[:2] in vowels`: a substring test
        for (i = 2; i < word.length; i++) if (!isIn(word[i], vowels)) { rv = word.slice(i + 1); break; }
      } else {
        rv = word.slice(3);
      }
    }
    return rv;
  }

  // ---------------------------------------------------------------- italian.py
  var IT_VOWELS = "aeiou\u00e0\u00e8\u00ec\u00f2\u00f9";
  var IT_STEP0 = ["gliela", "gliele", "glieli", "glielo", "gliene", "sene", "mela", "mele", "meli", "melo", "mene",
    "tela", "tele", "teli", "telo", "tene", "cela", "cele", "celi", "celo", "cene", "vela", "vele", "veli", "velo",
    "vene", "gli", "ci", "la", "le", "li", "lo", "mi", "ne", "si", "ti", "vi"];
  var IT_STEP1 = ["atrice", "atrici", "azione", "azioni", "uzione", "uzioni", "usione", "usioni", "amento", "amenti",
    "imento", "imenti", "amente", "abile", "abili", "ibile", "ibili", "mente", "atore", "atori", "logia", "logie",
    "anza", "anze", "iche", "ichi", "ismo", "ismi", "ista", "iste", "isti", "ist\u00e0", "ist\u00e8", "ist\u00ec",
    "ante", "anti", "enza", "enze", "ico", "ici", "ica", "ice", "oso", "osi", "osa", "ose", "it\u00e0", "ivo", "ivi",
    "iva", "ive"];
  var IT_STEP2 = ["erebbero", "irebbero", "assero", "assimo", "eranno", "erebbe", "eremmo", "ereste", "eresti",
    "essero", "iranno", "irebbe", "iremmo", "ireste", "iresti", "iscano", "iscono", "issero", "arono", "avamo",
    "avano", "avate", "eremo", "erete", "erono", "evamo", "evano", "evate", "iremo", "irete", "irono", "ivamo",
    "ivano", "ivate", "ammo", "ando", "asse", "assi", "emmo", "enda", "ende", "endi", "endo", "erai", "erei", "Yamo",
    "iamo", "immo", "irai", "irei", "isca", "isce", "isci", "isco", "ano", "are", "ata", "ate", "ati", "ato", "ava",
    "avi", "avo", "er\u00e0", "ere", "er\u00f2", "ete", "eva", "evi", "evo", "ir\u00e0", "ire", "ir\u00f2", "ita",
    "ite", "iti", "ito", "iva", "ivi", "ivo", "ono", "uta", "ute", "uti", "uto", "ar", "ir"];

  function italian(word) {
    var V = IT_VOWELS, step1 = false, i, k, suffix, n;
    word = word.toLowerCase();
    word = replaceAll(replaceAll(replaceAll(replaceAll(replaceAll(word, "\u00e1", "\u00e0"), "\u00e9", "\u00e8"),
      "\u00ed", "\u00ec"), "\u00f3", "\u00f2"), "\u00fa", "\u00f9");
    for (i = 1; i < word.length; i++) {
      if (word[i - 1] === "q" && word[i] === "u") word = word.slice(0, i) + "U" + word.slice(i + 1);
    }
    for (i = 1, n = word.length - 1; i < n; i++) {
      if (isIn(word[i - 1], V) && isIn(word[i + 1], V)) {
        if (word[i] === "u") word = word.slice(0, i) + "U" + word.slice(i + 1);
        else if (word[i] === "i") word = word.slice(0, i) + "I" + word.slice(i + 1);
      }
    }
    var r = r1r2(word, V), r1 = r[0], r2 = r[1], rv = rvStandard(word, V);
    for (k = 0; k < IT_STEP0.length; k++) {
      suffix = IT_STEP0[k]; n = suffix.length;
      if (rv.endsWith(suffix)) {
        if (oneOf(rv.slice(-n - 4, -n), ["ando", "endo"])) {
          word = cut(word, n); r1 = cut(r1, n); r2 = cut(r2, n); rv = cut(rv, n);
        } else if (oneOf(rv.slice(-n - 2, -n), ["ar", "er", "ir"])) {
          word = cut(word, n) + "e"; r1 = cut(r1, n) + "e"; r2 = cut(r2, n) + "e"; rv = cut(rv, n) + "e";
        }
        break;
      }
    }
    for (k = 0; k < IT_STEP1.length; k++) {
      suffix = IT_STEP1[k]; n = suffix.length;
      if (!word.endsWith(suffix)) continue;
      if (suffix === "amente" && r1.endsWith(suffix)) {
        step1 = true;
        word = cut(word, 6); r2 = cut(r2, 6); rv = cut(rv, 6);
        if (r2.endsWith("iv")) {
          word = cut(word, 2); r2 = cut(r2, 2); rv = cut(rv, 2);
          if (r2.endsWith("at")) { word = cut(word, 2); rv = cut(rv, 2); }
        } else if (endsWith(r2, ["os", "ic"])) {
          word = cut(word, 2); rv = cut(rv, 2);
        } else if (r2.endsWith("abil")) {
          word = cut(word, 4); rv = cut(rv, 4);
        }
      } else if (oneOf(suffix, ["amento", "amenti", "imento", "imenti"]) && rv.endsWith(suffix)) {
        step1 = true;
        word = cut(word, 6); rv = cut(rv, 6);
      } else if (r2.endsWith(suffix)) {
        step1 = true;
        if (oneOf(suffix, ["azione", "azioni", "atore", "atori"])) {
          word = cut(word, n); r2 = cut(r2, n); rv = cut(rv, n);
          if (r2.endsWith("ic")) { word = cut(word, 2); rv = cut(rv, 2); }
        } else if (oneOf(suffix, ["logia", "logie"])) {
          word = cut(word, 2); rv = cut(word, 2);  // sic: whoosh's rv = word[:-2]
        } else if (oneOf(suffix, ["uzione", "uzioni", "usione", "usioni"])) {
          word = cut(word, 5); rv = cut(rv, 5);
        } else if (oneOf(suffix, ["enza", "enze"])) {
          word = cut(word, 2) + "te"; rv = cut(rv, 2) + "te";
        } else if (suffix === "it\u00e0") {
          word = cut(word, 3); r2 = cut(r2, 3); rv = cut(rv, 3);
          if (endsWith(r2, ["ic", "iv"])) { word = cut(word, 2); rv = cut(rv, 2); }
          else if (r2.endsWith("abil")) { word = cut(word, 4); rv = cut(rv, 4); }
        } else if (oneOf(suffix, ["ivo", "ivi", "iva", "ive"])) {
          word = cut(word, 3); r2 = cut(r2, 3); rv = cut(rv, 3);
          if (r2.endsWith("at")) {
            word = cut(word, 2); r2 = cut(r2, 2); rv = cut(rv, 2);
            if (r2.endsWith("ic")) { word = cut(word, 2); rv = cut(rv, 2); }
          }
        } else {
          word = cut(word, n); rv = cut(rv, n);
        }
      }
      break;
    }
    if (!step1) {
      for (k = 0; k < IT_STEP2.length; k++) {
        suffix = IT_STEP2[k];
        if (rv.endsWith(suffix)) { word = cut(word, suffix.length); rv = cut(rv, suffix.length); break; }
      }
    }
    if (endsWith(rv, ["a", "e", "i", "o", "\u00e0", "\u00e8", "\u00ec", "\u00f2"])) {
      word = cut(word, 1); rv = cut(rv, 1);
      if (rv.endsWith("i")) { word = cut(word, 1); rv = cut(rv, 1); }
    }
    if (endsWith(rv, ["ch", "gh"])) word = cut(word, 1);
    return replaceAll(replaceAll(word, "I", "i"), "U", "u");
  }

  // ---------------------------------------------------------------- spanish.py
  var ES_VOWELS = "aeiou\u00e1\u00e9\u00ed\u00f3\u00fa\u00fc";
  var ES_STEP0 = ["selas", "selos", "sela", "selo", "las", "les", "los", "nos", "me", "se", "la", "le", "lo"];
  var ES_STEP1 = ["amientos", "imientos", "amiento", "imiento", "aciones", "uciones", "adoras", "adores", "ancias",
    "log\u00edas", "encias", "amente", "idades", "anzas", "ismos", "ables", "ibles", "istas", "adora", "aci\u00f3n",
    "antes", "ancia", "log\u00eda", "uci\u00f3n", "encia", "mente", "anza", "icos", "icas", "ismo", "able", "ible",
    "ista", "osos", "osas", "ador", "ante", "idad", "ivas", "ivos", "ico", "ica", "oso", "osa", "iva", "ivo"];
  var ES_STEP2A = ["yeron", "yendo", "yamos", "yais", "yan", "yen", "yas", "yes", "ya", "ye", "yo", "y\u00f3"];
  var ES_STEP2B = ["ar\u00edamos", "er\u00edamos", "ir\u00edamos", "i\u00e9ramos", "i\u00e9semos", "ar\u00edais",
    "aremos", "er\u00edais", "eremos", "ir\u00edais", "iremos", "ierais", "ieseis", "asteis", "isteis", "\u00e1bamos",
    "\u00e1ramos", "\u00e1semos", "ar\u00edan", "ar\u00edas", "ar\u00e9is", "er\u00edan", "er\u00edas", "er\u00e9is",
    "ir\u00edan", "ir\u00edas", "ir\u00e9is", "ieran", "iesen", "ieron", "iendo", "ieras", "ieses", "abais", "arais",
    "aseis", "\u00e9amos", "ar\u00e1n", "ar\u00e1s", "ar\u00eda", "er\u00e1n", "er\u00e1s", "er\u00eda", "ir\u00e1n",
    "ir\u00e1s", "ir\u00eda", "iera", "iese", "aste", "iste", "aban", "aran", "asen", "aron", "ando", "abas", "adas",
    "idas", "aras", "ases", "\u00edais", "ados", "idos", "amos", "imos", "emos", "ar\u00e1", "ar\u00e9", "er\u00e1",
    "er\u00e9", "ir\u00e1", "ir\u00e9", "aba", "ada", "ida", "ara", "ase", "\u00edan", "ado", "ido", "\u00edas",
    "\u00e1is", "\u00e9is", "\u00eda", "ad", "ed", "id", "an", "i\u00f3", "ar", "er", "ir", "as", "\u00eds", "en", "es"];
  var ES_STEP3 = ["os", "a", "e", "o", "\u00e1", "\u00e9", "\u00ed", "\u00f3"];

  function unaccentAei(s) { return replaceAll(replaceAll(replaceAll(s, "\u00e1", "a"), "\u00e9", "e"), "\u00ed", "i"); }

  function spanish(word) {
    var V = ES_VOWELS, step1 = false, k, suffix, n;
    word = word.toLowerCase();
    var r = r1r2(word, V), r1 = r[0], r2 = r[1], rv = rvStandard(word, V);
    for (k = 0; k < ES_STEP0.length; k++) {
      suffix = ES_STEP0[k]; n = suffix.length;
      if (!word.endsWith(suffix)) continue;
      if (rv.endsWith(suffix)) {
        if (endsWith(cut(rv, n), ["i\u00e9ndo", "\u00e1ndo", "\u00e1r", "\u00e9r", "\u00edr"])) {
          word = unaccentAei(cut(word, n)); r1 = unaccentAei(cut(r1, n));
          r2 = unaccentAei(cut(r2, n)); rv = unaccentAei(cut(rv, n));
        } else if (endsWith(cut(rv, n), ["ando", "iendo", "ar", "er", "ir"])) {
          word = cut(word, n); r1 = cut(r1, n); r2 = cut(r2, n); rv = cut(rv, n);
        } else if (cut(rv, n).endsWith("yendo") && cut(word, n).endsWith("uyendo")) {
          word = cut(word, n); r1 = cut(r1, n); r2 = cut(r2, n); rv = cut(rv, n);
        }
      }
      break;
    }
    for (k = 0; k < ES_STEP1.length; k++) {
      suffix = ES_STEP1[k]; n = suffix.length;
      if (!word.endsWith(suffix)) continue;
      if (suffix === "amente" && r1.endsWith(suffix)) {
        step1 = true;
        word = cut(word, 6); r2 = cut(r2, 6); rv = cut(rv, 6);
        if (r2.endsWith("iv")) {
          word = cut(word, 2); r2 = cut(r2, 2); rv = cut(rv, 2);
          if (r2.endsWith("at")) { word = cut(word, 2); rv = cut(rv, 2); }
        } else if (endsWith(r2, ["os", "ic", "ad"])) {
          word = cut(word, 2); rv = cut(rv, 2);
        }
      } else if (r2.endsWith(suffix)) {
        step1 = true;
        if (oneOf(suffix, ["adora", "ador", "aci\u00f3n", "adoras", "adores", "aciones", "ante", "antes", "ancia",
                           "ancias"])) {
          word = cut(word, n); r2 = cut(r2, n); rv = cut(rv, n);
          if (r2.endsWith("ic")) { word = cut(word, 2); rv = cut(rv, 2); }
        } else if (oneOf(suffix, ["log\u00eda", "log\u00edas"])) {
          word = replaceAll(word, suffix, "log"); rv = replaceAll(rv, suffix, "log");
        } else if (oneOf(suffix, ["uci\u00f3n", "uciones"])) {
          word = replaceAll(word, suffix, "u"); rv = replaceAll(rv, suffix, "u");
        } else if (oneOf(suffix, ["encia", "encias"])) {
          word = replaceAll(word, suffix, "ente"); rv = replaceAll(rv, suffix, "ente");
        } else if (suffix === "mente") {
          word = cut(word, 5); r2 = cut(r2, 5); rv = cut(rv, 5);
          if (endsWith(r2, ["ante", "able", "ible"])) { word = cut(word, 4); rv = cut(rv, 4); }
        } else if (oneOf(suffix, ["idad", "idades"])) {
          word = cut(word, n); r2 = cut(r2, n); rv = cut(rv, n);
          ["abil", "ic", "iv"].forEach(function (pre) {
            if (r2.endsWith(pre)) { word = cut(word, pre.length); rv = cut(rv, pre.length); }
          });
        } else if (oneOf(suffix, ["ivo", "iva", "ivos", "ivas"])) {
          word = cut(word, n); r2 = cut(r2, n); rv = cut(rv, n);
          if (r2.endsWith("at")) { word = cut(word, 2); rv = cut(rv, 2); }
        } else {
          word = cut(word, n); rv = cut(rv, n);
        }
      }
      break;
    }
    if (!step1) {
      for (k = 0; k < ES_STEP2A.length; k++) {
        suffix = ES_STEP2A[k]; n = suffix.length;
        if (rv.endsWith(suffix) && word.slice(-n - 1, -n) === "u") { word = cut(word, n); rv = cut(rv, n); break; }
      }
      for (k = 0; k < ES_STEP2B.length; k++) {
        suffix = ES_STEP2B[k]; n = suffix.length;
        if (!rv.endsWith(suffix)) continue;
        word = cut(word, n); rv = cut(rv, n);
        if (oneOf(suffix, ["en", "es", "\u00e9is", "emos"])) {
          if (word.endsWith("gu")) word = cut(word, 1);
          if (rv.endsWith("gu")) rv = cut(rv, 1);
        }
        break;
      }
    }
    for (k = 0; k < ES_STEP3.length; k++) {
      suffix = ES_STEP3[k]; n = suffix.length;
      if (!rv.endsWith(suffix)) continue;
      if (suffix === "e" || suffix === "\u00e9") {
        word = cut(word, n); rv = cut(rv, n);
        if (word.length >= 2 && word.slice(-2) === "gu" && at(rv, -1) === "u") word = cut(word, 1);
      } else {
        word = cut(word, n);
      }
      break;
    }
    return replaceAll(replaceAll(unaccentAei(word), "\u00f3", "o"), "\u00fa", "u");
  }

  // ---------------------------------------------------------------- english.py
  var EN_VOWELS = "aeiouy";
  var EN_DOUBLE = ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"];
  var EN_LI = "cdeghkmnrt";
  var EN_STEP0 = ["'s'", "'s", "'"];
  var EN_STEP1A = ["sses", "ied", "ies", "us", "ss", "s"];
  var EN_STEP1B = ["eedly", "ingly", "edly", "eed", "ing", "ed"];
  var EN_STEP2 = ["ization", "ational", "fulness", "ousness", "iveness", "tional", "biliti", "lessli", "entli",
    "ation", "alism", "aliti", "ousli", "iviti", "fulli", "enci", "anci", "abli", "izer", "ator", "alli", "bli",
    "ogi", "li"];
  var EN_STEP3 = ["ational", "tional", "alize", "icate", "iciti", "ative", "ical", "ness", "ful"];
  var EN_STEP4 = ["ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous", "ive",
    "ize", "ion", "al", "er", "ic"];
  var EN_SPECIAL = {
    skis: "ski", skies: "sky", dying: "die", lying: "lie", tying: "tie", idly: "idl", gently: "gentl", ugly: "ugli",
    early: "earli", only: "onli", singly: "singl", sky: "sky", news: "news", howe: "howe", atlas: "atlas",
    cosmos: "cosmos", bias: "bias", andes: "andes", inning: "inning", innings: "inning", outing: "outing",
    outings: "outing", canning: "canning", cannings: "canning", herring: "herring", herrings: "herring",
    earring: "earring", earrings: "earring", proceed: "proceed", proceeds: "proceed", proceeded: "proceed",
    proceeding: "proceed", exceed: "exceed", exceeds: "exceed", exceeded: "exceed", exceeding: "exceed",
    succeed: "succeed", succeeds: "succeed", succeeded: "succeed", succeeding: "succeed",
  };

  // r1 and r2 after a suffix of n letters is replaced by `by` (the "if len(r) >= n" pattern of english.py)
  function swap(r, n, by, otherwise) { return r.length >= n ? cut(r, n) + by : otherwise; }

  function english(word) {
    var V = EN_VOWELS, k, i, suffix, n, letter;
    word = word.toLowerCase();
    if (Object.prototype.hasOwnProperty.call(EN_SPECIAL, word)) return EN_SPECIAL[word];
    word = replaceAll(replaceAll(replaceAll(word, "\u2019", "'"), "\u2018", "'"), "\u201b", "'");
    if (word.startsWith("'")) word = word.slice(1);
    if (word.startsWith("y")) word = "Y" + word.slice(1);
    for (i = 1; i < word.length; i++) {
      if (isIn(word[i - 1], V) && word[i] === "y") word = word.slice(0, i) + "Y" + word.slice(i + 1);
    }
    var step1a = false, step1b = false, r1 = "", r2 = "";
    if (word.startsWith("gener") || word.startsWith("commun") || word.startsWith("arsen")) {
      r1 = word.startsWith("gener") || word.startsWith("arsen") ? word.slice(5) : word.slice(6);
      for (i = 1; i < r1.length; i++) {
        if (!isIn(r1[i], V) && isIn(r1[i - 1], V)) { r2 = r1.slice(i + 1); break; }
      }
    } else {
      var r = r1r2(word, V); r1 = r[0]; r2 = r[1];
    }
    for (k = 0; k < EN_STEP0.length; k++) {
      suffix = EN_STEP0[k]; n = suffix.length;
      if (word.endsWith(suffix)) { word = cut(word, n); r1 = cut(r1, n); r2 = cut(r2, n); break; }
    }
    for (k = 0; k < EN_STEP1A.length; k++) {
      suffix = EN_STEP1A[k]; n = suffix.length;
      if (!word.endsWith(suffix)) continue;
      if (suffix === "sses") {
        word = cut(word, 2); r1 = cut(r1, 2); r2 = cut(r2, 2);
      } else if (suffix === "ied" || suffix === "ies") {
        if (cut(word, n).length > 1) { word = cut(word, 2); r1 = cut(r1, 2); r2 = cut(r2, 2); }
        else { word = cut(word, 1); r1 = cut(r1, 1); r2 = cut(r2, 1); }
      } else if (suffix === "s") {
        for (i = 0; i < word.length - 2; i++) if (isIn(word[i], V)) { step1a = true; break; }
        if (step1a) { word = cut(word, 1); r1 = cut(r1, 1); r2 = cut(r2, 1); }
      }
      break;
    }
    for (k = 0; k < EN_STEP1B.length; k++) {
      suffix = EN_STEP1B[k]; n = suffix.length;
      if (!word.endsWith(suffix)) continue;
      if (suffix === "eed" || suffix === "eedly") {
        if (r1.endsWith(suffix)) {
          word = cut(word, n) + "ee";
          r1 = swap(r1, n, "ee", "");
          r2 = swap(r2, n, "ee", "");
        }
      } else {
        var stem = cut(word, n);
        for (i = 0; i < stem.length; i++) if (isIn(stem[i], V)) { step1b = true; break; }
        if (step1b) {
          word = cut(word, n); r1 = cut(r1, n); r2 = cut(r2, n);
          if (endsWith(word, ["at", "bl", "iz"])) {
            word = word + "e"; r1 = r1 + "e";
            if (word.length > 5 || r1.length >= 3) r2 = r2 + "e";
          } else if (endsWith(word, EN_DOUBLE)) {
            word = cut(word, 1); r1 = cut(r1, 1); r2 = cut(r2, 1);
          } else if ((r1 === "" && word.length >= 3 && !isIn(at(word, -1), V) && !isIn(at(word, -1), "wxY") &&
                      isIn(at(word, -2), V) && !isIn(at(word, -3), V)) ||
                     (r1 === "" && word.length === 2 && isIn(at(word, 0), V) && !isIn(at(word, 1), V))) {
            word = word + "e";
            if (r1.length > 0) r1 = r1 + "e";
            if (r2.length > 0) r2 = r2 + "e";
          }
        }
      }
      break;
    }
    if (word.length > 2 && isIn(at(word, -1), "yY") && !isIn(at(word, -2), V)) {
      word = cut(word, 1) + "i";
      r1 = r1.length >= 1 ? cut(r1, 1) + "i" : "";
      r2 = r2.length >= 1 ? cut(r2, 1) + "i" : "";
    }
    for (k = 0; k < EN_STEP2.length; k++) {
      suffix = EN_STEP2[k]; n = suffix.length;
      if (!word.endsWith(suffix)) continue;
      if (r1.endsWith(suffix)) {
        if (suffix === "tional") {
          word = cut(word, 2); r1 = cut(r1, 2); r2 = cut(r2, 2);
        } else if (oneOf(suffix, ["enci", "anci", "abli"])) {
          word = cut(word, 1) + "e"; r1 = swap(r1, 1, "e", ""); r2 = swap(r2, 1, "e", "");
        } else if (suffix === "entli") {
          word = cut(word, 2); r1 = cut(r1, 2); r2 = cut(r2, 2);
        } else if (oneOf(suffix, ["izer", "ization"])) {
          word = cut(word, n) + "ize"; r1 = swap(r1, n, "ize", ""); r2 = swap(r2, n, "ize", "");
        } else if (oneOf(suffix, ["ational", "ation", "ator"])) {
          word = cut(word, n) + "ate"; r1 = swap(r1, n, "ate", ""); r2 = swap(r2, n, "ate", "e");
        } else if (oneOf(suffix, ["alism", "aliti", "alli"])) {
          word = cut(word, n) + "al"; r1 = swap(r1, n, "al", ""); r2 = swap(r2, n, "al", "");
        } else if (suffix === "fulness") {
          word = cut(word, 4); r1 = cut(r1, 4); r2 = cut(r2, 4);
        } else if (oneOf(suffix, ["ousli", "ousness"])) {
          word = cut(word, n) + "ous"; r1 = swap(r1, n, "ous", ""); r2 = swap(r2, n, "ous", "");
        } else if (oneOf(suffix, ["iveness", "iviti"])) {
          word = cut(word, n) + "ive"; r1 = swap(r1, n, "ive", ""); r2 = swap(r2, n, "ive", "e");
        } else if (oneOf(suffix, ["biliti", "bli"])) {
          word = cut(word, n) + "ble"; r1 = swap(r1, n, "ble", ""); r2 = swap(r2, n, "ble", "");
        } else if (suffix === "ogi" && at(word, -4) === "l") {
          word = cut(word, 1); r1 = cut(r1, 1); r2 = cut(r2, 1);
        } else if (oneOf(suffix, ["fulli", "lessli"])) {
          word = cut(word, 2); r1 = cut(r1, 2); r2 = cut(r2, 2);
        } else if (suffix === "li" && isIn(at(word, -3), EN_LI)) {
          word = cut(word, 2); r1 = cut(r1, 2); r2 = cut(r2, 2);
        }
      }
      break;
    }
    for (k = 0; k < EN_STEP3.length; k++) {
      suffix = EN_STEP3[k]; n = suffix.length;
      if (!word.endsWith(suffix)) continue;
      if (r1.endsWith(suffix)) {
        if (suffix === "tional") {
          word = cut(word, 2); r1 = cut(r1, 2); r2 = cut(r2, 2);
        } else if (suffix === "ational") {
          word = cut(word, n) + "ate"; r1 = swap(r1, n, "ate", ""); r2 = swap(r2, n, "ate", "");
        } else if (suffix === "alize") {
          word = cut(word, 3); r1 = cut(r1, 3); r2 = cut(r2, 3);
        } else if (oneOf(suffix, ["icate", "iciti", "ical"])) {
          word = cut(word, n) + "ic"; r1 = swap(r1, n, "ic", ""); r2 = swap(r2, n, "ic", "");
        } else if (suffix === "ful" || suffix === "ness") {
          word = cut(word, n); r1 = cut(r1, n); r2 = cut(r2, n);
        } else if (suffix === "ative" && r2.endsWith(suffix)) {
          word = cut(word, 5); r1 = cut(r1, 5); r2 = cut(r2, 5);
        }
      }
      break;
    }
    for (k = 0; k < EN_STEP4.length; k++) {
      suffix = EN_STEP4[k]; n = suffix.length;
      if (!word.endsWith(suffix)) continue;
      if (r2.endsWith(suffix)) {
        if (suffix === "ion") {
          if (isIn(at(word, -4), "st")) { word = cut(word, 3); r1 = cut(r1, 3); r2 = cut(r2, 3); }
        } else {
          word = cut(word, n); r1 = cut(r1, n); r2 = cut(r2, n);
        }
      }
      break;
    }
    if (r2.endsWith("l") && at(word, -2) === "l") {
      word = cut(word, 1);
    } else if (r2.endsWith("e")) {
      word = cut(word, 1);
    } else if (r1.endsWith("e")) {
      if (word.length >= 4 && (isIn(at(word, -2), V) || isIn(at(word, -2), "wxY") || !isIn(at(word, -3), V) ||
                               isIn(at(word, -4), V))) {
        word = cut(word, 1);
      }
    }
    return replaceAll(word, "Y", "y");
  }

  var STEMMERS = { it: italian, es: spanish, en: english };

  // kb.search.analysis.stem_word: the word's stem, or the word itself where the stemmer fails
  function stem(lang, word) {
    try { return outside(STEMMERS[lang], word); } catch (e) { if (e instanceof IndexError) return word; throw e; }
  }

  // Python counts a word's letters by code points, JavaScript by UTF-16 units: a letter outside the
  // BMP (𐐨, 𝑎…) stands in for the stemmer as one private-use letter, which no suffix or vowel holds.
  function outside(stemmer, word) {
    if (!/[\uD800-\uDFFF]/.test(word)) return stemmer(word);
    var letters = Array.from(word.toLowerCase()), far = [];
    var stand = letters.map(function (ch) {
      if (ch.length === 1) return ch;
      var i = far.indexOf(ch);
      if (i < 0) { i = far.length; far.push(ch); }
      return String.fromCharCode(0xE000 + i);
    }).join("");
    return Array.from(stemmer(stand)).map(function (ch) {
      var i = ch.charCodeAt(0) - 0xE000;
      return i >= 0 && i < far.length ? far[i] : ch;
    }).join("");
  }

  var KBStemmers = { stem: stem, languages: Object.keys(STEMMERS) };
  if (typeof module !== "undefined" && module.exports) module.exports = KBStemmers;
  else root.KBStemmers = KBStemmers;
})(this);
