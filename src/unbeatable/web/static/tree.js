// The search tree: the server's picture (the notebook's too, unbeatable.drawing.tree_svg) with
// zoom and pan, a click on a node for its board and numbers, the search step by step (the
// engine's own events, as `unbeatable tree --steps` prints them: this file only shows them, it
// computes nothing of the search), and a quiz: click the branches alpha-beta prunes, then check.

import { get } from "./api.js";
import { drawBoard } from "./board.js";
import { clear, html } from "./svg.js";

const $ = (id) => document.getElementById(id);

// The states a node goes through while the search is stepped (as unbeatable.drawing.node_states
// names them): not reached yet, entered, valued, cut off; the node of the last event is "now".
const STATES = ["unseen", "open", "done", "cut"];
const NEXT = { enter: "open", cut: "cut", value: "done" };

const NAMES = { minimax: "minimax", negamax: "negamax", alphabeta: "alpha-beta", mcts: "Monte Carlo tree search", pns: "Proof-number search (df-pn)" };

// The algorithms that grow their trees (unbeatable.growth): stepped by their labels.
const GROWING = ["mcts", "pns"];

// A grown tree's nodes as the tree view's JSON (nested, each with its path and side to move).
function growthTree(growth) {
  const byId = new Map();
  const rootFirst = growth.nodes.length ? growth.nodes[0].first : true;
  for (const n of growth.nodes) byId.set(n.id, { ...n, max: n.first, or: n.first === rootFirst, children: [] });
  for (const n of growth.nodes) if (n.parent !== null) byId.get(n.parent).children.push(byId.get(n.id));
  const key = growth.algorithm === "mcts"
    ? "under each node the reward won by the player who made its move (1 a win, ½ a draw) / its visits; the root, its visits. W, L, D: proven won, lost or drawn for that player (MCTS-Solver)"
    : "under each node its proof / disproof numbers for the root's question (does the side to move at the root win?): at an OR node (the root's side to move) the proof number is the least of its children's and the disproof number their sum, at an AND node the other way round; ∞ infinite. ✓ proved, ✗ disproved";
  return { root: byId.get(0), nodes: growth.nodes.length, key, algorithm: growth.algorithm };
}

export class TreeView {
  // host: { where(): the position's API parameters, game(): its spec, showError(error, retry) }
  constructor(host) {
    this.host = host;
    this.data = null; // the server's answer
    this.svg = null;
    this.nodes = new Map(); // id -> <g class="tn">
    this.edges = new Map(); // id -> <g class="te"> (the edge into that node)
    this.places = new Map(); // id -> [x, y]
    this.info = new Map(); // id -> the node's JSON
    this.state = new Map(); // id -> its state while stepping
    this.applied = 0; // events applied
    this.undo = []; // per applied event: [id, previous state, previous "now"]
    this.now = -1;
    this.counters = { nodes: 0, cuts: 0 };
    this.timer = null;
    this.view = { x: 0, y: 0, scale: 1 };
    this.quiz = null; // { cuts: Set(path), byPath: Map(path -> id), guesses: Set(path) }
    this.selected = -1;
    this.own = null; // the spec of a typed tree drawn instead of the game's position
    this.growth = null; // a grown tree's data (Monte Carlo or proof-number search)
    this.labels = new Map(); // a grown tree's node id -> [label, mark] shown while stepping
  }

  // The position drawn: the game's, or a typed tree's root.
  where() {
    return this.own ? { game: this.own, moves: "" } : this.host.where();
  }

