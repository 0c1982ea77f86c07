/* The course page: YouTube's keys (the table in ui_text.json, which the ? key and the control bar's ?
   button show in a dialog; Esc closes it). A key goes to the lesson that has focus, or was used last, or is
   on screen; never while the viewer is typing, and never one a focused button, link or slider takes itself. */
(function (page) {
  "use strict";

  var TYPING = /^(text|search|email|number|password|url|tel|date|time|datetime-local|month|week)$/;
  var keysDialog = document.getElementById("keys-dialog");
  var activeLesson = null;

  /* the shortcut list (?), a dialog */
  page.openKeys = function () {
    if (keysDialog && !keysDialog.open) { keysDialog.showModal(); }
  };
  if (keysDialog) {
    keysDialog.querySelector(".keys-close").addEventListener("click", function () { keysDialog.close(); });
    keysDialog.addEventListener("click", function (e) { if (e.target === keysDialog) { keysDialog.close(); } });
  }

  /* a lesson's keys: true if the key was its */
  page.part(function (L) {
    L.key = function (e) {
      var k = e.key;
      if (k === "?") { page.openKeys(); return true; }
      if (e.shiftKey && (k === "N" || k === "n")) { L.userSeek(L.nextChapterMs()); return true; }
      if (e.shiftKey && (k === "P" || k === "p")) { L.userSeek(L.previousChapterMs()); return true; }
      if (e.shiftKey) { return false; }
      if (k === "k" || k === " ") { L.togglePlay(); return true; }
      if (k === "j") { L.userSeek(L.nowMs() - 10000); return true; }
      if (k === "l") { L.userSeek(L.nowMs() + 10000); return true; }
      if (k === "ArrowLeft") { L.userSeek(L.nowMs() - 5000); return true; }
      if (k === "ArrowRight") { L.userSeek(L.nowMs() + 5000); return true; }
      if (k === ",") { L.stepFrames(-1); return true; }
      if (k === ".") { L.stepFrames(1); return true; }
      if (k === "c") { page.setPref("subs", !page.prefs.subs); return true; }
      if (k === "m") { L.toggleMute(); return true; }
      if (k === "f") { L.toggleFullscreen(); return true; }
      if (/^[0-9]$/.test(k)) { L.userSeek(L.duration() * 1000 * Number(k) / 10); return true; }
      return false;
    };
    ["pointerdown", "focusin"].forEach(function (name) {
      L.section.addEventListener(name, function () { activeLesson = L; });
    });
    L.video.addEventListener("play", function () { activeLesson = L; });
  });

  function typing(el) {
    if (!el || !el.tagName) { return false; }
    if (el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT") { return true; }
    return el.tagName === "INPUT" && TYPING.test(el.type || "text");
  }
  function lessonFor(el) {
    var lessons = page.lessons;
    var section = el && el.closest ? el.closest(".lesson") : null;
    for (var n = 0; n < lessons.length; n++) { if (lessons[n].section === section) { return lessons[n]; } }
    if (activeLesson) { return activeLesson; }
    for (n = 0; n < lessons.length; n++) {
      var r = lessons[n].section.getBoundingClientRect();
      if (r.bottom > 0 && r.top < window.innerHeight) { return lessons[n]; }
    }
    return lessons[0] || null;
  }
  page.typing = typing;            // page.lecture.js takes its keys before the others, where these allow
  page.lessonFor = lessonFor;
  page.keysOpen = function () { return !!(keysDialog && keysDialog.open); };
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
}(window.coursekit.page));
