// The chess board: 8x8 squares, the pieces as Unicode glyphs in SVG, coordinates, click a
// piece then a target (legal moves only, from the server's list), a chooser for promotions,
// the last move, the king in check, the best moves as arrows, the game's moves in SAN.
// The rules stay on the server: every legal move comes with its squares and its SAN.

import { clear, html, svg } from "./svg.js";

const FILES = "abcdefgh";
const SIZE = 60; // one square
const LEFT = 22; // room for the rank numbers
const TOP = 4;
const BOARD = 8 * SIZE;
// The solid glyphs for both sides (the outlined ones look thin): white pieces are filled white
// and outlined, black ones filled dark. U+FE0E asks for text, not emoji, presentation.
const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
const PROMOTIONS = ["q", "r", "b", "n"]; // the queen first: the usual choice

// What the player has clicked, kept between drawings of the same position.
const ui = { fen: null, selected: null, promotion: null, message: "", last: null };

// A score as a chess player reads it: "mate in 2", "mated in 3", "draw", "+0.35" (pawns, from
// the side to move's view); bounds (left only by a game's own solver cut short: chess has
// none) as their text.
export function chessScore(entry) {
  if (entry.kind === "win") return entry.moves_to_end ? `mate in ${entry.moves_to_end}` : "mate";
  if (entry.kind === "loss") return entry.moves_to_end ? `mated in ${entry.moves_to_end}` : "mated";
  if (entry.kind === "draw") return "draw";
  if (entry.kind === "bounds") return entry.text;
  return pawns(entry.value);
}

// The short form for a square: "#2", "#-3", "=", "+0.4".
export function chessShortScore(entry) {
  if (entry.kind === "win") return `#${entry.moves_to_end || 0}`;
  if (entry.kind === "loss") return `#-${entry.moves_to_end || 0}`;
  if (entry.kind === "draw") return "=";
  if (entry.kind === "bounds") return "?";
  return pawns(entry.value, 1);
}

function pawns(centipawns, digits = 2) {
  const value = (centipawns / 100).toFixed(digits);
  if (Number(value) === 0) return (0).toFixed(digits); // never "-0.0"
  return centipawns > 0 ? `+${value}` : value;
}

// How a finished game ended, for the status line.
export function chessEnding(position) {
  const board = position.board;
  const winner = position.winner === "first" ? "White" : "Black";
  if (board.end === "checkmate") return `Checkmate: ${winner} wins.`;
  if (board.end === "stalemate") return "Draw by stalemate.";
  if (board.end) return `Draw by ${board.end}.`;
  return position.winner ? `${winner} wins.` : "Draw.";
}

export function colourName(player) {
  return player === "first" ? "White" : "Black";
}

// The moves of the game in SAN, numbered: "1. e4 e5 2. Nf3" (from a FEN: "12... Kf8 13. Qe2").
export function chessMoveList(position) {
  const labels = position.labels || position.moves;
  const board = position.board;
  const now = (board.fullmove - 1) * 2 + (board.turn === "black" ? 1 : 0);
  return numbered(labels, now - labels.length);
}

// A line of SAN moves numbered from the position after ``position``'s moves.
export function chessLine(position, labels) {
  const board = position.board;
  return numbered(labels, (board.fullmove - 1) * 2 + (board.turn === "black" ? 1 : 0));
}

function numbered(labels, firstPly) {
  const parts = [];
  labels.forEach((label, index) => {
    const ply = firstPly + index;
    const number = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) parts.push(`${number}. ${label}`);
    else parts.push(index === 0 ? `${number}... ${label}` : label);
  });
  return parts.join(" ");
}

function squareName(file, rank) {
  return FILES[file] + String(rank + 1);
}

function place(name, flipped) {
  const file = FILES.indexOf(name[0]);
  const rank = Number(name[1]) - 1;
  const col = flipped ? 7 - file : file;
  const row = flipped ? rank : 7 - rank;
  return { x: LEFT + col * SIZE, y: TOP + row * SIZE };
}

function centre(name, flipped) {
  const { x, y } = place(name, flipped);
  return { x: x + SIZE / 2, y: y + SIZE / 2 };
}

function pieceAt(board, name) {
  const file = FILES.indexOf(name[0]);
  const rank = Number(name[1]) - 1;
  return board.squares[7 - rank][file];
}

function isWhite(piece) {
  return piece !== "" && piece === piece.toUpperCase();
}

