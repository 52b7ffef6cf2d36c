// Small helpers to build SVG and HTML without innerHTML.

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

// A score's short label for a board: "win 3", "draw", "loss 2", "+12"; "?" for the bounds of
// a search cut short (their text, "between loss in 12 and win in 13", goes in a tooltip: see
// scoreTitle), never the lower end alone as if it were the value.
export function shortLabel(score) {
  if (score.kind === "win") return score.moves_to_end ? `win ${score.moves_to_end}` : "won";
  if (score.kind === "loss") return score.moves_to_end ? `loss ${score.moves_to_end}` : "lost";
  if (score.kind === "draw") return "draw";
  if (score.kind === "bounds") return "?";
  // a game of chance: the chance to win; any other number, rounded (an expectation)
  if (score.win_probability !== undefined) return `${(score.win_probability * 100).toFixed(1)}%`;
  const value = Number.isInteger(score.value) ? score.value : Number(score.value.toPrecision(3));
  return (value > 0 ? "+" : "") + value;
}

// A score label's tooltip: the score's full text ("between loss in 12 and win in 13").
export function scoreTitle(parent, score) {
  if (parent.namespaceURI === SVG) svg("title", {}, parent).textContent = score.text;
  else parent.setAttribute("title", score.text);
}
