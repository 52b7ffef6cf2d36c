// The search tree as an outline: expand and collapse, the window [alpha, beta] at each node,
// pruned moves greyed, the principal variation in red.

import { clear, html } from "./svg.js";

function mark(node) {
  if (node.kind === "pruned") return "×";
  if (node.kind === "terminal") return "□";
  return node.max ? "▲" : "▼";
}

function addNode(parent, node, depth) {
  const names = ["node", node.kind];
  if (node.pv) names.push("on-pv");
  const item = html("li", { class: names.join(" "), "data-node": String(node.id) }, parent);
  const line = html("div", { class: "node-line" }, item);
  const children = node.children || [];
  const toggle = html("button", { type: "button", class: "toggle" }, line, children.length ? "▾" : "·");
  if (!children.length) toggle.disabled = true;
  if (node.move) {
    const move = html("span", { class: "node-move", title: node.move }, line, node.label || node.move);
    move.dataset.move = node.move;
  }
  html("span", { class: "node-mark" }, line, mark(node));
  html("span", { class: "node-value" }, line, node.kind === "pruned" ? "pruned" : node.value);
  if (node.alpha !== undefined && node.kind !== "pruned") {
    html("span", { class: "node-window" }, line, `[α ${node.alpha}, β ${node.beta}]`);
  }
  if (node.note) html("span", { class: "node-note" }, line, node.note);
  if (node.kind === "horizon") html("span", { class: "node-note" }, line, "evaluated");
  if (!children.length) return;
  const list = html("ul", {}, item);
  for (const child of children) addNode(list, child, depth + 1);
  const set = (open) => {
    list.hidden = !open;
    toggle.textContent = open ? "▾" : "▸";
    item.classList.toggle("collapsed", !open);
  };
  set(depth < 2);
  toggle.addEventListener("click", () => set(list.hidden));
  item.setOpen = set;
}

export function drawTree(container, tree) {
  clear(container);
  const root = html("ul", { class: "tree-root" }, container);
  addNode(root, tree.root, 0);
}

export function setAll(container, open) {
  for (const item of container.querySelectorAll("li.node")) {
    if (item.setOpen) item.setOpen(open);
  }
}
