/* The course page's start, after every part: the author's note on opening the page by double-click (only
   where it applies), then each lesson built (but in the presenter view) with every part (coursekit.page.Lesson). */
(function (page) {
  "use strict";

  if (location.protocol === "file:") { page.each(document, ".file-note", function (p) { p.hidden = false; }); }

  if (page.presenter) { return; }            // the presenter view (page.lecture.js) plays no lesson
  page.each(document, ".lesson", function (section) { page.lessons.push(page.Lesson(section)); });
}(window.coursekit.page));
