// The drills' scheduler (web/static/fsrs.js) run in Node, for tests/test_fsrs.py:
//   node measure/scheduler.js REQUESTS.json  →  [answer, ...] on standard output
// REQUESTS.json: a list of
//   ["review", options, card or null (a new card), [[rating, time ms, draw or null], ...]]
//       → the card after each review (options: the Scheduler's, e.g. {"enableFuzzing": false})
//   ["leitner", box, due ms]  → the FSRS card a Leitner-era entry becomes
//   ["draw", card id, n]      → the fuzz draw of a card's n-th review
"use strict";
const fs = require("fs");
const path = require("path");
const KBFsrs = require(path.join(__dirname, "..", "web", "static", "fsrs.js"));

function reviews(options, start, history) {
  const scheduler = new KBFsrs.Scheduler(options);
  let card = start || KBFsrs.newCard();
  return history.map(([rating, time, draw]) => (card = scheduler.review(card, rating, time, draw === null ? undefined : draw)));
}

function answer([kind, ...args]) {
  if (kind === "review") return reviews(...args);
  if (kind === "leitner") return KBFsrs.fromLeitner(args[0], args[1]);
  if (kind === "draw") return KBFsrs.draw(args[0], args[1]);
  throw new Error("unknown request: " + kind);
}

const [requestsPath] = process.argv.slice(2);
process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(requestsPath, "utf8")).map(answer)));
