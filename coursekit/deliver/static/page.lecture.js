/* The course page: lecture mode and the presenter view, for a teacher who shows the course in a classroom.

   Lecture mode (page.prefs.lecture, remembered with the other preferences; the lecture menu under the
   video): "cue" stops the video on the last frame of each cue, "chapter" on the last frame of each chapter.
   →, Space and PageDown (what presenter remotes send) go on: paused, the video plays to the next stop;
   playing, it goes to the next stop at once. ← and PageUp go back one cue: to the last frame of the cue
   before the one under way (or just ended), paused; from the first cue, to the start. These keys are taken before the page's others (a
   focused button or the progress bar's own), but never while the viewer types, in a menu, or with the
   list of keys open; Enter still presses a focused button. In lecture mode the in-video questions are not
   asked (page.questions.js): the teacher asks them. p opens the presenter view (and lecture mode, if off).

   The presenter view is this page opened again with ?presenter in a second window: it plays no video and
   shows the cue under way and the next one, the chapter, the count, the time of day and the time since it
   opened. The two windows talk over a BroadcastChannel named for the page: the page sends the state of the
   lesson being taught ({kind: "state", lesson, mode, cue, total, stopped, paused, ended}) whenever it
   changes; the presenter view asks for it when it opens ({kind: "hello"}) and sends its own keys back
   ({kind: "go", action: "next" | "back", lesson}), so the remote works in either window.

   Frames, not milliseconds: a cue's last frame is round(end_ms * fps / 1000) - 1, the frame before its end
   (as page.questions.js pauses on a question's). The video is stopped from the frame before the stop, so it
   rests on the stop itself whatever the playback rate. The cues come from the page's data (the manifest's
   cues, coursekit.deliver.page_text.lecture_cues). */
