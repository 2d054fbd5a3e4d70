// FSRS-6, the drills' scheduler (issue 32): the reference implementation's Scheduler (the `fsrs`
// package on PyPI, 6.3.2, fsrs/scheduler.py) followed function for function, with its published
// default parameters w0..w20, desired retention 0.9, learning steps 1 and 10 minutes,
// relearning step 10 minutes, maximum interval 36500 days, and its interval fuzz.
// tests/test_fsrs.py holds it to the reference on the same review histories.
//
// A card is {state, step, stability, difficulty, due, last_review}, times in milliseconds since
// the epoch (the reference's UTC datetimes), state 1 Learning, 2 Review, 3 Relearning; a rating
// is 1 Again, 2 Hard, 3 Good, 4 Easy. No dependencies: a page loads it as window.KBFsrs, Node as
// a module.
(function (root) {
  "use strict";
  var MINUTE = 60 * 1000, DAY = 24 * 60 * MINUTE;
  var LEARNING = 1, REVIEW = 2, RELEARNING = 3;
  var AGAIN = 1, HARD = 2, GOOD = 3, EASY = 4;
  var DEFAULT_PARAMETERS = [0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
                            1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542];
  var STABILITY_MIN = 0.001, MIN_DIFFICULTY = 1, MAX_DIFFICULTY = 10;
  var FUZZ_RANGES = [{ start: 2.5, end: 7, factor: 0.15 }, { start: 7, end: 20, factor: 0.1 },
                     { start: 20, end: Infinity, factor: 0.05 }];

  function Scheduler(options) {
    var o = options || {};
    this.w = (o.parameters || DEFAULT_PARAMETERS).slice();
    if (this.w.length !== 21) throw new Error("FSRS-6 takes 21 parameters, not " + this.w.length);
    this.desiredRetention = o.desiredRetention === undefined ? 0.9 : o.desiredRetention;
    this.learningSteps = o.learningSteps || [1 * MINUTE, 10 * MINUTE];
    this.relearningSteps = o.relearningSteps || [10 * MINUTE];
    this.maximumInterval = o.maximumInterval || 36500;
    this.enableFuzzing = o.enableFuzzing === undefined ? true : o.enableFuzzing;
    this.decay = -this.w[20];
    this.factor = Math.pow(0.9, 1 / this.decay) - 1;
  }

  function newCard() { return { state: LEARNING, step: 0, stability: null, difficulty: null, due: null, last_review: null }; }

  function copy(card) {
    return { state: card.state, step: card.step, stability: card.stability, difficulty: card.difficulty,
             due: card.due, last_review: card.last_review };
  }

  // Python's round(): halves to even (the reference rounds intervals with it)
  function round(x) { return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x); }

  function daysSince(card, now) {  // whole days, as the reference's timedelta.days (floored)
    return card.last_review === null ? null : Math.floor((now - card.last_review) / DAY);
  }

  // The card after a review at `now` with `rating`; `draw`, a number in [0, 1), stands for the
  // reference's random() in the fuzz (Math.random() when none is given).
  Scheduler.prototype.review = function (card, rating, now, draw) {
    var c = copy(card);
    this.remember(c, rating, now);
    var interval = this.nextInterval(c, rating);
    if (this.enableFuzzing && c.state === REVIEW) interval = this.fuzzed(interval, draw);
    c.due = now + interval;
    c.last_review = now;
    return c;
  };

  // What each rating would do now: the cards after Again, Hard, Good and Easy, in that order.
  Scheduler.prototype.preview = function (card, now, draw) {
    var self = this;
    return [AGAIN, HARD, GOOD, EASY].map(function (r) { return self.review(card, r, now, draw); });
  };

  Scheduler.prototype.remember = function (c, rating, now) {  // its stability and difficulty
    if (c.stability === null || c.difficulty === null) {  // a new card's first review
      c.stability = this.initialStability(rating);
      c.difficulty = this.initialDifficulty(rating, true);
      return;
    }
    var days = daysSince(c, now);
    c.stability = days !== null && days < 1 ? this.shortTermStability(c.stability, rating)
      : this.nextStability(c.difficulty, c.stability, this.retrievability(c, now), rating);
    c.difficulty = this.nextDifficulty(c.difficulty, rating);
  };

  Scheduler.prototype.nextInterval = function (c, rating) {  // in ms; moves the card between states and steps
    if (c.state === REVIEW) {
      if (rating !== AGAIN || !this.relearningSteps.length) return this.graduate(c);
      c.state = RELEARNING;
      c.step = 0;
      return this.relearningSteps[0];
    }
    var steps = c.state === LEARNING ? this.learningSteps : this.relearningSteps;
    if (!steps.length || (c.step >= steps.length && rating !== AGAIN)) return this.graduate(c);
    if (rating === AGAIN) {
      c.step = 0;
      return steps[0];
    }
    if (rating === HARD) return this.hardStep(steps, c.step);
    if (rating === GOOD && c.step + 1 < steps.length) return steps[++c.step];
    return this.graduate(c);  // Good at the last step, or Easy
  };

  Scheduler.prototype.hardStep = function (steps, step) {  // Hard keeps the step
    if (step === 0 && steps.length === 1) return steps[0] * 1.5;
    if (step === 0) return (steps[0] + steps[1]) / 2;
    return steps[step];
  };

  Scheduler.prototype.graduate = function (c) {
    c.state = REVIEW;
    c.step = null;
    return this.intervalDays(c.stability) * DAY;
  };

  Scheduler.prototype.intervalDays = function (stability) {
    var days = round((stability / this.factor) * (Math.pow(this.desiredRetention, 1 / this.decay) - 1));
    return Math.min(Math.max(days, 1), this.maximumInterval);
  };

  Scheduler.prototype.retrievability = function (c, now) {
    if (c.last_review === null || c.stability === null) return 0;
    var elapsed = Math.max(0, daysSince(c, now));
    return Math.pow(1 + this.factor * elapsed / c.stability, this.decay);
  };

  Scheduler.prototype.initialStability = function (rating) { return Math.max(this.w[rating - 1], STABILITY_MIN); };

  Scheduler.prototype.initialDifficulty = function (rating, clamp) {
    var d = this.w[4] - Math.pow(Math.E, this.w[5] * (rating - 1)) + 1;
    return clamp ? clampDifficulty(d) : d;
  };

  function clampDifficulty(d) { return Math.min(Math.max(d, MIN_DIFFICULTY), MAX_DIFFICULTY); }

  Scheduler.prototype.shortTermStability = function (stability, rating) {
    var w = this.w, increase = Math.pow(Math.E, w[17] * (rating - 3 + w[18])) * Math.pow(stability, -w[19]);
    if (rating !== AGAIN) increase = Math.max(increase, 1);
    return Math.max(stability * increase, STABILITY_MIN);
  };

  Scheduler.prototype.nextDifficulty = function (difficulty, rating) {
    var w = this.w, target = this.initialDifficulty(EASY, false), delta = -(w[6] * (rating - 3));
    var damped = difficulty + (10 - difficulty) * delta / 9;
    return clampDifficulty(w[7] * target + (1 - w[7]) * damped);
  };

  Scheduler.prototype.nextStability = function (difficulty, stability, retrievability, rating) {
    var next = rating === AGAIN ? this.forgetStability(difficulty, stability, retrievability)
      : this.recallStability(difficulty, stability, retrievability, rating);
    return Math.max(next, STABILITY_MIN);
  };

  Scheduler.prototype.forgetStability = function (difficulty, stability, retrievability) {
    var w = this.w;
    var longTerm = w[11] * Math.pow(difficulty, -w[12]) * (Math.pow(stability + 1, w[13]) - 1) *
      Math.pow(Math.E, (1 - retrievability) * w[14]);
    return Math.min(longTerm, stability / Math.pow(Math.E, w[17] * w[18]));
  };

  Scheduler.prototype.recallStability = function (difficulty, stability, retrievability, rating) {
    var w = this.w, hardPenalty = rating === HARD ? w[15] : 1, easyBonus = rating === EASY ? w[16] : 1;
    return stability * (1 + Math.pow(Math.E, w[8]) * (11 - difficulty) * Math.pow(stability, -w[9]) *
      (Math.pow(Math.E, (1 - retrievability) * w[10]) - 1) * hardPenalty * easyBonus);
  };

  Scheduler.prototype.fuzzed = function (interval, draw) {  // whole days, spread as the reference spreads them
    var days = Math.floor(interval / DAY);
    if (days < 2.5) return interval;
    var range = this.fuzzRange(days), u = draw === undefined ? Math.random() : draw;
    return Math.min(round(u * (range.max - range.min + 1) + range.min), this.maximumInterval) * DAY;
  };

  Scheduler.prototype.fuzzRange = function (days) {
    var delta = 1;
    FUZZ_RANGES.forEach(function (r) { delta += r.factor * Math.max(Math.min(days, r.end) - r.start, 0); });
    var max = Math.min(round(days + delta), this.maximumInterval);
    return { min: Math.min(Math.max(2, round(days - delta)), max), max: max };
  };

  // ---------------------------------------------------------------- what the drills add
  // The fuzz's draw for a card's n-th review, made from its id and n (FNV-1a, 32 bits): the same
  // on every reload, so the interval a rating button shows is the one that rating gives.
  function draw(id, n) {
    var text = id + "#" + n, h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h / 4294967296;
  }

  // A card of the Leitner drills (issue 16: boxes 1..5, coming back after 0, 1, 2, 4, 8 days;
  // "I knew it" one box up, "I did not know it" back to box 1) read as FSRS state. The box is all
  // Leitner kept of a card's past: box 1, its last answer was "did not know"; box n > 1, its last
  // n - 1 answers were "knew", each when the previous box brought it back, the last one
  // LEITNER_DAYS[n] before its due. Those answers are replayed as Again / Good; the due date stays.
  var LEITNER_DAYS = [0, 0, 1, 2, 4, 8];

  function leitnerAnswers(box, due) {  // [[rating, time], ...], oldest first
    var last = due - LEITNER_DAYS[box] * DAY;
    if (box === 1) return [[AGAIN, last]];
    var answers = [[GOOD, last]];
    for (var b = box - 1; b >= 2; b--) answers.unshift([GOOD, answers[0][1] - LEITNER_DAYS[b] * DAY]);
    return answers;
  }

  function fromLeitner(box, due, scheduler) {
    var s = scheduler || new Scheduler(), card = newCard();
    leitnerAnswers(box, due).forEach(function (a) { card = s.review(card, a[0], a[1], 0); });
    card.due = due;
    return card;
  }

  var KBFsrs = {
    Scheduler: Scheduler, newCard: newCard, draw: draw, fromLeitner: fromLeitner,
    DEFAULT_PARAMETERS: DEFAULT_PARAMETERS.slice(), LEITNER_DAYS: LEITNER_DAYS.slice(), DAY: DAY, MINUTE: MINUTE,
    State: { Learning: LEARNING, Review: REVIEW, Relearning: RELEARNING },
    Rating: { Again: AGAIN, Hard: HARD, Good: GOOD, Easy: EASY },
  };
  if (typeof module !== "undefined" && module.exports) module.exports = KBFsrs;
  else root.KBFsrs = KBFsrs;
})(this);
