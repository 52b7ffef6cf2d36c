// The parallel view: the server's pictures of one parallel search (its timeline and its split
// tree, unbeatable.drawing.timeline_svg and split_svg, the notebook's too), what they show in
// words (unbeatable.timeline), and the task log as a table in the tasks' colours.

import { get } from "./api.js";
import { chessScore } from "./chess.js";
import { clear, html } from "./svg.js";

const $ = (id) => document.getElementById(id);

// Tableau 10, as unbeatable.drawing.hue: a task's colour.
const HUES = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

function picture(container, text) {
  clear(container);
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = document.adoptNode(parsed.documentElement);
  const width = svg.getAttribute("width");
  svg.style.maxWidth = `${width}px`;
  svg.removeAttribute("height");
  svg.setAttribute("width", "100%");
  container.appendChild(svg);
}

export async function showParallel(where, options) {
  $("parallel-summary").textContent = "searching in parallel, then serially for the speed-up…";
  clear($("parallel-explain"));
  let data;
  try {
    data = await get("/api/parallel", { ...where, depth: $("parallel-depth").value, workers: $("parallel-workers").value });
  } catch (error) {
    $("parallel-summary").textContent = error.message;
    if (error.retryable) options.showError(error, () => showParallel(where, options));
    return;
  }
  const report = data.report;
  const best = report.best_moves.map((m) => (report.labels && report.labels[m]) || m).join(" ");
  const value = options.chess ? chessScore(report.score) : report.score.text;
  const speed = data.speedup === null ? "" : `; speed-up ${data.speedup.toFixed(2)}x over the serial search`;
  $("parallel-summary").textContent = `Depth ${report.depth}${report.complete ? "" : " (stopped by its time limit)"}: value ${value}, best ${best}${speed}.`;
  $("parallel-summary").dataset.speedup = data.speedup === null ? "" : String(data.speedup);
  const explain = $("parallel-explain");
  for (const sentence of data.explain) html("p", {}, explain, sentence);
  picture($("timeline"), data.timeline_svg);
  const split = $("split-tree");
  clear(split);
  html("h3", {}, split, "The split tree: the nodes the manager split (grey) and each task, in its colour");
  const holder = html("div", { class: "split-picture" }, split);
  picture(holder, data.split_svg);
  tasksTable(data);
}

function tasksTable(data) {
  const holder = $("parallel-tasks");
  clear(holder);
  const table = html("table", { class: "tasks" }, holder);
  const head = html("tr", {}, html("thead", {}, table));
  for (const name of ["task", "worker", "moves to the task", "sent (ms)", "round trip (ms)", "in the worker (ms)", "nodes", "waited for"]) html("th", {}, head, name);
  const body = html("tbody", {}, table);
  const shown = [...data.tasks].sort((a, b) => (a.sent ?? Infinity) - (b.sent ?? Infinity));
  for (const task of shown) {
    const tr = html("tr", { class: task.index === null ? "presearch" : "" }, body);
    const cell = html("td", {}, tr);
    if (task.index === null) cell.textContent = "presearch";
    else {
      html("span", { class: "swatch" }, cell).style.backgroundColor = HUES[task.index % HUES.length];
      cell.append(` ${task.index + 1}`);
    }
    html("td", {}, tr, String(task.worker + 1));
    html("td", {}, tr, task.moves.join(" ") || "(root)");
    html("td", { class: "number" }, tr, task.sent === null ? "" : (task.sent * 1000).toFixed(1));
    html("td", { class: "number" }, tr, task.round_trip === null ? "" : (task.round_trip * 1000).toFixed(1));
    html("td", { class: "number" }, tr, task.seconds === null ? "" : (task.seconds * 1000).toFixed(1));
    html("td", { class: "number" }, tr, task.nodes.toLocaleString("en"));
    html("td", {}, tr, task.waited_for ? `◆ ${task.waited_for.join(" ")}` : "");
  }
}
