/* The course page: what it remembers of the viewer, in localStorage (which may be missing or refuse, in
   private windows and from file://: then nothing is remembered). page.store reads and writes it (also for
   page.resume.js); page.prefs are the viewer's preferences: subtitles on or off (subs), their size (size),
   in-video questions on or off (quiz), lecture mode (lecture: "off", or
   stop at the end of each "cue" or "chapter"; page.lecture.js); page.setPref changes one and every lesson follows. */
(function (page) {
  "use strict";

  var PREFS_KEY = "coursekit:prefs";
  var SIZES = ["s", "m", "l", "xl"];
  var LECTURE = ["off", "cue", "chapter"];

  var store = {
    get: function (key, fallback) {
      try { var v = window.localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
      catch (err) { return fallback; }
    },
    set: function (key, value) { try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (err) { /* no */ } },
    remove: function (key) { try { window.localStorage.removeItem(key); } catch (err) { /* no */ } }
  };
  var saved = store.get(PREFS_KEY, {}) || {};

  page.store = store;
  page.prefs = { subs: saved.subs !== false, size: SIZES.indexOf(saved.size) >= 0 ? saved.size : "m", quiz: saved.quiz !== false,
                 lecture: LECTURE.indexOf(saved.lecture) >= 0 ? saved.lecture : "off" };
  page.setPref = function (name, value) {
    page.prefs[name] = value;
    store.set(PREFS_KEY, page.prefs);
    page.lessons.forEach(function (l) { l.applyPrefs(); });
  };
}(window.coursekit.page));
