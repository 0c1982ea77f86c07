/* The course page (coursekit/deliver/page.py). Per lesson: the video with the page's own controls
   (play, ±10 s, mute, subtitles, speed, subtitle size, in-video questions on or off, shortcuts,
   fullscreen) and progress bar (chapter marks, the chapter and a thumbnail under the pointer), the
   subtitles drawn over the video, questions asked inside the video (it pauses on the question's last
   frame), the transcript beside it (current line and current word highlighted, click to seek,
   search), seek buttons, questions whose answers open on request, and the course's widgets (their
   scripts call coursekit.widget). YouTube's keys (the table in ui_text.json, shown by ?). Remembered in
   localStorage: the subtitles (on or off, size), the in-video questions (on or off), and where each
   lesson was left. Plain ES5, no network beyond the page's own files, no libraries; the interface words
   come from the page's data (ui_text.json).

   Times on the page are whole milliseconds of the lesson, as in the subtitle files: a frame shown at
   media time t belongs to an item [start, end) when start <= round(t * 1000) < end. The shown frame's
   time comes from requestVideoFrameCallback (its mediaTime), not from currentTime, which only echoes
   what was set; timeupdate stands in while no frame is being presented (a video scrolled off screen). */
(function () {
  "use strict";

  var FRAME_FRESH_MS = 600;     // a presented frame newer than this wins over timeupdate
  var USER_SCROLL_MS = 4000;    // after the reader scrolls the transcript, leave it alone this long
  var SAVE_EVERY_MS = 2000;     // the position is written to localStorage at most this often
  var PREFS_KEY = "coursekit:prefs";
  var SIZES = ["s", "m", "l", "xl"];

  var dataEl = document.getElementById("page-data");
  var DATA = { ui: {}, lessons: {} };
  try { if (dataEl) { DATA = JSON.parse(dataEl.textContent); } } catch (err) { /* the page still works */ }
  var UI = DATA.ui || {};

  function t(key, fill) {
    var text = String(UI[key] === undefined ? key : UI[key]);
    Object.keys(fill || {}).forEach(function (name) { text = text.split("{" + name + "}").join(String(fill[name])); });
    return text;
  }

  /* localStorage, which may be missing or refuse (private windows, file://): then nothing is remembered */
  var store = {
    get: function (key, fallback) {
      try { var v = window.localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
      catch (err) { return fallback; }
    },
    set: function (key, value) { try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (err) { /* no */ } },
    remove: function (key) { try { window.localStorage.removeItem(key); } catch (err) { /* no */ } }
  };
  var prefs = (function () {
    var saved = store.get(PREFS_KEY, {}) || {};
    return { subs: saved.subs !== false, size: SIZES.indexOf(saved.size) >= 0 ? saved.size : "m", quiz: saved.quiz !== false };
  }());
  function savePrefs() { store.set(PREFS_KEY, prefs); }

  var reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };
  function scrollBehavior() { return reducedMotion.matches ? "auto" : "smooth"; }

  function clock(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    var mm = h ? (m < 10 ? "0" : "") + m : String(m);
    return (h ? h + ":" : "") + mm + ":" + (r < 10 ? "0" : "") + r;
  }

  function each(root, selector, fn) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), fn);
  }

  /* The time to set so that the first frame at or after `ms` is presented (half a frame in, so the
     frame shown is that one whatever the container's rounding). */
  function seekTime(ms, fps) {
    if (!fps) { return ms / 1000 + 0.0005; }
    var k = Math.max(0, Math.ceil((ms - 0.5) * fps / 1000));
    return (k + 0.5) / fps;
  }

  /* "00:01:02.500" or "01:02.500" -> seconds */
  function vttSeconds(text) {
    var parts = text.trim().split(":").map(Number);
    var s = 0;
    parts.forEach(function (p) { s = s * 60 + p; });
    return s;
  }

  /* the seek-bar thumbnails' WebVTT: cues whose text is "sprite.jpg#xywh=X,Y,W,H", relative to the file */
  function parseThumbnails(text, base) {
    var out = [];
    text.replace(/\r\n?/g, "\n").split(/\n\s*\n/).forEach(function (block) {
      var rows = block.split("\n").map(function (r) { return r.trim(); }).filter(Boolean);
      for (var n = 0; n < rows.length; n++) {
        var m = rows[n].match(/^([\d:.]+)\s+-->\s+([\d:.]+)/);
        if (!m || !rows[n + 1]) { continue; }
        var ref = rows[n + 1], at = ref.indexOf("#xywh=");
        if (at < 0) { return; }
        var box = ref.slice(at + 6).split(",").map(Number);
        if (box.length !== 4 || box.some(isNaN)) { return; }
        out.push({ start: vttSeconds(m[1]), end: vttSeconds(m[2]), url: new URL(ref.slice(0, at), base).href,
                   x: box[0], y: box[1], w: box[2], h: box[3] });
        return;
      }
    });
    return out;
  }

  var lessons = [];
  var activeLesson = null;

  function Lesson(section) {
    var self = { section: section };
    var lid = section.id;
    var data = (DATA.lessons || {})[lid] || { questions: [], thumbnails: null };
    var video = section.querySelector("video");
    var fps = Number(section.dataset.fps) || 0;
    var frameMs = fps ? 1000 / fps : 40;
    var plannedDuration = Number(section.dataset.durationMs) / 1000;
    var stage = section.querySelector(".stage");
    var bar = section.querySelector(".progress");
    var fill = bar.querySelector(".fill");
    var tip = bar.querySelector(".tip");
    var tipText = tip.querySelector(".tip-text");
    var thumb = tip.querySelector(".thumb");
    var timeEl = section.querySelector(".time");
    var nowChapter = section.querySelector(".now-chapter");
    var list = section.querySelector(".lines");
    var search = section.querySelector(".search");
    var count = section.querySelector(".count");
    var captions = section.querySelector(".captions");
    var cap = captions.querySelector(".cap");
    var controls = section.querySelector(".controls");
    var button = function (cls) { return controls.querySelector(".ctl." + cls); };
    var playBtn = button("play"), muteBtn = button("mute"), ccBtn = button("cc"), fullBtn = button("full");
    var speedSel = controls.querySelector(".speed"), sizeSel = controls.querySelector(".cap-size");
    var quizSwitch = button("quiz-switch");
    var resumeEl = section.querySelector(".resume");
    var lines = Array.prototype.slice.call(section.querySelectorAll(".lines .line"));
    var texts = lines.map(function (l) { return l.querySelector(".x").textContent; });
    var original = lines.map(function (l) {          // each line's own markup (its words), put back after a search
      return Array.prototype.map.call(l.querySelector(".x").childNodes, function (n) { return n.cloneNode(true); });
    });
    var marked = lines.map(function () { return false; });
    var marks = Array.prototype.slice.call(bar.querySelectorAll(".mark"));
    var chapters = marks.map(function (m) {
      return { start: Number(m.dataset.start), end: Number(m.dataset.end), title: m.dataset.title, mark: m };
    });
    var currentLine = null, currentWords = null, currentWord = null, currentChapter = null;
    var lastFrameAt = -1e9, userScrollAt = -1e9, shownTime = 0;
    var query = "", dragging = false;
    var posKey = "coursekit:pos:" + location.pathname + "#" + lid;
    var lastSaveAt = -1e9, saveTimer = null;
    var thumbs = [];
    var quiz = null, lastQuizMs = null, stepFrame = null;
    var questions = (data.questions || []).filter(function (q) { return q.end_ms !== null && q.end_ms !== undefined; })
      .map(function (q) {
        var frame = fps ? Math.max(0, Math.round(q.end_ms * fps / 1000) - 1) : null;
        return { q: q, frame: frame, ms: fps ? frame * 1000 / fps : q.end_ms - 40 };
      });

    function duration() {
      return isFinite(video.duration) && video.duration > 0 ? video.duration : plannedDuration;
    }
    function nowMs() { return Math.round(video.currentTime * 1000); }

    function seekMs(ms) {
      video.currentTime = Math.min(seekTime(ms, fps), Math.max(0, duration() - 0.001));
    }
    /* a seek the viewer asked for: it closes an open in-video question */
    function userSeek(ms) {
      if (quiz) { closeQuiz(false); }
      stepFrame = null;
      seekMs(Math.max(0, Math.min(duration() * 1000, ms)));
    }

    function chapterAt(ms) {
      for (var n = chapters.length - 1; n >= 0; n--) {
        if (chapters[n].start <= ms) { return chapters[n]; }
      }
      return chapters[0] || null;
    }
    function nextChapterMs() {
      var at = chapters.indexOf(chapterAt(nowMs()));
      return at + 1 < chapters.length ? chapters[at + 1].start : duration() * 1000;
    }
    function previousChapterMs() {
      var ms = nowMs(), ch = chapterAt(ms), at = chapters.indexOf(ch);
      return ch && ms - ch.start > 2000 ? ch.start : (at > 0 ? chapters[at - 1].start : 0);
    }

    function scrollToLine(line) {
      if (query || performance.now() - userScrollAt < USER_SCROLL_MS) { return; }
      var top = line.offsetTop, bottom = top + line.offsetHeight;
      if (top < list.scrollTop + 8 || bottom > list.scrollTop + list.clientHeight - 8) {
        list.scrollTo({ top: Math.max(0, top - list.clientHeight / 3), behavior: scrollBehavior() });
      }
    }

    function wordsOf(line) {
      return Array.prototype.map.call(line.querySelectorAll(".x .w"), function (w) {
        return { el: w, at: Number(w.dataset.at) };
      });
    }

    function showWord(ms) {
      var found = null;
      if (currentLine) {
        if (!currentWords) { currentWords = wordsOf(currentLine); }
        for (var n = currentWords.length - 1; n >= 0; n--) {
          if (currentWords[n].at <= ms) { found = currentWords[n].el; break; }
        }
      }
      if (found !== currentWord) {
        if (currentWord) { currentWord.classList.remove("now"); }
        if (found) { found.classList.add("now"); }
        currentWord = found;
      }
    }

    function showCaption() {
      var n = currentLine ? lines.indexOf(currentLine) : -1;
      var on = prefs.subs && n >= 0;
      if (on && cap.textContent !== texts[n]) { cap.textContent = texts[n]; }
      captions.hidden = !on;
    }

    function show(time, source) {
      var ms = Math.round(time * 1000);
      shownTime = time;
      section.dataset.shownTime = String(time);
      section.dataset.shownBy = source;
      var found = null;
      for (var n = 0; n < lines.length; n++) {
        var l = lines[n];
        if (Number(l.dataset.start) <= ms && ms < Number(l.dataset.end)) { found = l; break; }
      }
      if (found !== currentLine) {
        if (currentLine) { currentLine.classList.remove("current"); currentLine.removeAttribute("aria-current"); }
        if (found) { found.classList.add("current"); found.setAttribute("aria-current", "true"); scrollToLine(found); }
        currentLine = found;
        currentWords = null;
      }
      showWord(ms);
      showCaption();
      var d = duration();
      var share = Math.max(0, Math.min(1, time / d));
      fill.style.width = (share * 100).toFixed(3) + "%";
      bar.setAttribute("aria-valuenow", String(Math.floor(time)));
      var ch = chapterAt(ms);
      bar.setAttribute("aria-valuetext", clock(time) + (ch ? "，" + ch.title : ""));
      timeEl.textContent = clock(time) + " / " + clock(d);
      if (ch !== currentChapter) {
        if (currentChapter) { currentChapter.mark.classList.remove("current"); }
        if (ch) { ch.mark.classList.add("current"); }
        nowChapter.textContent = ch ? t("chapter_n", { n: chapters.indexOf(ch) + 1, title: ch.title }) : "";
        currentChapter = ch;
      }
      if (source !== "start") { checkQuiz(ms); }
    }

    if ("requestVideoFrameCallback" in video) {
      var onFrame = function (now, meta) {
        lastFrameAt = performance.now();
        show(meta.mediaTime, "frame");
        video.requestVideoFrameCallback(onFrame);
      };
      video.requestVideoFrameCallback(onFrame);
    }
    ["timeupdate", "seeked", "loadedmetadata"].forEach(function (name) {
      video.addEventListener(name, function () {
        if (performance.now() - lastFrameAt > FRAME_FRESH_MS) { show(video.currentTime, "time"); }
      });
    });

    /* --- questions inside the video: it pauses on the question's last frame and asks ---------------- */
    var quizEl = section.querySelector(".quiz");
    var quizQuestion = quizEl.querySelector(".quiz-question");
    var quizChoices = quizEl.querySelector(".quiz-choices");
    var quizFeedback = quizEl.querySelector(".quiz-feedback");
    var quizAnswer = quizEl.querySelector(".quiz-answer");
    var quizReveal = quizEl.querySelector(".quiz-reveal");
    var quizContinue = quizEl.querySelector(".quiz-continue");

    /* called with every frame shown: a question whose pause frame is reached while playing is asked
       (crossed in play, not jumped to by a seek) */
    function checkQuiz(ms) {
      var prev = lastQuizMs;
      lastQuizMs = ms;
      if (!prefs.quiz || quiz || video.paused || prev === null || ms <= prev || ms - prev > 1500) { return; }
      for (var n = 0; n < questions.length; n++) {
        var at = questions[n].ms - (fps ? frameMs + 1 : 0);     // from the frame before it: pause on it, not after
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
        seekMs(item.q.think_end_ms);            // answered: the pause to think is skipped
      }
      video.play().catch(function () {});
    }

    quizReveal.addEventListener("click", function () {
      if (!quiz) { return; }
      answered();
      quizContinue.focus({ preventScroll: true });
    });
    quizContinue.addEventListener("click", function () { closeQuiz(true); });
    quizEl.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { e.preventDefault(); closeQuiz(true); }
    });

    /* --- the controls --------------------------------------------------------------------------- */
    function togglePlay() {
      if (quiz) { closeQuiz(true); return; }
      if (video.paused || video.ended) { video.play().catch(function () {}); } else { video.pause(); }
    }
    function showPlaying() {
      var playing = !video.paused && !video.ended;
      playBtn.classList.toggle("playing", playing);
      playBtn.setAttribute("aria-label", playing ? t("pause") : t("play"));
      playBtn.title = (playing ? t("pause") : t("play")) + "（k）";
    }
    function toggleFullscreen() {
      var d = document;
      if (d.fullscreenElement || d.webkitFullscreenElement) {
        (d.exitFullscreen || d.webkitExitFullscreen).call(d);
      } else if (stage.requestFullscreen) {
        stage.requestFullscreen().catch(function () {});
      } else if (stage.webkitRequestFullscreen) {
        stage.webkitRequestFullscreen();
      } else if (video.webkitEnterFullscreen) {
        video.webkitEnterFullscreen();          // iPhone: the video alone
      }
    }
    function toggleMute() {
      video.muted = !video.muted;
      muteBtn.setAttribute("aria-pressed", String(video.muted));   // now, not only when volumechange comes
    }
    function stepFrames(n) {
      if (!video.paused || !fps) { return; }
      if (quiz) { closeQuiz(false); }
      var base = video.seeking && stepFrame !== null ? stepFrame : Math.round(shownTime * fps);
      var last = Math.max(0, Math.floor(duration() * fps - 1e-6) - 1);
      stepFrame = Math.max(0, Math.min(last, base + n));
      video.currentTime = (stepFrame + 0.5) / fps;
    }

    self.applyPrefs = function () {
      ccBtn.setAttribute("aria-pressed", String(prefs.subs));
      quizSwitch.setAttribute("aria-pressed", String(prefs.quiz));
      stage.dataset.capSize = prefs.size;
      sizeSel.value = prefs.size;
      if (!prefs.quiz && quiz) { closeQuiz(false); }
      showCaption();
    };
    function setPref(name, value) {
      prefs[name] = value;
      savePrefs();
      lessons.forEach(function (l) { l.applyPrefs(); });
    }

    playBtn.addEventListener("click", togglePlay);
    button("back10").addEventListener("click", function () { userSeek(nowMs() - 10000); });
    button("forward10").addEventListener("click", function () { userSeek(nowMs() + 10000); });
    muteBtn.addEventListener("click", toggleMute);
    ccBtn.addEventListener("click", function () { setPref("subs", !prefs.subs); });
    quizSwitch.addEventListener("click", function () { setPref("quiz", !prefs.quiz); });
    fullBtn.addEventListener("click", toggleFullscreen);
    button("keys").addEventListener("click", function () { openKeys(); });
    sizeSel.addEventListener("change", function () { setPref("size", sizeSel.value); });
    speedSel.addEventListener("change", function () { video.playbackRate = Number(speedSel.value); });
    video.addEventListener("ratechange", function () {
      var v = String(video.playbackRate);
      if (speedSel.querySelector('option[value="' + v + '"]')) { speedSel.value = v; }
    });
    video.addEventListener("volumechange", function () { muteBtn.setAttribute("aria-pressed", String(video.muted)); });
    ["play", "pause", "ended", "emptied"].forEach(function (name) { video.addEventListener(name, showPlaying); });
    video.addEventListener("click", togglePlay);
    ["fullscreenchange", "webkitfullscreenchange"].forEach(function (name) {
      document.addEventListener(name, function () {
        var on = (document.fullscreenElement || document.webkitFullscreenElement) === stage;
        stage.classList.toggle("full", on);
        fullBtn.setAttribute("aria-pressed", String(on));
      });
    });
    fullBtn.setAttribute("aria-pressed", "false");

    /* the page draws the subtitles (their size is the viewer's); the browser's own stay hidden */
    video.controls = false;
    controls.hidden = false;
    Array.prototype.forEach.call(video.textTracks || [], function (track) {
      if (track.kind === "subtitles" || track.kind === "captions") { track.mode = "hidden"; }
    });

    /* --- where the lesson was left: remembered, offered again, the restart button starts over ------- */
    function savePosition() {
      lastSaveAt = performance.now();
      if (saveTimer !== null) { clearTimeout(saveTimer); saveTimer = null; }
      var time = video.currentTime;
      if (!(time >= 1) || video.ended || time > duration() - 1) { store.remove(posKey); }
      else { store.set(posKey, Math.round(time * 1000) / 1000); }
    }
    function saveSoon() {                         // throttled: one write per SAVE_EVERY_MS at most
      if (saveTimer !== null) { return; }
      saveTimer = setTimeout(savePosition, Math.max(0, SAVE_EVERY_MS - (performance.now() - lastSaveAt)));
    }
    ["timeupdate", "seeked"].forEach(function (name) { video.addEventListener(name, saveSoon); });
    ["pause", "ended"].forEach(function (name) { video.addEventListener(name, savePosition); });
    window.addEventListener("pagehide", savePosition);
    document.addEventListener("visibilitychange", function () { if (document.hidden) { savePosition(); } });

    function restore() {
      var saved = Number(store.get(posKey, 0));
      if (!(saved >= 1) || saved > duration() - 1) { return; }
      video.currentTime = saved;
      resumeEl.querySelector(".resume-text").textContent = t("resumed", { t: clock(saved) });
      resumeEl.hidden = false;
    }
    if (video.readyState >= 1) { restore(); } else { video.addEventListener("loadedmetadata", restore, { once: true }); }
    resumeEl.querySelector(".restart").addEventListener("click", function () {
      store.remove(posKey);
      resumeEl.hidden = true;
      userSeek(0);
      video.play().catch(function () {});
      playBtn.focus({ preventScroll: true });
    });

    /* --- the progress bar: click or drag to seek; the time, chapter and thumbnail under the pointer -- */
    function msAtX(clientX) {
      var r = bar.getBoundingClientRect();
      return Math.max(0, Math.min(1, (clientX - r.left) / r.width)) * duration() * 1000;
    }
    function thumbAt(ms) {
      var s = ms / 1000, found = null;
      for (var n = 0; n < thumbs.length; n++) {
        if (thumbs[n].start <= s + 1e-6) { found = thumbs[n]; }
        if (thumbs[n].start <= s && s < thumbs[n].end) { return thumbs[n]; }
      }
      return found;
    }
    function showTip(ms) {
      var ch = chapterAt(ms);
      tipText.textContent = clock(ms / 1000) + (ch ? " · " + ch.title : "");
      var th = thumbAt(ms);
      if (th) {
        var scale = Math.min(1, 176 / th.w), img = th.image;
        thumb.style.width = (th.w * scale) + "px";
        thumb.style.height = (th.h * scale) + "px";
        thumb.style.backgroundImage = 'url("' + th.url.replace(/"/g, "%22") + '")';
        thumb.style.backgroundPosition = (-th.x * scale) + "px " + (-th.y * scale) + "px";
        thumb.style.backgroundSize = img && img.naturalWidth ? (img.naturalWidth * scale) + "px " + (img.naturalHeight * scale) + "px" : "";
        thumb.dataset.xywh = [th.x, th.y, th.w, th.h].join(",");
        thumb.hidden = false;
      } else {
        thumb.hidden = true;
      }
      tip.hidden = false;
      var r = bar.getBoundingClientRect();
      var half = tip.offsetWidth / 2;
      var x = Math.max(half, Math.min(r.width - half, ms / 1000 / duration() * r.width));
      tip.style.left = x + "px";
    }
    if (data.thumbnails && window.fetch) {
      var base = new URL(data.thumbnails, location.href).href;
      fetch(base).then(function (r) { return r.ok ? r.text() : ""; }).then(function (text) {
        thumbs = parseThumbnails(text, base);
        var images = {};
        thumbs.forEach(function (th) {
          if (!images[th.url]) { images[th.url] = new Image(); images[th.url].src = th.url; }
          th.image = images[th.url];
        });
        section.dataset.thumbnails = String(thumbs.length);
      }).catch(function () { section.dataset.thumbnails = "0"; });
    }
    bar.addEventListener("pointerdown", function (e) {
      dragging = true;
      bar.setPointerCapture(e.pointerId);
      var ms = msAtX(e.clientX);
      showTip(ms);
      userSeek(ms);
    });
    bar.addEventListener("pointermove", function (e) {
      var ms = msAtX(e.clientX);
      showTip(ms);
      if (dragging) { userSeek(ms); }
    });
    function endDrag() { dragging = false; tip.hidden = true; }
    bar.addEventListener("pointerup", endDrag);
    bar.addEventListener("pointercancel", endDrag);
    bar.addEventListener("pointerleave", function () { if (!dragging) { tip.hidden = true; } });
    bar.addEventListener("blur", function () { tip.hidden = true; });
    bar.addEventListener("keydown", function (e) {
      var ms = nowMs(), target = null;
      if (e.key === "ArrowRight" || e.key === "ArrowUp") { target = ms + 5000; }
      else if (e.key === "ArrowLeft" || e.key === "ArrowDown") { target = ms - 5000; }
      else if (e.key === "PageDown") { target = nextChapterMs(); }
      else if (e.key === "PageUp") { target = previousChapterMs(); }
      else if (e.key === "Home") { target = 0; }
      else if (e.key === "End") { target = duration() * 1000 - 1; }
      else if (e.key === " " || e.key === "Enter") {
        e.preventDefault();
        togglePlay();
        return;
      }
      if (target === null) { return; }
      e.preventDefault();
      target = Math.max(0, Math.min(duration() * 1000, target));
      userSeek(target);
      showTip(target);
    });

    /* --- the keys, YouTube's (document-wide; see the handler at the end) ------------------------- */
    self.key = function (e) {
      var k = e.key;
      if (k === "?") { openKeys(); return true; }
      if (e.shiftKey && (k === "N" || k === "n")) { userSeek(nextChapterMs()); return true; }
      if (e.shiftKey && (k === "P" || k === "p")) { userSeek(previousChapterMs()); return true; }
      if (e.shiftKey) { return false; }
      if (k === "k" || k === " ") { togglePlay(); return true; }
      if (k === "j") { userSeek(nowMs() - 10000); return true; }
      if (k === "l") { userSeek(nowMs() + 10000); return true; }
      if (k === "ArrowLeft") { userSeek(nowMs() - 5000); return true; }
      if (k === "ArrowRight") { userSeek(nowMs() + 5000); return true; }
      if (k === ",") { stepFrames(-1); return true; }
      if (k === ".") { stepFrames(1); return true; }
      if (k === "c") { setPref("subs", !prefs.subs); return true; }
      if (k === "m") { toggleMute(); return true; }
      if (k === "f") { toggleFullscreen(); return true; }
      if (/^[0-9]$/.test(k)) { userSeek(duration() * 1000 * Number(k) / 10); return true; }
      return false;
    };

    /* --- transcript: click a line to seek; search filters ---------------------------------------- */
    lines.forEach(function (line) {
      line.addEventListener("click", function () { userSeek(Number(line.dataset.start)); });
    });
    ["wheel", "touchmove"].forEach(function (name) {
      list.addEventListener(name, function () { userScrollAt = performance.now(); }, { passive: true });
    });
    list.addEventListener("keydown", function () { userScrollAt = performance.now(); });

    function highlight(el, text, q) {
      while (el.firstChild) { el.removeChild(el.firstChild); }
      var lower = text.toLowerCase(), from = 0, at;
      while ((at = lower.indexOf(q, from)) >= 0) {
        el.appendChild(document.createTextNode(text.slice(from, at)));
        var m = document.createElement("mark");
        m.textContent = text.slice(at, at + q.length);
        el.appendChild(m);
        from = at + q.length;
      }
      el.appendChild(document.createTextNode(text.slice(from)));
    }
    function filter() {
      query = search.value.trim().toLowerCase();
      var shown = 0;
      lines.forEach(function (line, n) {
        var hit = !query || texts[n].toLowerCase().indexOf(query) >= 0;
        line.parentNode.hidden = !hit;
        if (hit) { shown++; }
        var x = line.querySelector(".x");
        if (hit && query) { highlight(x, texts[n], query); marked[n] = true; }
        else if (marked[n]) {                     // the line's own words back (the word highlight needs them)
          while (x.firstChild) { x.removeChild(x.firstChild); }
          original[n].forEach(function (node) { x.appendChild(node.cloneNode(true)); });
          marked[n] = false;
        }
      });
      currentWords = null;
      currentWord = null;
      showWord(Math.round(shownTime * 1000));
      count.textContent = query ? t("count", { n: shown }) : "";
      if (!query && currentLine) { scrollToLine(currentLine); }
    }
    search.addEventListener("input", filter);
    search.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && search.value) { search.value = ""; filter(); }
    });

    /* seek buttons (chapters, questions, widgets): seek, and bring the video into view */
    each(section, "button.seek", function (b) {
      b.addEventListener("click", function () {
        userSeek(Number(b.dataset.start));
        var r = video.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) { stage.scrollIntoView({ block: "start", behavior: scrollBehavior() }); }
      });
    });

    /* questions under the video: the answer opens (and closes) on request */
    each(section, ".qa .reveal", function (b) {
      var answer = document.getElementById(b.getAttribute("aria-controls"));
      b.addEventListener("click", function () {
        var open = answer.hidden;
        answer.hidden = !open;
        b.setAttribute("aria-expanded", String(open));
        b.textContent = open ? t("hide_answer") : t("show_answer");
      });
    });

    ["pointerdown", "focusin"].forEach(function (name) {
      section.addEventListener(name, function () { activeLesson = self; });
    });
    video.addEventListener("play", function () { activeLesson = self; });

    self.applyPrefs();
    showPlaying();
    show(0, "start");
    return self;
  }

  /* --- the shortcut list (?), a dialog; Esc closes it ----------------------------------------------- */
  var keysDialog = document.getElementById("keys-dialog");
  function openKeys() {
    if (keysDialog && !keysDialog.open) { keysDialog.showModal(); }
  }
  if (keysDialog) {
    keysDialog.querySelector(".keys-close").addEventListener("click", function () { keysDialog.close(); });
    keysDialog.addEventListener("click", function (e) { if (e.target === keysDialog) { keysDialog.close(); } });
  }

  /* --- keys go to the lesson that has focus (or was used last, or is on screen); never while typing -- */
  var TYPING = /^(text|search|email|number|password|url|tel|date|time|datetime-local|month|week)$/;
  function typing(el) {
    if (!el || !el.tagName) { return false; }
    if (el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT") { return true; }
    return el.tagName === "INPUT" && TYPING.test(el.type || "text");
  }
  function lessonFor(el) {
    var section = el && el.closest ? el.closest(".lesson") : null;
    for (var n = 0; n < lessons.length; n++) { if (lessons[n].section === section) { return lessons[n]; } }
    if (activeLesson) { return activeLesson; }
    for (n = 0; n < lessons.length; n++) {
      var r = lessons[n].section.getBoundingClientRect();
      if (r.bottom > 0 && r.top < window.innerHeight) { return lessons[n]; }
    }
    return lessons[0] || null;
  }
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) { return; }
    if (keysDialog && keysDialog.open) { return; }
    var el = e.target;
    if (typing(el)) { return; }
    var tag = el && el.tagName;
    if ((e.key === " " || e.key === "Enter") && /^(BUTTON|A|SUMMARY|INPUT)$/.test(tag)) { return; }   // their own
    if (tag === "INPUT" && el.type === "range" && /^(Arrow|Home|End|Page)/.test(e.key)) { return; }
    var lesson = lessonFor(el);
    if (lesson && lesson.key(e)) { e.preventDefault(); }
  });

  /* the author's note on opening the page by double-click: only where it applies */
  if (location.protocol === "file:") { each(document, ".file-note", function (p) { p.hidden = false; }); }

  /* --- widgets: the course's own (coursekit/deliver/widgets.py). A kind's script, inlined after this one,
     calls coursekit.widget(kind, init); init(element, data) runs for each widget of that kind on the page,
     with its outermost element and the data beside it. One that fails leaves the others working. ------ */
  window.coursekit = {
    widget: function (kind, init) {
      each(document, 'script.widget-data[data-kind="' + kind + '"]', function (script) {
        try { init(document.getElementById(script.dataset.for), JSON.parse(script.textContent)); }
        catch (err) { if (window.console) { window.console.error("widget " + script.dataset.for + ": " + err); } }
      });
    }
  };

  each(document, ".lesson", function (section) { lessons.push(Lesson(section)); });
}());
