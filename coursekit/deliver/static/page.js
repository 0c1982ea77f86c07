/* The course page's script (coursekit/deliver/page.py). This file and its parts, each a plain script by job:

     page.js             the page's data and words, shared helpers, a lesson: its video, the frame shown, seeking,
                         chapters (this file); the widgets' coursekit.widget
     page.prefs.js       the viewer's preferences, remembered: subtitles on or off and their size, in-video questions
     page.transcript.js  the subtitles drawn over the video, the transcript beside it (current line and current word
                         highlighted, click to seek, search)
     page.progress.js    the progress bar: chapter marks, the chapter and thumbnail under the pointer, click, drag, keys
     page.questions.js   questions asked inside the video (it pauses on the question's last frame), and under it with
                         their answers on request
     page.controls.js    the control bar (play, ±10 s, mute, subtitles, speed, subtitle size, in-video questions on or
                         off, the keys, fullscreen, a frame back or on) and the page's seek buttons
     page.resume.js      where each lesson was left: remembered, offered again, the restart button
     page.keys.js        YouTube's keys (the table in ui_text.json, shown by ?), sent to the lesson in use
     page.lecture.js     lecture mode (the video stops at each cue's or chapter's end; → goes on, ← back one cue)
                         and the presenter view in a second window, kept in sync by a BroadcastChannel
     page.start.js       the page's start: every lesson built

   page.py joins them, in that order (its SCRIPT_PARTS), into the one page.js the course folder gets: the page
   loads one classic script, which works over http:// and from the folder opened as files (file://, where ES
   modules are refused), and needs no build tool. Each part is self-contained (its own function scope) and
   talks to the others only through coursekit.page, so the same files loaded in that order by script tags work
   too.

   A part that works on a lesson registers with page.part(function (lesson) {...}); when the page starts, each
   lesson's object (Lesson below) is handed to the parts in their order. The object holds the lesson's video
   and its time, seeking and chapters, and a few events: "show" (ms, time, source) for each frame shown,
   "prefs" when the preferences change, "userseek" before a seek the viewer asked for. A part adds the
   actions others call (controls: togglePlay, toggleMute, toggleFullscreen, stepFrames; questions:
   quizOpen, closeQuiz; keys: key).

   Plain ES5, no network beyond the page's own files, no libraries; the interface words come from the page's
   data (ui_text.json).

   Times on the page are whole milliseconds of the lesson, as in the subtitle files: a frame shown at
   media time t belongs to an item [start, end) when start <= round(t * 1000) < end. The shown frame's
   time comes from requestVideoFrameCallback (its mediaTime), not from currentTime, which only echoes
   what was set; timeupdate stands in while no frame is being presented (a video scrolled off screen). */