function drawPiece(parent, piece, x, y) {
  const text = svg("text", {
    x: x + SIZE / 2,
    y: y + SIZE / 2,
    class: `piece ${isWhite(piece) ? "piece-white" : "piece-black"}`,
    "data-piece": piece,
  }, parent);
  text.textContent = GLYPHS[piece.toLowerCase()] + "\uFE0E";
  const title = svg("title", {}, text);
  title.textContent = `${isWhite(piece) ? "white" : "black"} ${NAMES[piece.toLowerCase()]}`;
}

// options: { scores: Map(uci -> report move) | null, hint, onMove(uci) | null, flipped,
//            labels: {uci: san} }
export function drawChess(container, position, options) {
  const board = position.board;
  if (ui.fen !== board.fen || !options.onMove) {
    if (ui.fen !== board.fen) ui.message = "";
    ui.fen = board.fen;
    ui.selected = null;
    ui.promotion = null;
  }
  ui.last = { container, position, options };
  clear(container);
  const flipped = Boolean(options.flipped);
  const root = svg("svg", {
    viewBox: `0 0 ${LEFT + BOARD + 4} ${TOP + BOARD + 22}`,
    class: `chess${flipped ? " flipped" : ""}`,
    "data-fen": board.fen,
    "data-orientation": flipped ? "black" : "white",
  }, container);
  const from = ui.selected;
  const targets = new Map(); // square -> the legal moves from the selected piece to it
  if (from) {
    for (const move of board.moves) {
      if (move.from !== from) continue;
      if (!targets.has(move.to)) targets.set(move.to, []);
      targets.get(move.to).push(move);
    }
  }
  const movable = new Set(board.moves.map((m) => m.from));
  for (let rank = 7; rank >= 0; rank--) {
    for (let file = 0; file < 8; file++) {
      const name = squareName(file, rank);
      const { x, y } = place(name, flipped);
      const dark = (file + rank) % 2 === 0;
      const g = svg("g", { class: "square", "data-square": name }, root);
      const rect = svg("rect", { x, y, width: SIZE, height: SIZE, class: `sq ${dark ? "dark" : "light"}` }, g);
      if (board.last && (board.last.from === name || board.last.to === name)) rect.classList.add("last-move");
      if (name === from) rect.classList.add("selected");
      if (board.check === name) {
        svg("rect", { x: x + 2, y: y + 2, width: SIZE - 4, height: SIZE - 4, rx: SIZE / 2, class: "in-check" }, g);
      }
      const piece = pieceAt(board, name);
      if (piece) drawPiece(g, piece, x, y);
      if (targets.has(name)) {
        g.classList.add("target");
        if (piece) svg("circle", { cx: x + SIZE / 2, cy: y + SIZE / 2, r: SIZE * 0.46, class: "target-ring" }, g);
        else svg("circle", { cx: x + SIZE / 2, cy: y + SIZE / 2, r: SIZE * 0.15, class: "target-dot" }, g);
        const here = targets.get(name);
        const shown = here.find((m) => m.promotion === "q") || here[0];
        const entry = options.scores ? options.scores.get(shown.move) : null;
        if (entry) {
          const label = svg("text", { x: x + SIZE - 3, y: y + 13, class: `square-score score ${entry.kind}${entry.best ? " best" : ""}`, "data-score-move": entry.move }, g);
          label.textContent = chessShortScore(entry);
        }
      }
      if (options.onMove && (movable.has(name) || targets.has(name))) {
        g.classList.add("playable");
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", piece ? `${name} ${NAMES[piece.toLowerCase()]}` : name);
      }
      if (options.onMove) {
        g.addEventListener("click", () => clickSquare(name));
        g.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            clickSquare(name);
          }
        });
      }
    }
  }
  coordinates(root, flipped);
  if (options.hint && options.scores) arrows(root, board, options.scores, flipped);
  if (ui.promotion) promotionChooser(root, board, flipped);
  const note = html("p", { class: "chess-note", id: "chess-note", role: "status" }, container, ui.message);
  note.hidden = !ui.message;
  const list = chessMoveList(position);
  const moves = html("p", { class: "chess-moves", id: "chess-moves" }, container, list || "No moves yet.");
  if (position.start) moves.title = `from ${position.start}`;
}

