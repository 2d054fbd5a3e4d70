// The browser's search engine (web/static/search.js) run in Node on a build's search model:
//   node measure/engine.js MODEL REQUESTS.json  →  {ready_ms, results: [...]} on standard output
// REQUESTS.json: a list of ["search", query, {ui, doc, lang, kind, limit, page}] (a query the
// engine refuses answers {"error": message}), ["terms", chain, text] or ["stem", lang, word].
// For tests/test_one_engine.py and scripts/offline_bench.py.
"use strict";
const fs = require("fs");
const path = require("path");
const KBSearch = require(path.join(__dirname, "..", "web", "static", "search.js"));
const Stemmers = require(path.join(__dirname, "..", "web", "static", "stemmers.js"));

const [modelPath, requestsPath] = process.argv.slice(2);
const data = fs.readFileSync(modelPath);
const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
let engine, ready;

function open() {  // its digest checked as a page checks it, then the engine made and timed alone
  return KBSearch.verified(buffer).then(() => {
    const started = process.hrtime.bigint();
    engine = KBSearch.open(buffer);
    ready = Number(process.hrtime.bigint() - started) / 1e6;
  });
}

function answer([kind, ...args]) {
  if (kind === "terms") return engine.analysis.terms(args[0], args[1]);
  if (kind === "stem") return Stemmers.stem(args[0], args[1]);
  const t = process.hrtime.bigint();
  let r;
  try {
    r = engine.search(args[0], args[1]);
  } catch (e) {
    if (!(e instanceof KBSearch.QueryError)) throw e;
    r = { error: e.message };
  }
  r.ms = Number(process.hrtime.bigint() - t) / 1e6;
  return r;
}

open().then(() => {
  const results = JSON.parse(fs.readFileSync(requestsPath, "utf8")).map(answer);
  process.stdout.write(JSON.stringify({ ready_ms: ready, results: results }));
}, (e) => {
  if (!(e instanceof KBSearch.ModelError)) throw e;
  process.stderr.write(modelPath + ": " + e.message + "\n");
  process.exit(1);
});
