// The board as SVG, one drawing per kind of game; a generic move list for any other game.
// Every playable move carries data-move (its notation); score labels carry class "score".

import { drawChess } from "./chess.js";
import { clear, html, scoreTitle, shortLabel, svg } from "./svg.js";

// options: { scores: Map(move -> report move), hint: bool, onMove: fn(move) | null,
//            flipped: bool (chess: Black at the bottom), last: the last move played (its
//            notation) or null, lastByAi: whether the AI played it }
export function drawBoard(container, position, options) {
  clear(container);
  const board = position.board;
  if (board.kind === "chess") drawChess(container, position, options);
  else if (board.kind === "grid") grid(container, board, options);
  else if (board.kind === "columns") columns(container, board, options);
  else if (board.kind === "pile") pile(container, board, position, options);
  else if (board.kind === "hex") hex(container, board, position, options);
  else list(container, position, options);
}

function classes(entry, options) {
  const names = ["score"];
  if (entry) {
    names.push(entry.kind);
    if (entry.best) names.push("best");
    if (entry.best && options.hint) names.push("hinted");
  }
  return names.join(" ");
}

function clickable(node, move, options) {
  if (!move || !options.onMove) return;
  node.setAttribute("data-move", move);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.classList.add("playable");
  node.addEventListener("click", () => options.onMove(move));
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") options.onMove(move);
  });
}