(function (page) {
  "use strict";

  var t = page.t;
  var NEXT = { ArrowRight: true, " ": true, PageDown: true };
  var BACK = { ArrowLeft: true, PageUp: true };
  var channel = null;
  try {
    if ("BroadcastChannel" in window) { channel = new window.BroadcastChannel("coursekit-lecture:" + location.pathname); }
  } catch (err) { channel = null; }    // an opaque origin (some file:// pages): no presenter view
  function post(message) {
    if (channel) { try { channel.postMessage(message); } catch (err) { /* closed */ } }
  }
  function keyAction(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey || e.isComposing) { return null; }
    return NEXT[e.key] ? "next" : (BACK[e.key] ? "back" : null);
  }

  page.presenter = /[?&]presenter(=|&|$)/.test(location.search);
  if (page.presenter) { presenterView(); return; }

  var lecturing = null;             // the lesson the presenter view follows: the last one taught

  page.part(function (L) {
    var prefs = page.prefs, video = L.video, section = L.section;
    var fps = L.fps || 25;
    var cues = L.data.cues || [];
    var select = section.querySelector(".lecture-mode");
    var stateEl = section.querySelector(".lecture-state");
    var badge = section.querySelector(".lecture-badge");
    var presenterBtn = section.querySelector(".presenter-open");
    var lastFrame = function (ms) { return Math.max(0, Math.round(ms * fps / 1000) - 1); };
    var firstFrame = function (ms) { return Math.max(0, Math.ceil((ms - 0.5) * fps / 1000)); };
    var cueStops = cues.map(function (c) { return lastFrame(c.end_ms); });
    var cueStarts = cues.map(function (c) { return firstFrame(c.start_ms); });
    var chapterStops = L.chapters.map(function (ch) { return lastFrame(ch.end); });
    var at = 0;                     // the frame shown
    var stopped = null;             // the stop the video rests on, if it does
    var sent = "";

    function mode() { return prefs.lecture || "off"; }
    function stops() { return mode() === "chapter" ? chapterStops : cueStops; }
    /* the frame of a media time: a presented frame's (its start) or a seek's (half a frame in) */
    function frameOf(time) { return Math.max(0, Math.round(time * fps - 0.25)); }
    function cueAt(f) {
      for (var n = cueStarts.length - 1; n >= 0; n--) { if (cueStarts[n] <= f) { return n; } }
      return -1;
    }

    function stopAt(frame) {
      video.pause();
      stopped = frame;
      at = frame;
      video.currentTime = (frame + 0.5) / fps;
      render();
    }

    /* → : paused, play to the next stop; playing, go to it now */
    function next() {
      if (mode() === "off") { return false; }
      lecturing = L;
      if (L.quizOpen()) { L.closeQuiz(false); }
      var s = stops().filter(function (f) { return f > at; })[0];
      if (video.paused || video.ended) {
        if (s === undefined && at >= Math.floor(L.duration() * fps) - 1) { return true; }   // the end: nothing more
        stopped = null;
        video.play().catch(function () {});
      } else if (s !== undefined) {
        stopAt(s);
      }
      render();
      return true;
    }
    /* ← : back one cue, to the last frame of the cue before the one under way (or the start), paused */
    function back() {
      if (mode() === "off") { return false; }
      lecturing = L;
      if (L.quizOpen()) { L.closeQuiz(false); }
      var cue = cueAt(at);
      if (cue >= 1) { stopAt(cueStops[cue - 1]); return true; }
      video.pause();
      stopped = null;
      at = 0;
      L.seekMs(0);
      render();
      return true;
    }

    function state() {
      var cue = cueAt(at);
      return { kind: "state", lesson: L.id, mode: mode(), cue: cue, total: cues.length,
               stopped: stopped !== null && video.paused, paused: video.paused, ended: video.ended };
    }
    function render(force) {
      var s = state(), on = s.mode !== "off";
      section.dataset.lectureCue = String(s.cue);
      section.dataset.lectureStopped = String(s.stopped);
      var text = !on ? "" : s.ended ? t("lecture_end") : s.cue < 0 ? t("lecture_ready") :
        t(s.stopped ? "lecture_stopped" : "lecture_playing", { n: s.cue + 1, total: s.total });
      if (badge.textContent !== text) { badge.textContent = text; }
      badge.hidden = !on;
      if (stateEl.textContent !== text) { stateEl.textContent = text; }
      if (!on || !(lecturing === L || lecturing === null)) { return; }
      lecturing = L;
      var json = JSON.stringify(s);
      if (force || json !== sent) { sent = json; post(s); }
    }

    function openPresenter() {
      if (mode() === "off") { page.setPref("lecture", "cue"); }
      lecturing = L;
      var w = window.open(location.pathname + "?presenter=" + encodeURIComponent(L.id), "coursekit-presenter",
                          "popup,width=960,height=640");
      if (!w) { stateEl.textContent = t("lecture_blocked"); }
      render(true);
    }

    L.on("show", function (ms, time, source) {
      var f = frameOf(time), prev = at;
      at = f;
      if (source !== "start" && mode() !== "off" && !video.paused && f > prev && f - prev <= 1.5 * fps) {
        var list = stops();
        for (var n = 0; n < list.length; n++) {
          if (prev < list[n] && f >= list[n] - 1) { stopAt(list[n]); return; }   // from the frame before it
        }
      }
      render();
    });
    L.on("prefs", function () {
      select.value = mode();
      if (mode() === "off") { stopped = null; }
      render();
    });
    L.on("userseek", function () { stopped = null; });
    video.addEventListener("play", function () { stopped = null; render(); });
    ["pause", "ended"].forEach(function (name) { video.addEventListener(name, function () { render(); }); });
    select.addEventListener("change", function () { page.setPref("lecture", select.value); });
    presenterBtn.addEventListener("click", openPresenter);
    L.lecture = { next: next, back: back, openPresenter: openPresenter, render: render };
  });

  /* the lecture keys, before the page's own (capture): see the top of this file */
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || page.keysOpen() || page.typing(e.target)) { return; }
    var action = keyAction(e);
    var plainP = (e.key === "p") && !(e.ctrlKey || e.metaKey || e.altKey || e.shiftKey);
    if (!action && !plainP) { return; }
    var L = page.lessonFor(e.target);
    if (!L || !L.lecture) { return; }
    if (plainP) { L.lecture.openPresenter(); e.preventDefault(); return; }
    if (page.prefs.lecture === "off") { return; }
    e.preventDefault();
    e.stopPropagation();
    L.lecture[action]();
  }, true);

  if (channel) {
    channel.onmessage = function (e) {
      var m = e.data || {};
      var L = lecturing || page.lessons[0];
      page.lessons.forEach(function (l) { if (l.id === m.lesson) { L = l; } });
      if (!L || !L.lecture) { return; }
      if (m.kind === "hello") { L.lecture.render(true); }
      if (m.kind === "go" && (m.action === "next" || m.action === "back")) { L.lecture[m.action](); }
    };
  }

  /* --- the presenter view: this page with ?presenter, in its own window ------------------------------ */
  function presenterView() {
    var data = { lessons: {} };
    try { data = JSON.parse(document.getElementById("page-data").textContent); } catch (err) { /* empty */ }
    var lessons = {};
    page.each(document, ".lesson", function (section) {
      var h2 = section.querySelector("h2");
      lessons[section.id] = {
        title: h2 && h2.firstChild ? h2.firstChild.textContent.trim() : section.id,
        chapters: Array.prototype.map.call(section.querySelectorAll(".progress .mark"), function (m) { return m.dataset.title; }),
        cues: ((data.lessons || {})[section.id] || {}).cues || []
      };
    });
    ["header", "main", "#keys-dialog"].forEach(function (sel) {   // no video is loaded here
      var el = document.querySelector(sel);
      if (el) { el.parentNode.removeChild(el); }
    });
    document.documentElement.classList.add("presenter-mode");
    document.title = t("presenter") + " · " + document.title;

    function el(tag, cls, parent, text) {
      var e = document.createElement(tag);
      if (cls) { e.className = cls; }
      if (text) { e.textContent = text; }
      if (parent) { parent.appendChild(e); }
      return e;
    }
    var root = el("main", "presenter", null);
    var head = el("div", "p-head", root);
    var titles = el("div", "p-titles", head);
    var lessonEl = el("h1", "p-lesson", titles, t("presenter"));
    var chapterEl = el("p", "p-chapter", titles);
    var clocks = el("div", "p-clocks", head);
    var clockEl = el("p", "p-clock", clocks);
    var elapsedEl = el("p", "p-elapsed", clocks);
    var nowBox = el("section", "p-now", root);
    el("h2", "", nowBox, t("presenter_now"));
    var nowText = el("p", "p-now-text", nowBox);
    var nextBox = el("section", "p-next", root);
    el("h2", "", nextBox, t("presenter_next"));
    var nextText = el("p", "p-next-text", nextBox);
    var foot = el("div", "p-foot", root);
    var countEl = el("p", "p-count", foot);
    var stateEl = el("p", "p-state", foot);
    stateEl.setAttribute("aria-live", "polite");
    el("p", "p-keys", foot, t("presenter_keys"));
    document.body.insertBefore(root, document.body.firstChild);
    nowText.textContent = t("presenter_waiting");

    var current = null;
    function show(m) {
      var lesson = lessons[m.lesson];
      if (!lesson) { return; }
      current = m.lesson;
      var cues = lesson.cues, now = cues[m.cue], after = cues[m.cue + 1];
      root.dataset.lesson = m.lesson;
      root.dataset.cue = String(m.cue);
      root.dataset.stopped = String(!!m.stopped);
      lessonEl.textContent = lesson.title;
      chapterEl.textContent = now ? (lesson.chapters[now.chapter] || "") : (lesson.chapters[0] || "");
      nowText.textContent = now ? now.text : t("presenter_before");
      nextText.textContent = after ? after.text : t("presenter_none");
      countEl.textContent = now ? t("presenter_cue", { n: m.cue + 1, total: m.total }) : "";
      stateEl.textContent = m.ended ? t("lecture_end") : m.stopped ? t("presenter_stopped") :
        (m.paused ? t("presenter_paused") : t("presenter_playing"));
      root.classList.toggle("stopped", !!m.stopped);
    }
    if (channel) {
      channel.onmessage = function (e) { if (e.data && e.data.kind === "state") { show(e.data); } };
    }

    var opened = Date.now();
    function two(n) { return (n < 10 ? "0" : "") + n; }
    function tick() {
      var d = new Date();
      clockEl.textContent = two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds());
      elapsedEl.textContent = t("presenter_elapsed", { t: page.clock((Date.now() - opened) / 1000) });
    }
    tick();
    setInterval(tick, 1000);

    document.addEventListener("keydown", function (e) {
      var action = keyAction(e);
      if (!action) { return; }
      e.preventDefault();
      post({ kind: "go", action: action, lesson: current });
    });
    post({ kind: "hello" });
  }
}(window.coursekit.page));
