"use strict";
// The course studio's page (coursekit/studio/server.py): the scene list at /, one scene at /scene/<id>.
// Everything that comes from the narration is set as text (textContent), never parsed as HTML.

const $ = (sel, root = document) => root.querySelector(sel);

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "style") Object.assign(e.style, v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

const secs = s => s.toFixed(2) + " s";
const clock = t => new Date(t * 1000).toLocaleTimeString();

async function getJSON(url) {
  const r = await fetch(url, {cache: "no-store"});
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

// the one request that changes something carries the studio's own header (see studio.py)
const post = url => fetch(url, {method: "POST", headers: {"X-Coursekit-Studio": "1"}});

function connect(scene, onEvent) {
  const live = $("#live");
  const src = new EventSource("/events" + (scene ? "?scene=" + encodeURIComponent(scene) : ""));
  src.onopen = () => { live.classList.add("on"); live.title = "live updates: on"; };
  src.onerror = () => { live.classList.remove("on"); live.title = "live updates: reconnecting"; };
  src.onmessage = m => onEvent(JSON.parse(m.data));
  return src;
}

// -- the scene list -----------------------------------------------------------------------------
function previewPill(row) {
  if (row.building) return el("span", {class: "pill building", text: "rendering…"});
  if (row.error) return el("span", {class: "pill failed", title: row.error, text: "last build failed"});
  if (row.preview === "unknown") return el("span", {class: "pill unknown", text: "…"});
  return el("span", {class: "pill " + row.preview, text: row.preview});
}

function findingsCell(row) {
  if (row.findings_error) return el("span", {class: "findings-n", title: row.findings_error, text: "check failed"});
  if (row.findings === null || row.findings === undefined)
    return el("span", {class: "note", text: row.checking ? "checking…" : "—"});
  return el("span", {class: row.findings ? "findings-n" : "findings-0", text: String(row.findings)});
}

function listRow(row) {
  return el("tr", {dataset: {scene: row.scene}},
    el("td", {}, el("a", {href: "/scene/" + row.scene, text: row.scene})),
    el("td", {text: row.title}),
    el("td", {class: "num", text: String(row.cues)}),
    el("td", {class: "num", text: row.duration == null ? "—" : secs(row.duration)}),
    el("td", {}, previewPill(row)),
    el("td", {class: "num findings", dataset: row.findings == null ? {} : {count: row.findings}}, findingsCell(row)),
    el("td", {class: "row-error", text: row.error || ""}));
}

async function listPage() {
  const app = $("#app");
  const rows = new Map();
  async function load() {
    const data = await getJSON("/api/scenes");
    $("#course-title").textContent = data.title || "";
    document.title = "Studio · " + (data.title || "course");
    const parts = [el("h1", {text: "Scenes"})];
    if (data.error) parts.push(el("div", {class: "error", text: data.error}));
    parts.push(el("p", {class: "note", text: "Preview: 480p15, fresh when it was made from the current plan and code. " +
      "Findings: the viewer check (layout, size, contrast), cached per scene by its cache key."}));
    for (const lesson of data.lessons) {
      parts.push(el("h2", {text: `${lesson.title} `}, el("small", {class: "note", text: lesson.lesson})));
      const body = el("tbody");
      for (const row of lesson.scenes) { rows.set(row.scene, row); body.append(listRow(row)); }
      parts.push(el("table", {class: "scenes"},
        el("thead", {}, el("tr", {}, ...["scene", "title", "cues", "planned", "preview", "findings", ""].map(
          h => el("th", {text: h})))), body));
    }
    app.replaceChildren(...parts);
  }
  let timer = null;
  const reload = () => { clearTimeout(timer); timer = setTimeout(load, 300); };
  connect(null, ev => {
    if ((ev.type === "status" || ev.type === "findings") && ev.row && rows.has(ev.row.scene)) {
      const row = {...rows.get(ev.row.scene), ...ev.row};
      rows.set(row.scene, row);
      const tr = document.querySelector(`tr[data-scene="${row.scene}"]`);
      if (tr) tr.replaceWith(listRow(row));
    } else reload();
  });
  await load();
}

// -- a scene ------------------------------------------------------------------------------------
function scenePage(id) {
  const S = {id, view: null, plan: null, frame: 0, rate: 1, zoom: 1, listening: null, els: {}};
  const E = S.els;
  E.title = el("h1");
  E.state = el("span", {class: "pill"});
  E.made = el("span", {class: "made"});
  E.rebuild = el("button", {text: "Render again", title: "plan and render this preview now",
                            onclick: () => post(`/api/scene/${id}/build`)});
  E.error = el("div", {class: "error", id: "error", hidden: true});
  E.video = el("video", {id: "video", controls: true, preload: "auto", playsinline: true, hidden: true,
                          "aria-label": `preview of ${id}`});
  E.novideo = el("div", {class: "novideo", text: "No preview yet: rendering…"});
  E.nowId = el("span", {class: "cue-id"});
  E.nowText = el("div", {class: "cue-text", id: "now-text"});
  E.readout = el("span", {class: "readout", id: "readout"});
  E.rateSel = el("select", {id: "rate", title: "playback rate", "aria-label": "playback rate", onchange: () => setRate(S, +E.rateSel.value)},
    ...[0.25, 0.5, 0.75, 1, 1.5, 2].map(r => el("option", {value: r, text: r + "×", selected: r === 1})));
  E.zoomSel = el("select", {id: "zoom", title: "timeline zoom", "aria-label": "timeline zoom", onchange: () => { S.zoom = +E.zoomSel.value; drawTimeline(S); }},
    ...[1, 2, 4, 8].map(z => el("option", {value: z, text: "zoom " + z + "×"})));
  E.track = el("div", {class: "track", id: "track"});
  E.scroller = el("div", {class: "scroller"}, E.track);
  E.cueRows = el("tbody");
  E.findings = el("div", {id: "findings"});
  E.record = el("div", {id: "record", class: "record"});
  const names = el("div", {class: "lane-names"}, ...[["h-ruler", "time"], ["h-cues", "cues"], ["h-marks", "bookmarks"],
    ["h-subs", "subtitles"], ["h-finds", "findings"]].map(([h, t]) => el("div", {class: "lane " + h, text: t})));
  const btn = (text, title, fn) => el("button", {text, title, onclick: fn});
  $("#app").replaceChildren(
    el("p", {}, el("a", {href: "/", text: "← all scenes"})),
    el("div", {class: "scene-head"}, E.title, E.state, E.made, E.rebuild),
    E.error,
    el("div", {class: "player"}, el("div", {}, E.video, E.novideo),
      el("div", {class: "side"}, el("div", {class: "now"}, el("div", {class: "label", text: "now"}), E.nowId, E.nowText))),
    el("div", {class: "controls"},
      btn("« cue", "previous cue ([)", () => jumpCue(S, -1)),
      btn("◀ frame", "one frame back (←)", () => step(S, -1)),
      btn("play / pause", "play or pause (space)", () => togglePlay(S)),
      btn("frame ▶", "one frame on (→)", () => step(S, 1)),
      btn("cue »", "next cue (])", () => jumpCue(S, 1)),
      E.rateSel, E.zoomSel, E.readout),
    el("div", {class: "timeline"}, names, E.scroller),
    el("h2", {text: "Cues"}),
    el("table", {class: "cues"}, el("thead", {}, el("tr", {}, ...["", "cue", "role", "frames", "time", "text"].map(
      h => el("th", {text: h})))), E.cueRows),
    el("h2", {text: "Viewer check"}), E.findings,
    el("h2", {text: "Your voice"}), E.record);

  const v = E.video;
  const onFrame = (now, meta) => { presented(S, meta.mediaTime); v.requestVideoFrameCallback(onFrame); };
  if ("requestVideoFrameCallback" in HTMLVideoElement.prototype) v.requestVideoFrameCallback(onFrame);
  else v.addEventListener("timeupdate", () => presented(S, v.currentTime));
  v.addEventListener("seeked", () => { if (!("requestVideoFrameCallback" in v)) presented(S, v.currentTime); });
  v.addEventListener("pause", () => focusSoon(S));
  v.addEventListener("seeked", () => { if (v.paused) focusSoon(S); });
  document.addEventListener("keydown", e => {
    if (e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowLeft") { step(S, -1); e.preventDefault(); }
    else if (e.key === "ArrowRight") { step(S, 1); e.preventDefault(); }
    else if (e.key === " " && e.target === document.body) { togglePlay(S); e.preventDefault(); }
    else if ((e.key === "m" || e.key === "M") && S.rec) { markNow(S); e.preventDefault(); }
    else if (e.key === "[") jumpCue(S, -1);
    else if (e.key === "]") jumpCue(S, 1);
  });

  connect(id, ev => {
    if (ev.scene !== id) return;
    if (ev.type === "building") { S.building = ev.why || "building"; drawState(S); return; }
    if (ev.type === "preview" && ev.video && S.view) setVideo(S, ev.video);   // load it while the refresh is asked for
    if ((ev.type === "preview" || ev.type === "error") && S.view) {     // say it now; the rest comes with the refresh
      S.building = null;
      S.view.status = {...S.view.status, building: false, error: ev.type === "error" ? ev.error : null};
      drawState(S);
    }
    if (ev.type === "preview" || ev.type === "error" || ev.type === "findings") refresh(S, false);
    else if (ev.type === "status" && S.view) {
      S.view.status = ev.row;
      if (!ev.row.building) S.building = null;
      drawState(S);
    }
  });
  refresh(S, true);
}

async function refresh(S, first) {
  let view;
  try { view = await getJSON("/api/scene/" + S.id); }
  catch (err) { $("#app").replaceChildren(el("div", {class: "error", text: `no scene ${S.id}`})); return; }
  const before = S.view;
  S.view = view;
  S.building = view.status.building ? "building" : null;
  document.title = `Studio · ${view.scene}`;
  S.els.title.replaceChildren(view.scene, el("small", {text: `${view.title} · ${view.lesson_title}`}));
  const planChanged = JSON.stringify(view.plan) !== JSON.stringify(before && before.plan);
  S.plan = view.plan;
  if (planChanged || first || !before || JSON.stringify(view.findings) !== JSON.stringify(before.findings)) {
    drawTimeline(S);
    drawCueTable(S);
  }
  drawFindings(S);
  if (JSON.stringify(view.record) !== JSON.stringify(before && before.record) || first) drawRecord(S);
  drawState(S);
  if (!before || view.video !== S.videoUrl) setVideo(S, view.video);
  if (first && !view.status.building && !view.status.error && view.status.preview !== "fresh")
    post(`/api/scene/${S.id}/build`);          // opened on an old or missing preview: make the current one
}

function drawState(S) {
  const v = S.view, st = v.status, E = S.els;
  let cls = st.preview, text = {fresh: "fresh", stale: "stale", none: "no preview", unknown: "…"}[st.preview] || st.preview;
  if (S.building || st.building) { cls = "building"; text = "rendering… " + (S.building && S.building !== "building" ? `(${S.building})` : ""); }
  else if (st.error) { cls = "failed"; text = "last edit failed: showing the last good preview"; }
  E.state.className = "pill " + cls;
  E.state.textContent = text;
  E.state.id = "state";
  E.made.textContent = v.made ? `made ${clock(v.made)}${v.seconds ? ` in ${v.seconds.toFixed(1)} s` : ""}` : "";
  E.error.hidden = !st.error;
  E.error.textContent = st.error || "";
  if (v.course_error && !st.error) { E.error.hidden = false; E.error.textContent = v.course_error; }
}

function setVideo(S, url) {
  const v = S.els.video;
  S.videoUrl = url;
  if (!url) { v.hidden = true; S.els.novideo.hidden = false; return; }
  const keep = S.frame, playing = !v.paused && !v.ended;
  v.hidden = false; S.els.novideo.hidden = true;
  v.addEventListener("loadeddata", () => {
    v.playbackRate = S.rate;
    seekFrame(S, keep);
    if (playing) v.play();
  }, {once: true});
  v.defaultPlaybackRate = S.rate;
  v.src = url;
}

const frames = S => S.plan ? S.plan.frames : 1;
const fps = S => S.plan ? S.plan.fps : (S.view ? S.view.fps : 15);

function seekFrame(S, f) {
  const v = S.els.video;
  f = Math.max(0, Math.min(frames(S) - 1, Math.round(f)));
  S.frame = f;
  drawPlayhead(S);
  if (!v.src) return;
  v.pause();
  v.currentTime = (f + 0.25) / fps(S);     // inside frame f, clear of rounding at its edge
}

function presented(S, mediaTime) {
  S.frame = Math.max(0, Math.min(frames(S) - 1, Math.round(mediaTime * fps(S))));
  drawPlayhead(S);
}

function step(S, n) { seekFrame(S, S.frame + n); }
function togglePlay(S) { const v = S.els.video; if (v.paused) v.play(); else v.pause(); }
function setRate(S, r) { S.rate = r; S.els.video.playbackRate = r; S.els.video.defaultPlaybackRate = r; }

function jumpCue(S, dir) {
  if (!S.plan) return;
  const starts = S.plan.cues.map(c => c.start);
  const target = dir > 0 ? starts.find(s => s > S.frame) : [...starts].reverse().find(s => s < S.frame);
  if (target !== undefined) seekFrame(S, target);
}

function listen(S, cue, button) {
  const a = $("#listen");
  if (S.listening === cue.id && !a.paused) { a.pause(); return; }
  S.els.video.pause();
  S.listening = cue.id;
  a.src = cue.audio;
  a.play();
  document.querySelectorAll(".listen.playing").forEach(b => b.classList.remove("playing"));
  if (button) button.classList.add("playing");
}

// Stopped on a cue for a moment: the studio gets a Manim process ready to draw an edit of it.
function focusSoon(S) {
  clearTimeout(S.focusTimer);
  S.focusTimer = setTimeout(() => {
    const at = cueAt(S, S.frame);
    if (!S.els.video.paused || !at.cue || at.cue.id === S.focused) return;
    S.focused = at.cue.id;
    post(`/api/scene/${S.id}/focus/${at.cue.short}`);
  }, 800);
}

function cueAt(S, f) {
  const cues = S.plan ? S.plan.cues : [];
  const c = cues.find(c => c.start <= f && f < c.end);
  if (c) return {cue: c, where: f >= c.start + c.speech_frames ? "pause" : "speech"};
  if (!cues.length || f < cues[0].start) return {cue: null, where: "lead-in"};
  if (f >= cues[cues.length - 1].end) return {cue: null, where: "tail"};
  const prev = [...cues].reverse().find(c => c.end <= f);
  return {cue: null, where: `gap after ${prev.short}`};
}

function drawPlayhead(S) {
  const E = S.els;
  if (!S.plan) return;
  const F = frames(S), f = S.frame, r = fps(S);
  if (E.playhead) E.playhead.style.left = (100 * f / F) + "%";
  const at = cueAt(S, f);
  E.readout.textContent = `frame ${f} / ${F} · ${secs(f / r)}` + (at.cue ? ` · ${at.cue.short}${at.where === "pause" ? " (pause)" : ""}` : ` · ${at.where}`);
  E.nowId.textContent = at.cue ? at.cue.id + (at.where === "pause" ? " · pause" : "") : at.where;
  E.nowText.textContent = at.cue ? at.cue.text : "";
  document.querySelectorAll(".cue-bar.on, .sub-bar.on, table.cues tr.on").forEach(e => e.classList.remove("on"));
  if (at.cue) {
    document.querySelectorAll(`[data-cue="${at.cue.id}"]`).forEach(e => e.classList.add("on"));
  }
  const ms = 1000 * f / r;
  document.querySelectorAll(".sub-bar").forEach(b => { if (+b.dataset.startMs <= ms && ms < +b.dataset.endMs) b.classList.add("on"); });
  if (S.zoom > 1 && E.playhead) {          // keep the playhead in view
    const sc = E.scroller, x = E.track.clientWidth * f / F;
    if (x < sc.scrollLeft + 40 || x > sc.scrollLeft + sc.clientWidth - 40) sc.scrollLeft = Math.max(0, x - sc.clientWidth / 3);
  }
}

function drawTimeline(S) {
  const E = S.els, p = S.plan;
  E.track.replaceChildren();
  E.track.style.width = (100 * S.zoom) + "%";
  E.playhead = null;
  if (!p) { E.track.append(el("p", {class: "note", text: "No plan for this scene yet."})); return; }
  const F = p.frames, r = p.fps, pct = f => (100 * f / F) + "%";
  const lane = h => el("div", {class: "lane " + h});
  const ruler = lane("h-ruler"), cues = lane("h-cues"), marks = lane("h-marks"), subs = lane("h-subs"), finds = lane("h-finds");
  const dur = F / r, major = dur * S.zoom > 600 ? 10 : dur / S.zoom > 60 ? 5 : dur / S.zoom > 20 ? 2 : 1;
  for (let s = 0; s <= dur; s += 1)
    if (s % major === 0 || S.zoom >= 2) ruler.append(el("div", {class: "tick" + (s % major ? " minor" : ""), style: {left: pct(s * r)},
                                                            text: s % major ? "" : s + "s"}));
  for (const c of p.cues) {
    const w = c.end - c.start, pause = c.frames - c.speech_frames;
    const bar = el("div", {
      class: "bar cue-bar", style: {left: pct(c.start), width: pct(w)},
      dataset: {cue: c.id, start: c.start, end: c.end},
      title: `${c.id}${c.role ? " (" + c.role + ")" : ""}\nframes ${c.start}–${c.end - 1} · ${secs(c.start / r)} – ${secs(c.end / r)}` +
             (pause ? `\npause ${secs(pause / r)}` : "") + `\n${c.text}`,
      onclick: () => seekFrame(S, c.start)});
    if (pause > 0) bar.append(el("div", {class: "pause", style: {width: (100 * pause / w) + "%"}, text: "pause " + (pause / r).toFixed(1) + " s"}));
    bar.append(el("div", {class: "head"}, el("span", {class: "cue-short", text: c.short}),
                  el("span", {class: "cue-times", text: `${(c.start / r).toFixed(2)}–${(c.end / r).toFixed(2)}`})));
    bar.append(el("div", {class: "cue-text", text: c.text}));
    if (c.audio) {
      const b = el("button", {class: "listen", title: "listen: this cue's narration alone", text: "♪"});
      b.addEventListener("click", e => { e.stopPropagation(); listen(S, c, b); });
      bar.append(b);
    }
    cues.append(bar);
    for (const [name, f] of Object.entries(c.bookmarks))
      marks.append(el("div", {class: "mark", style: {left: pct(f)}, dataset: {frame: f},
                              title: `bookmark ${name} in ${c.short} · frame ${f} · ${secs(f / r)}`, text: name,
                              onclick: () => seekFrame(S, f)}));
    for (const e of c.subtitles) {
      const first = Math.ceil(e.start_ms * r / 1000 - 1e-6);
      subs.append(el("div", {class: "bar sub-bar", style: {left: pct(e.start_ms * r / 1000), width: pct((e.end_ms - e.start_ms) * r / 1000)},
                             dataset: {startMs: e.start_ms, endMs: e.end_ms, first},
                             title: `subtitle ${secs(e.start_ms / 1000)} – ${secs(e.end_ms / 1000)}\n${e.text}`,
                             text: e.text.replace(/\n/g, " "), onclick: () => seekFrame(S, first)}));
    }
  }
  const found = (S.view.findings && S.view.findings.findings) || [];
  for (const f of found)
    finds.append(el("div", {class: "finding", style: {left: pct(f.frame)}, dataset: {frame: f.frame, rule: f.rule},
                            title: findingLine(f, r), text: "▲ " + f.rule, onclick: () => seekFrame(S, f.frame)}));
  E.playhead = el("div", {class: "playhead", id: "playhead"});
  E.track.append(ruler, cues, marks, subs, finds, E.playhead);
  drawPlayhead(S);
}

function findingLine(f, r) {
  return `frame ${f.frame} (${secs(f.frame / r)}) · ${f.cue} · ${f.rule}: ${f.message}` + (f.steps > 1 ? ` (for ${f.steps} steps)` : "");
}

function drawCueTable(S) {
  const p = S.plan, r = fps(S);
  S.els.cueRows.replaceChildren(...(p ? p.cues : []).map(c => {
    const b = c.audio ? el("button", {class: "listen", title: "listen: this cue's narration alone", text: "♪ listen"}) : null;
    if (b) b.addEventListener("click", e => { e.stopPropagation(); listen(S, c, b); });
    const pause = c.frames - c.speech_frames;
    return el("tr", {dataset: {cue: c.id}, onclick: () => seekFrame(S, c.start)},
      el("td", {}, b), el("td", {class: "mono", text: c.short}), el("td", {text: c.role || ""}),
      el("td", {class: "mono", text: `${c.start}–${c.end - 1}` + (pause ? ` (+${pause} pause)` : "")}),
      el("td", {class: "mono", text: `${(c.start / r).toFixed(2)}–${(c.end / r).toFixed(2)} s`}),
      el("td", {text: c.text}));
  }));
}

function drawFindings(S) {
  const v = S.view, box = S.els.findings, r = fps(S);
  if (!v.findings) {
    box.replaceChildren(el("p", {class: "note", text: v.status.checking ? "checking…" : "not checked yet for this preview"}));
    return;
  }
  if (v.findings.error) { box.replaceChildren(el("div", {class: "error", text: "the check failed: " + v.findings.error})); return; }
  const list = v.findings.findings;
  if (!list.length) { box.replaceChildren(el("p", {class: "note", text: `no findings after ${v.findings.steps} steps`})); return; }
  box.replaceChildren(el("ul", {class: "findings"}, ...list.map(f => el("li", {onclick: () => seekFrame(S, f.frame)},
    el("span", {class: "mono", text: `frame ${f.frame} · ${f.cue} · `}), el("span", {class: "rule", text: f.rule}),
    `: ${f.message}` + (f.steps > 1 ? ` (for ${f.steps} steps)` : "")))));
}

// -- the recording lane: a teleprompter, the microphone and the stored take, per cue ------------------
const TAKE_STATE = {current: "your take: current", stale: "your take: stale", missing: "no take yet", broken: "take unreadable"};

function prompter(cue) {
  return el("p", {class: "prompter", lang: "zh-CN"}, ...cue.pieces.map(p => {
    if (p.mark) return el("span", {class: "prompt-mark", dataset: {mark: p.mark}, title: `bookmark ${p.mark}: press M as you say what follows`,
                                   text: "▾" + p.mark});
    if (p.pinyin) return el("ruby", {}, p.text, el("rt", {text: p.pinyin}));
    return p.text;
  }));
}

function takeLine(cue) {
  const t = cue.take;
  let text = TAKE_STATE[t.state] || t.state;
  if (t.duration !== undefined) text += ` · ${secs(t.duration)}`;
  return el("span", {class: "pill take-state " + t.state, text});
}

function drawRecord(S) {
  const box = S.els.record, lane = S.view.record;
  if (S.rec) { S.recDirty = true; return; }            // not while the microphone is on: after it stops
  S.recDirty = false;
  if (!lane) { box.replaceChildren(el("p", {class: "note", text: "No cues to record."})); return; }
  if (lane.error) { box.replaceChildren(el("div", {class: "error", text: lane.error})); return; }
  const note = lane.uses_takes
    ? `Each cue with a current take is heard in your voice; the others by the ${lane.fallback} voice. ` +
      "A take goes stale when its cue's words change."
    : `The course's voice is ${lane.voice}: your takes are heard once config.yaml says voice: {backend: recorded}.`;
  box.replaceChildren(el("p", {class: "note", text: note}), ...lane.cues.map(cue => takeCard(S, cue)));
}

function takeCard(S, cue) {
  const t = cue.take, has = t.state === "current" || t.state === "stale";
  const msg = el("span", {class: "take-msg", role: "status"});
  const level = el("div", {class: "level"}), meter = el("div", {class: "meter", title: "input level", hidden: true}, level);
  const rec = el("button", {class: "rec", text: has ? "● Retake" : "● Record", title: "record this cue from the microphone"});
  const stop = el("button", {class: "stop", text: "■ Stop", hidden: true, title: "stop and keep this take"});
  const mark = el("button", {class: "mark-now", hidden: true, title: "mark the next bookmark now (M)"});
  const play = el("button", {class: "play", text: "▶ Play take", disabled: !has, title: "listen to the stored take"});
  const card = el("div", {class: "take-card", dataset: {cue: cue.id, state: t.state}},
    el("div", {class: "take-head"}, el("span", {class: "mono", text: cue.short}), takeLine(cue)),
    prompter(cue),
    t.state === "stale" ? el("p", {class: "note take-was", text: `The take reads: ${t.reads}`}) : null,
    t.state === "broken" ? el("div", {class: "error", text: t.error}) : null,
    el("div", {class: "take-controls"}, rec, stop, mark, play, meter, msg));
  rec.addEventListener("click", () => startTake(S, cue, {card, rec, stop, mark, play, meter, level, msg}));
  stop.addEventListener("click", () => stopTake(S));
  mark.addEventListener("click", () => markNow(S));
  play.addEventListener("click", () => {
    const a = $("#listen");
    S.els.video.pause();
    a.src = `${cue.audio}?v=${t.version}`;
    a.play();
  });
  return card;
}

function recorderType() {
  for (const t of ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/webm", "audio/ogg"])
    if (window.MediaRecorder && MediaRecorder.isTypeSupported(t)) return t;
  return "";
}

async function startTake(S, cue, ui) {
  if (S.rec) return;
  ui.msg.className = "take-msg"; ui.msg.textContent = "";
  if (!navigator.mediaDevices || !window.MediaRecorder) { ui.msg.textContent = "this browser cannot record"; ui.msg.className = "take-msg bad"; return; }
  let stream;
  try { stream = await navigator.mediaDevices.getUserMedia({audio: {echoCancellation: false, noiseSuppression: false, autoGainControl: false}}); }
  catch (err) { ui.msg.textContent = `no microphone (${err.name})`; ui.msg.className = "take-msg bad"; return; }
  const type = recorderType();
  const recorder = new MediaRecorder(stream, type ? {mimeType: type} : {});
  const chunks = [];
  const ctx = new AudioContext(), analyser = ctx.createAnalyser();
  analyser.fftSize = 2048;
  ctx.createMediaStreamSource(stream).connect(analyser);
  const buf = new Float32Array(analyser.fftSize);
  S.rec = {cue, ui, recorder, stream, ctx, marks: {}, t0: performance.now()};
  document.querySelectorAll(".take-card button.rec, .take-card button.play").forEach(b => { b.disabled = true; });
  ui.card.classList.add("recording");
  ui.rec.hidden = true; ui.stop.hidden = false; ui.meter.hidden = false;
  ui.stop.disabled = false;
  nextMark(S);
  ui.msg.textContent = "recording…";
  const draw = () => {
    if (!S.rec || S.rec.recorder !== recorder) return;
    analyser.getFloatTimeDomainData(buf);
    let peak = 0;
    for (const x of buf) peak = Math.max(peak, Math.abs(x));
    const db = peak > 0 ? 20 * Math.log10(peak) : -90;
    ui.level.style.width = Math.max(0, Math.min(100, (db + 60) / 60 * 100)) + "%";
    ui.level.className = "level" + (db > -1 ? " clip" : db < -40 ? " low" : "");
    ui.meter.title = `input level ${db.toFixed(0)} dBFS`;
    requestAnimationFrame(draw);
  };
  recorder.addEventListener("dataavailable", e => { if (e.data.size) chunks.push(e.data); });
  recorder.addEventListener("start", () => { if (S.rec) S.rec.t0 = performance.now(); });
  recorder.addEventListener("stop", () => sendTake(S, new Blob(chunks, {type: recorder.mimeType || type || "audio/webm"})));
  recorder.start();
  requestAnimationFrame(draw);
}

function nextMark(S) {
  const r = S.rec, left = r.cue.bookmarks.filter(b => !(b in r.marks));
  r.ui.mark.hidden = !left.length;
  if (left.length) r.ui.mark.textContent = `mark ▾${left[0]} (M)`;
  r.ui.card.querySelectorAll(".prompt-mark").forEach(m => m.classList.toggle("placed", m.dataset.mark in r.marks));
  return left[0];
}

function markNow(S) {
  const r = S.rec;
  if (!r) return;
  const name = r.cue.bookmarks.find(b => !(b in r.marks));
  if (!name) return;
  r.marks[name] = (performance.now() - r.t0) / 1000;
  nextMark(S);
}

function stopTake(S) {
  const r = S.rec;
  if (!r || r.recorder.state === "inactive") return;
  r.ui.stop.disabled = true;
  r.ui.msg.textContent = "storing…";
  r.recorder.stop();
}

async function sendTake(S, blob) {
  const r = S.rec;
  r.stream.getTracks().forEach(t => t.stop());
  r.ctx.close();
  const ui = r.ui;
  const marks = Object.entries(r.marks).map(([k, v]) => `${k}:${v.toFixed(3)}`).join(",");
  let answer, ok = false;
  try {
    const res = await fetch(`/api/scene/${S.id}/take/${r.cue.short}` + (marks ? "?marks=" + encodeURIComponent(marks) : ""),
      {method: "POST", headers: {"X-Coursekit-Studio": "1", "Content-Type": blob.type}, body: blob});
    answer = await res.json();
    ok = res.ok;
  } catch (err) { answer = {error: `the take was not stored (${err.message})`}; }
  S.rec = null;
  if (ok) S.view.record = answer.record;
  drawRecord(S);
  const card = document.querySelector(`.take-card[data-cue="${r.cue.id}"]`);
  const msg = card && card.querySelector(".take-msg");
  if (msg) {
    msg.className = "take-msg " + (ok ? "good" : "bad");
    msg.textContent = ok ? "stored: the preview is made again with it" : answer.error;
  }
}

// -- which page ---------------------------------------------------------------------------------
const m = location.pathname.match(/^\/scene\/([a-z][a-z0-9_]*)$/);
if (m) scenePage(m[1]); else listPage();