(function () {
  "use strict";

  var FRAME_FRESH_MS = 600;     // a presented frame newer than this wins over timeupdate

  var dataEl = document.getElementById("page-data");
  var DATA = { ui: {}, lessons: {} };
  try { if (dataEl) { DATA = JSON.parse(dataEl.textContent); } } catch (err) { /* the page still works */ }
  var UI = DATA.ui || {};

  /* one of the page's words (ui_text.json), its {name} places filled */
  function t(key, fill) {
    var text = String(UI[key] === undefined ? key : UI[key]);
    Object.keys(fill || {}).forEach(function (name) { text = text.split("{" + name + "}").join(String(fill[name])); });
    return text;
  }

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

  var parts = [];

  /* A lesson (its <section>): the video, the frame shown, seeking, chapters; the parts add the rest. */
  function Lesson(section) {
    var handlers = {};
    var video = section.querySelector("video");
    var fps = Number(section.dataset.fps) || 0;
    var plannedDuration = Number(section.dataset.durationMs) / 1000;
    var lastFrameAt = -1e9;
    var L = {
      section: section,
      id: section.id,
      data: (DATA.lessons || {})[section.id] || { questions: [], thumbnails: null },
      video: video,
      fps: fps,
      frameMs: fps ? 1000 / fps : 40,
      stage: section.querySelector(".stage"),
      shownTime: 0,                                // the media time of the frame shown
      chapters: Array.prototype.map.call(section.querySelectorAll(".progress .mark"), function (m) {
        return { start: Number(m.dataset.start), end: Number(m.dataset.end), title: m.dataset.title, mark: m };
      }),
      on: function (name, fn) { (handlers[name] = handlers[name] || []).push(fn); },
      emit: function (name) {
        var args = Array.prototype.slice.call(arguments, 1);
        (handlers[name] || []).forEach(function (fn) { fn.apply(null, args); });
      },
      quizOpen: function () { return false; },     // page.questions.js: a question asked inside the video is open
      closeQuiz: function () {}
    };

    L.duration = function () {
      return isFinite(video.duration) && video.duration > 0 ? video.duration : plannedDuration;
    };
    L.nowMs = function () { return Math.round(video.currentTime * 1000); };
    L.seekMs = function (ms) {
      video.currentTime = Math.min(seekTime(ms, fps), Math.max(0, L.duration() - 0.001));
    };
    /* a seek the viewer asked for: it closes an open in-video question */
    L.userSeek = function (ms) {
      L.emit("userseek");
      L.seekMs(Math.max(0, Math.min(L.duration() * 1000, ms)));
    };

    L.chapterAt = function (ms) {
      var chapters = L.chapters;
      for (var n = chapters.length - 1; n >= 0; n--) {
        if (chapters[n].start <= ms) { return chapters[n]; }
      }
      return chapters[0] || null;
    };
    L.nextChapterMs = function () {
      var at = L.chapters.indexOf(L.chapterAt(L.nowMs()));
      return at + 1 < L.chapters.length ? L.chapters[at + 1].start : L.duration() * 1000;
    };
    L.previousChapterMs = function () {
      var ms = L.nowMs(), ch = L.chapterAt(ms), at = L.chapters.indexOf(ch);
      return ch && ms - ch.start > 2000 ? ch.start : (at > 0 ? L.chapters[at - 1].start : 0);
    };

    /* the frame at media time `time` is shown (source: "frame", "time" or "start"): every part follows */
    L.show = function (time, source) {
      L.shownTime = time;
      section.dataset.shownTime = String(time);
      section.dataset.shownBy = source;
      L.emit("show", Math.round(time * 1000), time, source);
    };
    L.applyPrefs = function () { L.emit("prefs"); };

    if ("requestVideoFrameCallback" in video) {
      var onFrame = function (now, meta) {
        lastFrameAt = performance.now();
        L.show(meta.mediaTime, "frame");
        video.requestVideoFrameCallback(onFrame);
      };
      video.requestVideoFrameCallback(onFrame);
    }
    ["timeupdate", "seeked", "loadedmetadata"].forEach(function (name) {
      video.addEventListener(name, function () {
        if (performance.now() - lastFrameAt > FRAME_FRESH_MS) { L.show(video.currentTime, "time"); }
      });
    });

    parts.forEach(function (part) { part(L); });
    L.applyPrefs();
    L.show(0, "start");
    return L;
  }

  var page = {
    ui: UI,
    t: t,
    clock: clock,
    each: each,
    seekTime: seekTime,
    scrollBehavior: scrollBehavior,
    lessons: [],
    /* a part's work on each lesson, run when the lesson is built, in the order the parts come */
    part: function (fn) { parts.push(fn); },
    Lesson: Lesson
  };

  /* --- widgets: the course's own (coursekit/deliver/widgets.py). A kind's script, inlined after this one,
     calls coursekit.widget(kind, init); init(element, data) runs for each widget of that kind on the page,
     with its outermost element and the data beside it. One that fails leaves the others working. ------ */
  window.coursekit = {
    widget: function (kind, init) {
      each(document, 'script.widget-data[data-kind="' + kind + '"]', function (script) {
        try { init(document.getElementById(script.dataset.for), JSON.parse(script.textContent)); }
        catch (err) { if (window.console) { window.console.error("widget " + script.dataset.for + ": " + err); } }
      });
    },
    page: page
  };
}());
