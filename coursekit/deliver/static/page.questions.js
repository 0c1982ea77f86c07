/* The course page: a lesson's questions. Inside the video: a question (the page's data, from the narration's
   question cues) whose last frame is reached while playing pauses the video there and is asked over it, with
   its choices if it has them; once answered, continuing skips the pause to think. Under the video: each
   question with a button that opens (and closes) its answer. The in-video questions are on or off
   (page.prefs.quiz); in lecture mode they are not asked inside the video (the teacher asks them). */
(function (page) {
  "use strict";

  var t = page.t;

  page.part(function (L) {
    var prefs = page.prefs;
    var section = L.section, video = L.video, stage = L.stage, fps = L.fps;
    var quizEl = section.querySelector(".quiz");
    var quizQuestion = quizEl.querySelector(".quiz-question");
    var quizChoices = quizEl.querySelector(".quiz-choices");
    var quizFeedback = quizEl.querySelector(".quiz-feedback");
    var quizAnswer = quizEl.querySelector(".quiz-answer");
    var quizReveal = quizEl.querySelector(".quiz-reveal");
    var quizContinue = quizEl.querySelector(".quiz-continue");
    var playBtn = section.querySelector(".controls .ctl.play");
    var quiz = null, lastQuizMs = null;
    var questions = (L.data.questions || []).filter(function (q) { return q.end_ms !== null && q.end_ms !== undefined; })
      .map(function (q) {
        var frame = fps ? Math.max(0, Math.round(q.end_ms * fps / 1000) - 1) : null;
        return { q: q, frame: frame, ms: fps ? frame * 1000 / fps : q.end_ms - 40 };
      });

    /* called with every frame shown: a question whose pause frame is reached while playing is asked
       (crossed in play, not jumped to by a seek) */
    function checkQuiz(ms) {
      var prev = lastQuizMs;
      lastQuizMs = ms;
      if (!prefs.quiz || prefs.lecture !== "off" || quiz || video.paused || prev === null || ms <= prev || ms - prev > 1500) { return; }
      for (var n = 0; n < questions.length; n++) {
        var at = questions[n].ms - (fps ? L.frameMs + 1 : 0);     // from the frame before it: pause on it, not after
        if (prev < at && ms >= at) { openQuiz(questions[n]); return; }
      }
    }

    function answered() {
      quiz.answered = true;
      quizAnswer.hidden = !quiz.item.q.answers.length;
      quizReveal.hidden = true;
      if (quiz.item.q.think_end_ms !== null && quiz.item.q.think_end_ms !== undefined) {
        var note = document.createElement("span");
        note.className = "quiz-skip";
        note.textContent = t("quiz_skip_note");
        quizFeedback.appendChild(note);
      }
    }

    function openQuiz(item) {
      var q = item.q;
      quiz = { item: item, answered: false };
      video.pause();
      video.currentTime = fps ? (item.frame + 0.5) / fps : item.ms / 1000;
      lastQuizMs = item.ms;
      quizQuestion.textContent = q.text;
      quizFeedback.textContent = "";
      quizAnswer.textContent = "";
      if (q.answers.length) {
        var head = document.createElement("strong");
        head.textContent = t("quiz_answer");
        quizAnswer.appendChild(head);
        q.answers.forEach(function (text) {
          var p = document.createElement("p");
          p.textContent = text;
          quizAnswer.appendChild(p);
        });
      }
      quizAnswer.hidden = true;
      while (quizChoices.firstChild) { quizChoices.removeChild(quizChoices.firstChild); }
      (q.choices || []).forEach(function (choice, n) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "quiz-choice";
        b.setAttribute("aria-pressed", "false");
        b.textContent = choice;
        b.addEventListener("click", function () { choose(n); });
        quizChoices.appendChild(b);
      });
      quizChoices.hidden = !(q.choices && q.choices.length);
      quizReveal.hidden = !q.answers.length;
      quizEl.hidden = false;
      stage.classList.add("quizzing");
      section.dataset.quiz = q.id;
      var focus = document.activeElement;
      if (!focus || focus === document.body || stage.contains(focus)) {
        var first = quizChoices.querySelector("button") || (quizReveal.hidden ? quizContinue : quizReveal);
        first.focus({ preventScroll: true });
      }
    }

    function choose(n) {
      if (!quiz) { return; }
      var q = quiz.item.q;
      Array.prototype.forEach.call(quizChoices.children, function (b, k) {
        b.setAttribute("aria-pressed", String(k === n));
        b.classList.toggle("right", q.correct !== null && k + 1 === q.correct);
        b.classList.toggle("wrong", q.correct !== null && k === n && k + 1 !== q.correct);
      });
      quizFeedback.textContent = q.correct === null ? t("quiz_chosen", { choice: q.choices[n] }) :
        (n + 1 === q.correct ? t("quiz_right") : t("quiz_wrong", { choice: q.choices[q.correct - 1] }));
      answered();
      quizContinue.focus({ preventScroll: true });
    }

    /* the question put away; `resume`: play on (past the pause to think, if it was answered) */
    function closeQuiz(resume) {
      var item = quiz && quiz.item, skip = quiz && quiz.answered;
      var hadFocus = quizEl.contains(document.activeElement);
      quiz = null;
      quizEl.hidden = true;
      stage.classList.remove("quizzing");
      delete section.dataset.quiz;
      if (hadFocus) { playBtn.focus({ preventScroll: true }); }
      if (!resume) { return; }
      if (skip && item.q.think_end_ms !== null && item.q.think_end_ms !== undefined) {
        L.seekMs(item.q.think_end_ms);            // answered: the pause to think is skipped
      }
      video.play().catch(function () {});
    }

    L.quizOpen = function () { return quiz !== null; };
    L.closeQuiz = closeQuiz;
    L.on("show", function (ms, time, source) { if (source !== "start") { checkQuiz(ms); } });
    L.on("userseek", function () { if (quiz) { closeQuiz(false); } });
    L.on("prefs", function () { if (!prefs.quiz && quiz) { closeQuiz(false); } });

    quizReveal.addEventListener("click", function () {
      if (!quiz) { return; }
      answered();
      quizContinue.focus({ preventScroll: true });
    });
    quizContinue.addEventListener("click", function () { closeQuiz(true); });
    quizEl.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { e.preventDefault(); closeQuiz(true); }
    });

    /* questions under the video: the answer opens (and closes) on request */
    page.each(section, ".qa .reveal", function (b) {
      var answer = document.getElementById(b.getAttribute("aria-controls"));
      b.addEventListener("click", function () {
        var open = answer.hidden;
        answer.hidden = !open;
        b.setAttribute("aria-expanded", String(open));
        b.textContent = open ? t("hide_answer") : t("show_answer");
      });
    });
  });
}(window.coursekit.page));