function stone(parent, kind, cx, cy, r) {
  if (kind === "x") {
    const d = r * 0.7;
    svg("path", { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx + d},${cy - d}L${cx - d},${cy + d}`, class: "stone-x" }, parent);
  } else if (kind === "o") {
    svg("circle", { cx, cy, r: r * 0.75, class: "stone-o" }, parent);
  } else if (kind) {
    // a game of more players: the third player's mark and on (v, w, y, z) as its letter
    const mark = svg("text", { x: cx, y: cy + r * 0.35, class: `stone-mark stone-${kind}` }, parent);
    mark.textContent = kind.toUpperCase();
  }
}

// A score label centred at (x, y), squeezed to at most `width` (a cell's or a column's: a best
// move's "★ loss 18" is wider than a Connect Four column and ran into its neighbour).
function label(parent, entry, options, x, y, width) {
  if (!entry || !options.scores) return;
  const text = svg("text", { x, y, class: classes(entry, options), "data-score-move": entry.move }, parent);
  text.textContent = (entry.best ? "★ " : "") + shortLabel(entry);
  scoreTitle(text, entry);
  if (text.getComputedTextLength() > width) {
    text.setAttribute("textLength", width);
    text.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
}

function isWin(board, r, c) {
  return board.win.some(([wr, wc]) => wr === r && wc === c);
}

function grid(container, board, options) {
  const size = 100;
  const root = svg("svg", { viewBox: `0 0 ${board.cols * size} ${board.rows * size}`, class: "grid" }, container);
  for (let r = 0; r < board.rows; r++) {
    for (let c = 0; c < board.cols; c++) {
      const move = board.cell_moves[r][c];
      const entry = move && options.scores ? options.scores.get(move) : null;
      const g = svg("g", {}, root);
      const rect = svg("rect", { x: c * size + 2, y: r * size + 2, width: size - 4, height: size - 4, class: "cell" }, g);
      if (isWin(board, r, c)) rect.classList.add("win-cell");
      if (entry && entry.best && options.hint) rect.classList.add("hint-cell");
      stone(g, board.cells[r][c], c * size + size / 2, r * size + size / 2, size / 2);
      if (options.last && String(r * board.cols + c + 1) === options.last) {
        const ring = svg("rect", { x: c * size + 6, y: r * size + 6, width: size - 12, height: size - 12, rx: 8, class: "last-cell" }, g);
        ring.setAttribute("data-last", options.lastByAi ? "ai" : "player");
      }
      if (move) {
        const number = svg("text", { x: c * size + 10, y: r * size + 24, class: "cell-number" }, g);
        number.textContent = move;
      }
      label(g, entry, options, c * size + size / 2, r * size + size / 2 + 8, size - 6);
      clickable(g, move, options);
    }
  }
}

// Hex: pointy-topped hexagons, each row half a cell right of the one above; the first player's
// edges (top and bottom) and the second's (left and right) drawn in their colours.
function hex(container, board, position, options) {
  const w = 80; // a cell's width
  const h = w / Math.sqrt(3); // its side
  const n = board.rows;
  const x0 = w + 10, y0 = h + 14;
  const centre = (r, c) => [x0 + c * w + r * w / 2, y0 + r * 1.5 * h];
  const width = x0 + (1.5 * n - 0.7) * w + 14;
  const height = y0 + (n - 1) * 1.5 * h + h + 14;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "hex" }, container);
  const corner = (cx, cy, k) => {
    const angle = Math.PI / 180 * (60 * k - 30);
    return [cx + h * Math.cos(angle), cy + h * Math.sin(angle)];
  };
  const edge = (r1, c1, r2, c2, kind) => {
    const [ax, ay] = centre(r1, c1), [bx, by] = centre(r2, c2);
    svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: `hex-edge edge-${kind}` }, root);
  };
  edge(-0.75, 0, -0.75, n - 1, "x");
  edge(n - 0.25, 0, n - 0.25, n - 1, "x");
  edge(0, -0.8, n - 1, -0.8, "o");
  edge(0, n - 0.2, n - 1, n - 0.2, "o");
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const move = board.cell_moves[r][c];
      const entry = move && options.scores ? options.scores.get(move) : null;
      const [cx, cy] = centre(r, c);
      const g = svg("g", {}, root);
      const points = [0, 1, 2, 3, 4, 5].map((k) => corner(cx, cy, k).join(",")).join(" ");
      const cell = svg("polygon", { points, class: "cell" }, g);
      if (isWin(board, r, c)) cell.classList.add("win-cell");
      if (entry && entry.best && options.hint) cell.classList.add("hint-cell");
      stone(g, board.cells[r][c], cx, cy, h * 0.9);
      if (move) {
        const number = svg("text", { x: cx, y: cy - h * 0.45, class: "cell-number", "text-anchor": "middle" }, g);
        number.textContent = move;
      }
      label(g, entry, options, cx, cy + 8, w - 10);
      clickable(g, move, options);
    }
  }
  if (board.swap) moveButtons(container, { legal: [board.swap] }, options, (move) => move);
}

function columns(container, board, options) {
  const size = 80;
  const top = 40;
  const root = svg("svg", { viewBox: `0 0 ${board.cols * size} ${board.rows * size + top + 24}`, class: "columns" }, container);
  svg("rect", { x: 0, y: top, width: board.cols * size, height: board.rows * size, rx: 10, class: "frame" }, root);
  for (let c = 0; c < board.cols; c++) {
    const move = board.column_moves[c];
    const entry = move && options.scores ? options.scores.get(move) : null;
    const g = svg("g", {}, root);
    const band = svg("rect", { x: c * size, y: 0, width: size, height: board.rows * size + top + 24, class: "column" }, g);
    if (entry && entry.best && options.hint) band.classList.add("hint-cell");
    for (let r = 0; r < board.rows; r++) {
      const cx = c * size + size / 2;
      const cy = top + r * size + size / 2;
      const kind = board.cells[r][c];
      const hole = svg("circle", { cx, cy, r: size * 0.38, class: kind ? `disc disc-${kind}` : "hole" }, g);
      if (isWin(board, r, c)) hole.classList.add("win-cell");
      // the disc the last move dropped: the highest in its column
      const highest = kind && (r === 0 || !board.cells[r - 1][c]);
      if (highest && options.last && String(c + 1) === options.last) {
        const ring = svg("circle", { cx, cy, r: size * 0.2, class: "last-cell" }, g);
        ring.setAttribute("data-last", options.lastByAi ? "ai" : "player");
      }
    }
    const number = svg("text", { x: c * size + size / 2, y: board.rows * size + top + 20, class: "column-number" }, g);
    number.textContent = String(c + 1);
    label(g, entry, options, c * size + size / 2, 28, size - 6);
    clickable(g, move, options);
  }
}

function moveButtons(container, position, options, caption) {
  const row = html("div", { class: "move-list" }, container);
  for (const move of position.legal) {
    const entry = options.scores ? options.scores.get(move) : null;
    const button = html("button", { type: "button", class: "move-button" }, row);
    html("span", { class: "move-name" }, button, caption(move));
    if (entry) {
      const text = html("span", { class: classes(entry, options), "data-score-move": move }, button, (entry.best ? "★ " : "") + shortLabel(entry));
      scoreTitle(text, entry);
    }
    if (entry && entry.best && options.hint) button.classList.add("hint-cell");
    if (options.onMove) {
      button.setAttribute("data-move", move);
      button.addEventListener("click", () => options.onMove(move));
    } else {
      button.disabled = true;
    }
  }
}

function pile(container, board, position, options) {
  const per = 10;
  const rows = Math.max(1, Math.ceil(Math.min(board.pile, 200) / per));
  const root = svg("svg", { viewBox: `0 0 ${per * 30 + 10} ${rows * 30 + 10}`, class: "pile" }, container);
  for (let i = 0; i < Math.min(board.pile, 200); i++) {
    svg("circle", { cx: 20 + (i % per) * 30, cy: 20 + Math.floor(i / per) * 30, r: 12, class: "token" }, root);
  }
  const last = options.last ? ` (the last move took ${options.last})` : "";
  html("p", { class: "pile-count" }, container, `${board.pile} token${board.pile === 1 ? "" : "s"} left${last}; take 1 to ${board.take}`);
  moveButtons(container, position, options, (move) => `take ${move}`);
}

function list(container, position, options) {
  html("pre", { class: "picture" }, container, position.picture);
  moveButtons(container, position, options, (move) => move);
}