  wire() {
    $("tree-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.own = null;
      this.draw(false);
    });
    $("quiz-start").addEventListener("click", () => this.draw(true));
    $("quiz-check").addEventListener("click", () => this.check());
    $("quiz-end").addEventListener("click", () => this.draw(false));
    $("own-tree").addEventListener("submit", (event) => {
      event.preventDefault();
      this.ownTree();
    });
    $("tree-algorithm").addEventListener("change", () => this.syncOptions());
    $("tree-textbook").addEventListener("change", () => {
      if ($("tree-textbook").checked) $("tree-hints").checked = false;
      this.syncOptions();
    });
    $("tree-hints").addEventListener("change", () => {
      if ($("tree-hints").checked) $("tree-textbook").checked = false;
    });
    this.syncOptions();
    $("step-first").addEventListener("click", () => this.goTo(0));
    $("step-back").addEventListener("click", () => this.goTo(this.applied - 1));
    $("step-next").addEventListener("click", () => this.goTo(this.applied + 1));
    $("step-last").addEventListener("click", () => this.goTo(this.count()));
    $("step-play").addEventListener("click", () => this.toggle());
    $("step-slider").addEventListener("input", () => this.goTo(Number($("step-slider").value)));
    $("step-speed").addEventListener("input", () => {
      if (this.timer) {
        this.pause();
        this.play();
      }
    });
    document.addEventListener("keydown", (event) => this.key(event));
    this.wireZoom();
  }

  syncOptions() {
    const algorithm = $("tree-algorithm").value;
    const alphabeta = algorithm === "alphabeta";
    const growing = GROWING.includes(algorithm);
    $("tree-hints").disabled = !alphabeta;
    $("tree-textbook").disabled = !alphabeta;
    // Monte Carlo and proof-number search grow their trees: a budget, no depth or window
    $("tree-budget-box").hidden = !growing;
    $("tree-budget-name").textContent = algorithm === "pns" ? "Expansions" : "Simulations";
    for (const id of ["tree-depth", "tree-table", "tree-view-of", "tree-boards"]) $(id).disabled = growing;
  }

  count() {
    return this.data ? this.data.steps.length : 0;
  }

  // --- asking the server ------------------------------------------------------------------

  params(quiz) {
    const algorithm = $("tree-algorithm").value;
    const alphabeta = algorithm === "alphabeta";
    return {
      ...this.where(),
      depth: this.own ? String(this.ownDepth) : $("tree-depth").value,
      algorithm,
      hints: alphabeta && $("tree-hints").checked ? "1" : "",
      textbook: (alphabeta || quiz) && $("tree-textbook").checked ? "1" : "",
      table: $("tree-table").checked && !quiz ? "1" : "",
      view: quiz ? "first" : $("tree-view-of").value,
      boards: $("tree-boards").checked ? "1" : "0",
      max_nodes: $("tree-max").value,
      quiz: quiz ? "1" : "",
      ...(GROWING.includes(algorithm) && !quiz ? { budget: $("tree-budget").value } : {}),
    };
  }

  async draw(quiz, params = null) {
    this.pause();
    $("tree-summary").textContent = "searching…";
    const asked = params || this.params(quiz);
    let data;
    try {
      data = await get("/api/tree", asked);
    } catch (error) {
      $("tree-summary").textContent = error.message;
      if (error.retryable) this.host.showError(error, () => this.draw(quiz, asked));
      return;
    }
    this.show(data, quiz, asked);
  }

  show(data, quiz, asked) {
    if (data.growth) {
      // a grown tree (unbeatable.growth): its steps change the nodes' labels
      data.steps = data.growth.steps;
      data.tree = growthTree(data.growth);
    } else {
      // the steps come as a table (treeview.steps_table): one object a step
      const { columns, rows } = data.steps;
      data.steps = rows.map((row) => Object.fromEntries(columns.map((name, i) => [name, row[i]])));
    }
    this.growth = data.growth || null;
    this.data = data;
    this.asked = asked;
    const tree = data.tree;
    const started = performance.now();
    const container = $("tree");
    clear(container);
    // The server's own picture, every text in it escaped (unbeatable.drawing): read by the
    // page's HTML parser, twice as fast on a large tree as an XML parser (DOMParser).
    const holder = document.createElement("div");
    holder.innerHTML = data.svg;
    this.svg = holder.firstElementChild;
    this.width = Number(this.svg.getAttribute("width"));
    this.height = Number(this.svg.getAttribute("height"));
    this.svg.removeAttribute("width");
    this.svg.removeAttribute("height");
    this.svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    container.appendChild(this.svg);
    this.index(tree);
    this.fit(true);
    container.classList.toggle("quiz", quiz);
    container.classList.remove("stepping", "checked", "finished");
    this.drawnIn = performance.now() - started;
    this.drawings = (this.drawings || 0) + 1;
    container.dataset.drawMs = this.drawnIn.toFixed(1);
    container.dataset.drawn = String(this.drawings);
    // and until it is painted (the benchmark's figure: benchmarks/tree_browser.py)
    requestAnimationFrame(() => requestAnimationFrame(() => {
      container.dataset.paintMs = (performance.now() - started).toFixed(1);
    }));
    container.dataset.nodes = String(tree.nodes);
    this.resetSteps();
    this.summary(tree, quiz);
    this.counts(data.counts || []);
    $("tree-key").textContent = this.growth ? `▲ the first player to move, ▼ the second. Numbers: ${tree.key}.` : `Numbers: ${tree.key}.`;
    $("tree-legend").hidden = Boolean(this.growth); // alpha-beta's marks: not in a grown tree
    this.captions();
    $("stepper").hidden = quiz;
    $("quiz-bar").hidden = !quiz;
    $("node-info").hidden = true;
    this.quiz = null;
    if (quiz) {
      const byPath = new Map();
      for (const [id, node] of this.info) byPath.set(node.path.join(" "), id);
      this.quiz = { cuts: new Set(data.cuts.map((p) => p.join(" "))), byPath, guesses: new Set() };
      $("quiz-text").textContent = `The minimax tree to depth ${tree.depth}. Click every branch you think ${$("tree-textbook").checked ? "the textbook's " : ""}alpha-beta never searches (searching the moves left to right), then check.`;
      $("quiz-check").disabled = false;
    }
  }

  index(tree) {
    this.nodes.clear();
    this.edges.clear();
    this.places.clear();
    this.info.clear();
    for (const g of this.svg.querySelectorAll("g.tn")) {
      const id = Number(g.dataset.node);
      this.nodes.set(id, g);
      const found = /translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute("transform"));
      if (found) this.places.set(id, [Number(found[1]), Number(found[2])]);
    }
    for (const g of this.svg.querySelectorAll("g.te")) this.edges.set(Number(g.dataset.node), g);
    // one listener for every node and branch
    this.svg.addEventListener("click", (event) => {
      const hit = event.target.closest("g.tn, g.te");
      if (hit) this.clicked(Number(hit.dataset.node));
    });
    const stack = [tree.root];
    while (stack.length) {
      const node = stack.pop();
      this.info.set(node.id, node);
      if (node.children) stack.push(...node.children);
    }
  }

  summary(tree, quiz) {
    if (this.growth) {
      const g = this.growth;
      $("tree-summary").textContent = `${NAMES[g.algorithm]}: ${g.summary}${g.capped ? " (the tree reached its node limit: the steps stop there)" : ""}. Press ▶ to watch it grow; click a node for its board and numbers.`;
      $("tree-summary").dataset.nodes = String(g.nodes.length);
      return;
    }
    const name = NAMES[tree.algorithm] || tree.algorithm;
    const extra = [tree.table ? "with a table" : "", tree.hints ? "with move hints" : "", tree.textbook && tree.algorithm === "alphabeta" ? "as in the textbook" : ""].filter(Boolean).join(", ");
    const cut = tree.algorithm === "alphabeta" ? `, ${tree.pruned} moves cut off (${tree.cutoffs} cut-offs)` : "";
    const hits = tree.table ? `, ${tree.table_hits} table hits` : "";
    const what = quiz ? "Quiz on the minimax tree" : `${name}${extra ? ` ${extra}` : ""}`;
    $("tree-summary").textContent = `${what} to depth ${tree.depth}: ${tree.nodes} nodes searched${quiz ? "" : cut}${hits}; value ${quiz ? "?" : `${tree.root.value} ${tree.view === "mover" ? "for the side to move" : "for MAX"}`}. ${quiz ? "Click a branch to mark it as pruned." : "Click a node for its board and numbers."}`;
    $("tree-summary").dataset.nodes = String(tree.nodes);
  }

  counts(rows) {
    const body = document.querySelector("#counts tbody");
    clear(body);
    for (const row of rows) {
      const tr = html("tr", {}, body);
      html("td", {}, tr, row.algorithm);
      html("td", { class: "number" }, tr, row.nodes === null ? row.note : row.nodes.toLocaleString("en"));
      html("td", { class: "number" }, tr, row.cutoffs === undefined ? "" : row.cutoffs.toLocaleString("en"));
      html("td", { class: "number" }, tr, row.table_hits === undefined ? "" : row.table_hits.toLocaleString("en"));
      html("td", {}, tr, row.score || "");
      const cell = html("td", {}, tr);
      if (row.nodes !== null) {
        const button = html("button", { type: "button", title: "draw this search's tree" }, cell, "draw");
        button.addEventListener("click", () => {
          $("tree-algorithm").value = row.name;
          $("tree-table").checked = row.table;
          $("tree-hints").checked = row.hints;
          $("tree-textbook").checked = row.textbook;
          this.syncOptions();
          this.draw(false);
        });
      }
    }
    $("counts-box").hidden = !rows.length;
  }

  // --- a click on a node: its board and its numbers (in the quiz: a guess) ----------------------

  clicked(id) {
    if (this.quiz) {
      this.guess(id);
      return;
    }
    this.select(id);
  }

  async select(id) {
    const node = this.info.get(id);
    if (!node) return;
    if (this.selected >= 0 && this.nodes.get(this.selected)) this.nodes.get(this.selected).classList.remove("selected");
    this.selected = id;
    this.nodes.get(id).classList.add("selected");
    const who = node.max ? "MAX" : "MIN";
    $("node-title").textContent = node.path.length ? `After ${node.path.join(" ")}` : "The root";
    if (this.growth) {
      clear($("node-facts"));
      const g = this.growth;
      const facts = [["to move", `${node.max ? "the first" : "the second"} player`]];
      const shown = this.labels.get(id) || [node.label, node.mark];
      if (g.algorithm === "mcts") facts.push([node.path.length ? "won / visits" : "visits", shown[0] || "not in the tree yet"]);
      else facts.push(["proof / disproof", shown[0] || "not reached yet"], ["kind", node.or ? "OR: the root's side to move (proof: the least of the children's)" : "AND: the opponent to move (proof: the sum of the children's)"]);
      if (shown[1]) facts.push(["settled", shown[1]]);
      for (const [name, value] of facts) {
        html("dt", {}, $("node-facts"), name);
        html("dd", { "data-fact": name }, $("node-facts"), value);
      }
      $("node-info").hidden = false;
      await this.nodeBoard(node, id);
      return;
    }
    const facts = $("node-facts");
    clear(facts);
    const add = (name, value) => {
      if (value === undefined || value === null || value === "") return;
      html("dt", {}, facts, name);
      html("dd", { "data-fact": name }, facts, String(value));
    };
    if (node.kind === "pruned") {
      add("what", `a move cut off: ${node.note}`);
    } else {
      add("to move", `${who} (the ${node.max ? "first" : "second"} player)`);
      add("value", node.value);
      if (node.alpha !== undefined) add("window", `α ${node.alpha}, β ${node.beta}`);
      add("kind", { inner: "searched below", terminal: "the game is over", horizon: "the depth limit: the game's evaluation", shortcut: "decided without a move searched", table: "answered by the table" }[node.kind]);
      add("note", node.note);
      add("principal variation", node.pv ? "yes" : "");
    }
    $("node-info").hidden = false;
    await this.nodeBoard(node, id);
  }

  async nodeBoard(node, id) {
    const board = $("node-board");
    clear(board);
    const where = this.where();
    const base = where.moves ? where.moves.split(",").filter(Boolean) : [];
    try {
      const position = await get("/api/position", { ...where, moves: [...base, ...node.path].join(",") });
      if (this.selected !== id) return;
      drawBoard(board, position, { scores: null, hint: false, onMove: null, flipped: false, last: node.path.length ? node.path[node.path.length - 1] : null });
    } catch (error) {
      html("p", { class: "muted" }, board, error.message);
    }
  }

  // --- the step-through ---------------------------------------------------------------------

  resetSteps() {
    this.labels.clear();
    this.applied = 0;
    this.undo = [];
    this.now = -1;
    this.counters = { nodes: 0, cuts: 0 };
    this.state.clear();
    $("step-slider").max = String(this.count());
    this.panel();
  }

  // Enters stepping: every node not reached yet, the search at its start.
  begin() {
    const container = $("tree");
    if (container.classList.contains("stepping")) return;
    container.classList.add("stepping");
    for (const id of this.nodes.keys()) this.setState(id, "unseen");
    if (this.growth) {
      // a grown tree starts as its root alone, with no numbers
      for (const id of this.nodes.keys()) this.label(id, "", "");
      this.setState(0, "done");
    }
    this.applied = 0;
    this.undo = [];
    this.now = -1;
    this.counters = { nodes: 0, cuts: 0 };
  }

  setState(id, state) {
    this.state.set(id, state);
    for (const element of [this.nodes.get(id), this.edges.get(id)]) {
      if (!element) continue;
      element.classList.remove(...STATES);
      element.classList.add(state);
    }
  }

  setNow(id) {
    for (const old of [this.nodes.get(this.now), this.edges.get(this.now)]) if (old) old.classList.remove("now");
    this.now = id;
    for (const element of [this.nodes.get(id), this.edges.get(id)]) if (element) element.classList.add("now");
  }

  apply() {
    if (this.growth) {
      const step = this.data.steps[this.applied];
      const undo = [];
      for (const [id, label, mark] of step.changes) {
        undo.push([id, this.state.get(id), ...(this.labels.get(id) || ["", ""])]);
        this.setState(id, "done");
        this.label(id, label, mark);
      }
      if (this.state.get(step.node) === "unseen") {
        undo.push([step.node, "unseen", ...(this.labels.get(step.node) || ["", ""])]);
        this.setState(step.node, "done");
      }
      this.undo.push([undo, this.now]);
      this.setNow(step.node);
      this.applied += 1;
      this.growthCounters();
      return;
    }
    const step = this.data.steps[this.applied];
    const id = step.node;
    const previous = id >= 0 ? this.state.get(id) : null;
    this.undo.push([id, previous, this.now]);
    if (id >= 0) {
      const next = NEXT[step.kind];
      if (next) this.setState(id, next);
      this.setNow(id);
    }
    if (step.kind === "enter") this.counters.nodes += 1;
    if (step.kind === "cut") this.counters.cuts += 1;
    this.applied += 1;
  }

  unapply() {
    if (this.growth) {
      const [undo, now] = this.undo.pop();
      for (const [id, state, label, mark] of undo.reverse()) {
        this.setState(id, state);
        this.label(id, label, mark);
      }
      this.setNow(now);
      this.applied -= 1;
      this.growthCounters();
      return;
    }
    const step = this.data.steps[this.applied - 1];
    const [id, previous, now] = this.undo.pop();
    if (id >= 0) {
      this.setState(id, previous);
      this.setNow(now);
    }
    if (step.kind === "enter") this.counters.nodes -= 1;
    if (step.kind === "cut") this.counters.cuts -= 1;
    this.applied -= 1;
  }

  goTo(target) {
    if (!this.data || this.quiz) return;
    this.begin();
    const goal = Math.max(0, Math.min(this.count(), target));
    while (this.applied < goal) this.apply();
    while (this.applied > goal) this.unapply();
    if (goal === 0) this.setNow(-1);
    this.panel();
    $("tree").classList.toggle("finished", this.applied >= this.count());
    if (this.now >= 0) this.follow(this.now);
    if (this.applied >= this.count()) this.pause();
  }

  panel() {
    const steps = this.data ? this.data.steps : [];
    $("step-index").textContent = String(this.applied);
    $("step-count").textContent = String(steps.length);
    $("step-slider").value = String(this.applied);
    $("step-nodes").textContent = String(this.counters.nodes);
    $("step-cuts").textContent = String(this.counters.cuts);
    const step = this.applied ? steps[this.applied - 1] : null;
    const shown = step || {};
    if (this.growth) {
      const figures = shown.figures || ["", "", ""];
      $("step-alpha").textContent = figures[0] || "–";
      $("step-beta").textContent = figures[1] || "–";
      $("step-value").textContent = figures[2] || "–";
    } else {
      $("step-alpha").textContent = shown.alpha || "–";
      $("step-beta").textContent = shown.beta || "–";
      $("step-value").textContent = shown.value || "–";
    }
    const start = !this.growth ? "Press ▶ (or the → key) to watch the search, one event at a time: each node entered with its window, each value coming back up, each cut and why." : this.growth.algorithm === "mcts" ? "Press ▶ (or the → key) to watch Monte Carlo tree search grow its tree, one simulation at a time: down the tree by UCB1, one new node, a random game from it, and the result backed up." : "Press ▶ (or the → key) to watch df-pn prove or disprove, one event at a time: each node expanded, each descent to the most-proving child with its thresholds, each return with its proof and disproof numbers.";
    $("step-text").textContent = step ? step.text : start;
    $("step-beyond").hidden = !(step && step.beyond);
    $("step-text").dataset.kind = step ? step.kind : "";
    $("stepper").dataset.step = String(this.applied);
  }

  // A grown tree's node label and mark (the server's symbols and colours: treeview.growth_view).
  label(id, label, mark) {
    this.labels.set(id, [label, mark]);
    const g = this.nodes.get(id);
    if (!g) return;
    const [symbol, colour] = (this.data.marks || {})[mark] || ["", "#1b1f24"];
    const value = g.querySelector("text.tv");
    const badge = g.querySelector("text.tm");
    if (value) {
      value.textContent = label;
      value.setAttribute("fill", colour);
    }
    if (badge) {
      badge.textContent = symbol;
      badge.setAttribute("fill", colour);
    }
    for (const name of [...g.classList]) if (name.startsWith("m-")) g.classList.remove(name);
    if (mark) g.classList.add(`m-${mark}`);
  }

  growthCounters() {
    let seen = 0;
    let settled = 0;
    for (const [id, state] of this.state) {
      if (state === "unseen") continue;
      seen += 1;
      if ((this.labels.get(id) || ["", ""])[1]) settled += 1;
    }
    this.counters = { nodes: seen, cuts: settled };
  }

  // The stepper's captions: alpha-beta's window, or what a grown tree's steps show.
  captions() {
    const names = this.growth ? this.growth.figures : ["α", "β", "value"];
    $("step-alpha-name").textContent = names[0];
    $("step-beta-name").textContent = names[1];
    $("step-value-name").textContent = names[2];
    $("step-cuts-name").textContent = this.growth ? "settled" : "cut off";
  }

  toggle() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    if (!this.data || this.quiz) return;
    if (this.applied >= this.count()) this.goTo(0);
    const perSecond = Number($("step-speed").value);
    this.timer = setInterval(() => this.goTo(this.applied + 1), 1000 / perSecond);
    $("step-play").textContent = "❚❚ pause";
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    $("step-play").textContent = "▶ play";
  }

  key(event) {
    if ($("tree-view").hidden || !this.data || this.quiz) return;
    const target = event.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName) && target.type !== "range") return;
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (event.key in moves) {
      event.preventDefault();
      this.pause();
      this.goTo(this.applied + moves[event.key]);
    } else if (event.key === " " && target.tagName !== "BUTTON") {
      event.preventDefault();
      this.toggle();
    } else if (event.key === "Home") {
      event.preventDefault();
      this.goTo(0);
    } else if (event.key === "End") {
      event.preventDefault();
      this.goTo(this.count());
    }
  }

  // --- zoom and pan -------------------------------------------------------------------------

  wireZoom() {
    const viewport = $("tree-viewport");
    viewport.addEventListener("wheel", (event) => {
      if (!this.svg) return;
      event.preventDefault();
      const box = viewport.getBoundingClientRect();
      this.zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, event.clientX - box.left, event.clientY - box.top);
    }, { passive: false });
    let drag = null;
    viewport.addEventListener("pointerdown", (event) => {
      if (!this.svg || event.target.closest("button") || event.target.closest("g.tn") || event.target.closest("g.te")) return;
      drag = { x: event.clientX, y: event.clientY, view: { ...this.view } };
      viewport.setPointerCapture(event.pointerId);
      viewport.classList.add("dragging");
    });
    viewport.addEventListener("pointermove", (event) => {
      if (!drag) return;
      this.view.x = drag.view.x - (event.clientX - drag.x) / this.view.scale;
      this.view.y = drag.view.y - (event.clientY - drag.y) / this.view.scale;
      this.apply_view();
    });
    const end = () => {
      drag = null;
      viewport.classList.remove("dragging");
    };
    viewport.addEventListener("pointerup", end);
    viewport.addEventListener("pointercancel", end);
    $("zoom-in").addEventListener("click", () => this.zoom(1.4));
    $("zoom-out").addEventListener("click", () => this.zoom(1 / 1.4));
    $("zoom-fit").addEventListener("click", () => this.fit(false));
    $("zoom-one").addEventListener("click", () => {
      this.view.scale = 1;
      this.apply_view();
    });
    window.addEventListener("resize", () => this.apply_view());
  }

  size() {
    const viewport = $("tree-viewport");
    return [viewport.clientWidth || 800, viewport.clientHeight || 500];
  }

  // The whole tree when it reads at that size; else the root at a readable size.
  fit(first) {
    if (!this.svg) return;
    const [w, h] = this.size();
    const whole = Math.min(w / this.width, h / this.height);
    if (!first || whole >= 0.55) {
      this.view = { x: 0, y: 0, scale: Math.min(whole, 1.5) };
    } else {
      const scale = 0.85;
      const root = this.places.get(0) || [this.width / 2, 0];
      this.view = { x: root[0] - w / scale / 2, y: 0, scale };
    }
    this.apply_view();
  }

  zoom(factor, cx = null, cy = null) {
    const [w, h] = this.size();
    const px = cx === null ? w / 2 : cx;
    const py = cy === null ? h / 2 : cy;
    const scale = Math.max(0.02, Math.min(6, this.view.scale * factor));
    const gx = this.view.x + px / this.view.scale;
    const gy = this.view.y + py / this.view.scale;
    this.view = { x: gx - px / scale, y: gy - py / scale, scale };
    this.apply_view();
  }

  apply_view() {
    if (!this.svg) return;
    const [w, h] = this.size();
    const { x, y, scale } = this.view;
    this.svg.setAttribute("viewBox", `${x.toFixed(1)} ${y.toFixed(1)} ${(w / scale).toFixed(1)} ${(h / scale).toFixed(1)}`);
    $("tree").dataset.scale = scale.toFixed(3);
  }

  // Keeps the node being searched in sight.
  follow(id) {
    const place = this.places.get(id);
    if (!place) return;
    const [w, h] = this.size();
    const { x, y, scale } = this.view;
    const margin = 40 / scale;
    const [px, py] = place;
    if (px < x + margin || px > x + w / scale - margin || py < y + margin || py > y + h / scale - margin * 2) {
      this.view = { x: px - w / scale / 2, y: Math.max(0, py - h / scale / 3), scale };
      this.apply_view();
    }
  }

  // --- the quiz -----------------------------------------------------------------------------

  guess(id) {
    const quiz = this.quiz;
    if (!quiz || $("tree").classList.contains("checked") || id === 0) return;
    const path = this.info.get(id).path.join(" ");
    const on = !quiz.guesses.has(path);
    if (on) quiz.guesses.add(path);
    else quiz.guesses.delete(path);
    for (const element of [this.nodes.get(id), this.edges.get(id)]) if (element) element.classList.toggle("guess", on);
    $("quiz-text").textContent = `${quiz.guesses.size} branch${quiz.guesses.size === 1 ? "" : "es"} marked as pruned. Click again to unmark; check when you are done.`;
  }

  check() {
    const quiz = this.quiz;
    if (!quiz) return;
    const under = (path, set) => {
      const parts = path.split(" ");
      for (let i = parts.length - 1; i > 0; i--) if (set.has(parts.slice(0, i).join(" "))) return true;
      return false;
    };
    let right = 0;
    let wrong = 0;
    let missed = 0;
    const mark = (path, name) => {
      const id = quiz.byPath.get(path);
      for (const element of [this.nodes.get(id), this.edges.get(id)]) if (element) element.classList.add(name);
    };
    for (const path of quiz.guesses) {
      if (quiz.cuts.has(path)) {
        right += 1;
        mark(path, "right");
      } else if (under(path, quiz.cuts)) {
        mark(path, "inside");
      } else {
        wrong += 1;
        mark(path, "wrong");
      }
    }
    for (const path of quiz.cuts) {
      if (!quiz.guesses.has(path)) {
        missed += 1;
        mark(path, "missed");
      }
    }
    // everything below a cut is never searched either: shown faint
    for (const [path, id] of quiz.byPath) {
      if (under(path, quiz.cuts)) for (const element of [this.nodes.get(id), this.edges.get(id)]) if (element) element.classList.add("never");
    }
    $("tree").classList.add("checked");
    $("quiz-check").disabled = true;
    const total = quiz.cuts.size;
    $("quiz-text").textContent = `${right} of ${total} cut-off${total === 1 ? "" : "s"} found${wrong ? `, ${wrong} branch${wrong === 1 ? "" : "es"} marked that alpha-beta does search` : ""}${missed ? `, ${missed} missed (orange)` : ""}. Green: right; red: searched after all; faint: never reached. Draw the alpha-beta tree to step through why.`;
    $("quiz-text").dataset.right = String(right);
    $("quiz-text").dataset.wrong = String(wrong);
    $("quiz-text").dataset.missed = String(missed);
  }

  // --- your own tree --------------------------------------------------------------------------

  async ownTree() {
    const text = $("own-leaves").value.trim();
    // as deep as the typed tree: every leaf is reached (the server refuses a bad text)
    let depth = 0;
    let level = 0;
    for (const c of text) {
      if (c === "[") depth = Math.max(depth, ++level);
      if (c === "]") level -= 1;
    }
    this.own = `leaves:${text}`;
    this.ownDepth = Math.max(1, Math.min(12, depth));
    $("tree-boards").checked = false;
    await this.draw(false);
  }
}
