/* This course's q/k widget (narration/page.py places it in word_order, beside qk_widget): q on seat m,
   k on seat n, each turned by its seat times θ: the arrows, each turn, k's turn relative to q ((n − m)θ,
   signed; with the switch on, the lead plus (n − m)θ, as drawn), the angle between them (folded into
   [0°, 180°], the arc), the score q·k. A switch starts k further round (lesson 1's pair: k ahead of q), so
   that k after q and k before q score differently; the note says why. Every number it shows and every arrow
   it draws is in its data, computed by narration/page.py with mathcore and written with the figures'
   formatters: this script looks them up and draws. Plain ES5. */
coursekit.widget("rotation_pair", function (el, data) {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var seats = Number(data.seats);
  var inputs = { m: el.querySelector('input[data-var="m"]'), n: el.querySelector('input[data-var="n"]') };
  var seatsG = el.querySelector(".seats");
  var arc = el.querySelector(".arc");
  var leadSwitch = el.querySelector(".lead-switch");
  var note = el.querySelector(".widget-note");
  var lead = Boolean(data.lead_on) && data.states.length > 1;

  function each(root, selector, fn) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), fn);
  }

  /* the seats from the data: each slider's range and starting seat, θ in the rule */
  ["m", "n"].forEach(function (name) {
    inputs[name].max = String(seats - 1);
    inputs[name].value = String(data[name]);
  });
  /* a slot of the markup becomes plain text (one run of text with its neighbours, set as one line) */
  function settle(slot, text) {
    var parent = slot.parentNode;
    if (text) { parent.replaceChild(document.createTextNode(text), slot); } else { parent.removeChild(slot); }
    parent.normalize();
  }
  settle(el.querySelector(".widget-rule .theta"), data.theta_text);
  each(el, ".lead-deg", function (slot) { settle(slot, data.lead_text || ""); });
  if (data.states.length > 1) {
    leadSwitch.hidden = false;
    if (data.note) { note.textContent = data.note; note.hidden = false; }
  }

  data.dial.forEach(function (at) {
    var dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", at[0].toFixed(4));
    dot.setAttribute("cy", (-at[1]).toFixed(4));
    dot.setAttribute("r", "0.03");
    seatsG.appendChild(dot);
  });

  function drawArrow(g, v) {
    var x = v[0], y = -v[1], len = Math.sqrt(x * x + y * y);
    var line = g.querySelector("line"), head = g.querySelector("polygon");
    if (len < 1e-9) { line.setAttribute("x2", "0"); line.setAttribute("y2", "0"); head.setAttribute("points", ""); return; }
    var ux = x / len, uy = y / len, h = Math.min(0.16, len / 2), w = 0.075;
    var bx = x - ux * h, by = y - uy * h;
    line.setAttribute("x2", bx.toFixed(4));
    line.setAttribute("y2", by.toFixed(4));
    head.setAttribute("points", [x, y, bx - uy * w, by + ux * w, bx + uy * w, by - ux * w]
      .map(function (c) { return c.toFixed(4); }).join(" "));
  }
  function drawArc(from, sweep) {
    var r = 0.3;
    sweep = sweep % (2 * Math.PI);
    if (Math.abs(sweep) < 1e-9) { arc.setAttribute("d", ""); return; }
    var to = from + sweep;
    var x0 = r * Math.cos(from), y0 = -r * Math.sin(from), x1 = r * Math.cos(to), y1 = -r * Math.sin(to);
    var large = Math.abs(sweep) > Math.PI ? 1 : 0, dir = sweep > 0 ? 0 : 1;   // y is flipped on screen
    arc.setAttribute("d", "M " + x0.toFixed(4) + " " + y0.toFixed(4) + " A " + r + " " + r + " 0 " + large + " " +
      dir + " " + x1.toFixed(4) + " " + y1.toFixed(4));
  }

  /* the turn from direction a to direction b (radians), wrapped into (−π, π]: the shorter way round */
  function shortest(a, b) {
    var d = (b - a) % (2 * Math.PI);
    if (d > Math.PI) { d -= 2 * Math.PI; }
    if (d <= -Math.PI) { d += 2 * Math.PI; }
    return d;
  }

  function update() {
    var m = Number(inputs.m.value), n = Number(inputs.n.value);
    var state = data.states[lead ? 1 : 0];
    var qt = state.q_at[m], kt = state.k_at[n];
    var from = Math.atan2(qt[1], qt[0]), between = shortest(from, Math.atan2(kt[1], kt[0]));
    Array.prototype.forEach.call(seatsG.childNodes, function (dot, s) {
      dot.setAttribute("class", (s === m ? "at-m" : "") + (s === n ? " at-n" : ""));
      dot.setAttribute("r", s === m || s === n ? "0.05" : "0.03");
    });
    drawArrow(el.querySelector(".arrow-q"), qt);
    drawArrow(el.querySelector(".arrow-k"), kt);
    drawArc(from, between);                   // the angle between them: from q to k the shorter way
    leadSwitch.setAttribute("aria-pressed", String(lead));
    el.querySelector(".rule-aligned").hidden = !data.rule || lead;
    el.querySelector(".rule-lead").hidden = !data.rule || !lead;
    el.querySelector(".seat-m output").textContent = String(m);
    el.querySelector(".seat-n output").textContent = String(n);
    el.querySelector(".q-turn").textContent = data.turn_text[m] + "°";
    el.querySelector(".k-turn").textContent = data.turn_text[n] + "°";
    /* k's turn relative to q, as the arrows are drawn: (n − m)θ, or the lead plus (n − m)θ with the switch on */
    el.querySelector(".turn-aligned").hidden = lead;
    el.querySelector(".turn-lead").hidden = !lead;
    el.querySelector(".turn").textContent = (lead ? data.lead_gap_text : data.gap_text)[n - m + seats - 1] + "°";
    el.querySelector(".angle").textContent = state.angle_text[m][n] + "°";
    var scoreEl = el.querySelector(".score");
    scoreEl.textContent = state.score_text[m][n];
    scoreEl.dataset.value = String(state.score[m][n]);
  }

  each(el, "input.seat-input", function (input) { input.addEventListener("input", update); });
  each(el, "button.step", function (b) {
    b.addEventListener("click", function () {
      var input = document.getElementById(b.dataset.for);
      var v = Math.max(Number(input.min), Math.min(Number(input.max), Number(input.value) + Number(b.dataset.step)));
      input.value = String(v);
      update();
    });
  });
  leadSwitch.addEventListener("click", function () {
    lead = !lead;
    update();
  });
  update();
});
