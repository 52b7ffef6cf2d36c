// The parallel view: one row per worker, one bar per task, from the searcher's task log
// (sent: when the manager sent it; round_trip: until its result came back; seconds: the
// worker's own time on it).

import { clear, html, svg } from "./svg.js";

export function drawTimeline(container, data) {
  clear(container);
  const tasks = data.tasks.filter((t) => t.sent !== null);
  const workers = Math.max(1, ...data.tasks.map((t) => t.worker + 1));
  const end = Math.max(0.001, ...tasks.map((t) => t.sent + (t.round_trip ?? t.seconds ?? 0)));
  const width = 900;
  const left = 90;
  const row = 34;
  const height = workers * row + 40;
  const scale = (width - left - 10) / end;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "timeline-chart" }, container);
  for (let w = 0; w < workers; w++) {
    const label = svg("text", { x: 4, y: w * row + 22, class: "lane-label" }, root);
    label.textContent = `worker ${w + 1}`;
    svg("line", { x1: left, x2: width - 10, y1: w * row + row, y2: w * row + row, class: "lane" }, root);
  }
  const ticks = 5;
  for (let i = 0; i <= ticks; i++) {
    const t = (end * i) / ticks;
    const x = left + t * scale;
    svg("line", { x1: x, x2: x, y1: 0, y2: workers * row + 4, class: "tick" }, root);
    const text = svg("text", { x, y: workers * row + 20, class: "tick-label" }, root);
    text.textContent = `${(t * 1000).toFixed(t < 0.01 ? 1 : 0)} ms`;
  }
  tasks.forEach((task, index) => {
    const y = task.worker * row + 6;
    const trip = task.round_trip ?? task.seconds ?? 0;
    const group = svg("g", { class: "task", "data-task": String(index) }, root);
    svg("rect", { x: left + task.sent * scale, y, width: Math.max(1, trip * scale), height: row - 12, class: `trip hue-${index % 6}` }, group);
    if (task.seconds !== null) {
      svg("rect", { x: left + task.sent * scale, y: y + row - 18, width: Math.max(1, task.seconds * scale), height: 5, class: "busy" }, group);
    }
    const title = svg("title", {}, group);
    const moves = task.moves.length ? task.moves.join(" ") : "(the root)";
    title.textContent = `${moves}: ${task.nodes} nodes, ${(task.seconds * 1000).toFixed(1)} ms in the worker, sent at ${(task.sent * 1000).toFixed(1)} ms`;
  });
  const table = html("table", { class: "tasks" }, container);
  const head = html("tr", {}, html("thead", {}, table));
  for (const name of ["worker", "moves to the task", "sent (ms)", "worker time (ms)", "nodes"]) html("th", {}, head, name);
  const body = html("tbody", {}, table);
  for (const task of data.tasks) {
    const tr = html("tr", {}, body);
    html("td", {}, tr, String(task.worker + 1));
    html("td", {}, tr, task.moves.join(" ") || "(root)");
    html("td", {}, tr, task.sent === null ? "" : (task.sent * 1000).toFixed(1));
    html("td", {}, tr, task.seconds === null ? "" : (task.seconds * 1000).toFixed(1));
    html("td", {}, tr, String(task.nodes));
  }
}