function coordinates(root, flipped) {
  for (let i = 0; i < 8; i++) {
    const file = flipped ? 7 - i : i;
    const rank = flipped ? i + 1 : 8 - i;
    const f = svg("text", { x: LEFT + i * SIZE + SIZE / 2, y: TOP + BOARD + 16, class: "coord coord-file" }, root);
    f.textContent = FILES[file];
    const r = svg("text", { x: LEFT / 2, y: TOP + i * SIZE + SIZE / 2, class: "coord coord-rank" }, root);
    r.textContent = String(rank);
  }
}

function arrows(root, board, scores, flipped) {
  const defs = svg("defs", {}, root);
  const marker = svg("marker", { id: "arrow-head", viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "3", markerHeight: "3", orient: "auto-start-reverse" }, defs);
  svg("path", { d: "M0,0L10,5L0,10z", class: "hint-arrow-head" }, marker);
  for (const move of board.moves) {
    const entry = scores.get(move.move);
    if (!entry || !entry.best) continue;
    const a = centre(move.from, flipped);
    const b = centre(move.to, flipped);
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    const end = { x: b.x - ((b.x - a.x) / length) * 12, y: b.y - ((b.y - a.y) / length) * 12 };
    svg("line", { x1: a.x, y1: a.y, x2: end.x, y2: end.y, class: "hint-arrow", "marker-end": "url(#arrow-head)", "data-hint-move": move.move }, root);
  }
}

function promotionChooser(root, board, flipped) {
  const { to, moves } = ui.promotion;
  const white = board.turn === "white";
  const veil = svg("rect", { x: LEFT, y: TOP, width: BOARD, height: BOARD, class: "promotion-veil" }, root);
  veil.addEventListener("click", (event) => {
    event.stopPropagation();
    ui.promotion = null;
    redraw();
  });
  const start = place(to, flipped);
  const down = start.y < TOP + BOARD / 2; // the chooser opens from the promotion square inwards
  let first = null;
  PROMOTIONS.forEach((kind, index) => {
    const move = moves.find((m) => m.promotion === kind);
    if (!move) return;
    const y = start.y + (down ? index : -index) * SIZE;
    const g = svg("g", { class: "promotion-choice", "data-promotion": kind, tabindex: "0", role: "button", "aria-label": `promote to a ${NAMES[kind]}` }, root);
    svg("rect", { x: start.x, y, width: SIZE, height: SIZE, rx: 6, class: `promotion-square${kind === "q" ? " default" : ""}` }, g);
    drawPiece(g, white ? kind.toUpperCase() : kind, start.x, y);
    const choose = (event) => {
      event.stopPropagation();
      ui.promotion = null;
      ui.selected = null;
      ui.last.options.onMove(move.move);
    };
    g.addEventListener("click", choose);
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") choose(event);
      if (event.key === "Escape") {
        ui.promotion = null;
        redraw();
      }
    });
    if (!first) first = g;
  });
  if (first) setTimeout(() => first.focus(), 0); // Enter takes the queen
}

function redraw() {
  if (ui.last) drawChess(ui.last.container, ui.last.position, ui.last.options);
}

function describeSquare(board, name) {
  const piece = pieceAt(board, name);
  return piece ? `the ${NAMES[piece.toLowerCase()]} on ${name}` : name;
}

function clickSquare(name) {
  if (!ui.last || !ui.last.options.onMove) return;
  const board = ui.last.position.board;
  const from = ui.selected;
  ui.message = "";
  if (from && from !== name) {
    const moves = board.moves.filter((m) => m.from === from && m.to === name);
    if (moves.length > 1) {
      ui.promotion = { to: name, moves };
      redraw();
      return;
    }
    if (moves.length === 1) {
      ui.selected = null;
      ui.last.options.onMove(moves[0].move);
      return;
    }
  }
  const piece = pieceAt(board, name);
  const own = piece && isWhite(piece) === (board.turn === "white");
  if (own && name !== from) {
    ui.selected = name;
    if (!board.moves.some((m) => m.from === name)) {
      ui.message = `${describeSquare(board, name)} has no legal move.`;
      ui.selected = null;
    }
  } else if (from && name !== from) {
    ui.message = `${describeSquare(board, from)} cannot move to ${name}: not a legal move.`;
    ui.selected = null;
  } else if (from === name) {
    ui.selected = null;
  } else if (piece) {
    const side = board.turn === "white" ? "White" : "Black";
    ui.message = `It is ${side}'s move: click one of ${side}'s pieces.`;
  }
  redraw();
}
