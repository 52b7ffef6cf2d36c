// The page's controller: the game in the URL, the AI's replies, the analysis, the views.

import { ApiError, get } from "./api.js";
import { drawBoard } from "./board.js";
import { chessEnding, chessLine, chessScore, colourName } from "./chess.js";
import { clear, html } from "./svg.js";
import { drawTimeline } from "./timeline.js";
import { drawTree, setAll } from "./tree.js";

const $ = (id) => document.getElementById(id);

const page = {
  games: [],
  spec: "tictactoe",
  moves: [],
  opponent: "perfect",
  human: "first",
  fen: "", // chess: the starting position when it is not the usual one
  flipped: false, // chess: the board turned by hand (it is turned anyway when you play Black)
  position: null,
  report: null,
  hint: false,
  preview: null, // { line: [moves], step: k }
  token: 0, // each load() bumps it: a reply for an older position is dropped
};

// --- errors and status ----------------------------------------------------------------------

function showError(error) {
  const box = $("error");
  const body = error instanceof ApiError ? error.body : {};
  box.textContent = error.message + (body.text && !error.message.includes(body.text) ? ` (${body.parameter}: ${body.text})` : "");
  box.hidden = false;
}

function hideError() {
  $("error").hidden = true;
}

function setStatus(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = `status ${kind}`;
}

// --- the URL --------------------------------------------------------------------------------

function readUrl() {
  const query = new URLSearchParams(window.location.search);
  page.spec = query.get("game") || "tictactoe";
  const moves = query.get("moves") || "";
  page.movesText = moves;
  // a game too large to solve (chess): "perfect" thinks for the game's own time a move
  page.opponent = query.get("opponent") || "perfect";
  page.human = query.get("human") || "first";
  page.fen = query.get("fen") || "";
}

// The position's parameters of every API call: the game, its moves and (chess) its FEN.
function where(moves) {
  return { game: page.spec, fen: page.fen, moves: movesParam(moves) };
}

function isChess(position = page.position) {
  return Boolean(position && position.board && position.board.kind === "chess");
}

// A player as the page names it: "first"/"second", or White/Black in chess.
function playerName(player, position = page.position) {
  return isChess(position) ? colourName(player) : `${player} player`;
}

function writeUrl(push) {
  const query = new URLSearchParams();
  query.set("game", page.spec);
  if (page.fen) query.set("fen", page.fen);
  query.set("moves", page.position ? page.position.moves_text : page.movesText);
  if (page.opponent !== "perfect") query.set("opponent", page.opponent);
  if (page.human !== "first") query.set("human", page.human);
  const url = `${window.location.pathname}?${query.toString()}`;
  if (url === window.location.pathname + window.location.search) return;
  if (push) window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
}

function movesParam(moves) {
  return moves.join(",");
}

// --- the game picker ------------------------------------------------------------------------

function specParts(spec) {
  const [name, rest = ""] = spec.split(":");
  const values = {};
  const game = page.games.find((g) => g.name === name) || page.games.find((g) => g.spec === name);
  rest.split(",").filter(Boolean).forEach((part, index) => {
    const [key, value] = part.includes("=") ? part.split("=") : [game && game.params[index] ? game.params[index].name : String(index), part];
    values[key.trim()] = value.trim();
  });
  return { name: game ? game.name : name, values };
}

function drawParams(values = {}) {
  const holder = $("params");
  clear(holder);
  const game = page.games.find((g) => g.name === $("game").value);
  if (!game) return;
  const chess = game.board === "chess";
  const names = chess ? ["White", "Black", "both sides"] : ["first", "second", "both sides"];
  [...$("human").options].forEach((option, index) => {
    option.textContent = names[index];
  });
  $("flip").hidden = !chess;
  // a game too large to solve: its "perfect" opponent thinks for the game's own time a move
  $("opponent-kind").options[0].textContent =
    game.move_time ? `strongest in ${game.move_time} s a move` : "perfect";
  if (!game.available) html("span", { class: "unavailable" }, holder, game.error);
  for (const param of game.params) {
    const label = html("label", {}, holder, `${param.name} `);
    html("input", { type: "number", min: "1", name: param.name, value: values[param.name] ?? String(param.default), class: "param", "data-param": param.name }, label);
  }
}

function chosenSpec() {
  const name = $("game").value;
  const game = page.games.find((g) => g.name === name);
  const parts = [];
  for (const input of $("params").querySelectorAll("input.param")) {
    parts.push(`${input.dataset.param}=${input.value.trim()}`);
  }
  const defaults = game ? game.params.every((p) => String(p.default) === $("params").querySelector(`[data-param="${p.name}"]`).value.trim()) : true;
  return parts.length && !defaults ? `${name}:${parts.join(",")}` : name;
}

function showSetup() {
  const { name, values } = specParts(page.spec);
  if (page.games.some((g) => g.name === name)) $("game").value = name;
  drawParams(values);
  const [kind, arg] = page.opponent.split(":");
  $("opponent-kind").value = ["perfect", "depth", "time", "random"].includes(kind) ? kind : "perfect";
  $("opponent-arg").hidden = !arg;
  if (arg) $("opponent-arg").value = arg;
  $("human").value = page.human;
}

function chosenOpponent() {
  const kind = $("opponent-kind").value;
  if (kind === "depth" || kind === "time") return `${kind}:${$("opponent-arg").value.trim()}`;
  return kind;
}

// --- play -----------------------------------------------------------------------------------

function aiToMove(position) {
  return page.human !== "both" && position.to_move !== page.human;
}

function scoresMap(report) {
  const map = new Map();
  if (report) for (const entry of report.moves) map.set(entry.move, entry);
  return map;
}

function flipped() {
  return (page.human === "second") !== page.flipped;
}

function drawCurrent() {
  const position = page.position;
  if (!position) return;
  const playable = !position.over && !aiToMove(position) && !page.preview;
  drawBoard($("board"), position, {
    scores: $("show-scores").checked || page.hint ? scoresMap(page.report) : null,
    hint: page.hint,
    onMove: playable ? (move) => play(move) : null,
    flipped: flipped(),
  });
}

function gameOverText(position) {
  if (isChess(position)) return `Game over. ${chessEnding(position)}`;
  return `Game over: ${position.outcome}.`;
}

async function play(move) {
  if (!page.position || page.preview) return;
  page.moves = [...page.position.moves, move];
  page.position = null; // no second click until the new position is drawn
  page.hint = false;
  await load(true);
}

async function load(push = false) {
  const token = ++page.token;
  hideError();
  setStatus("…", "busy");
  const moves = page.moves ? movesParam(page.moves) : page.movesText;
  let position;
  try {
    position = await get("/api/position", { game: page.spec, fen: page.fen, moves });
  } catch (error) {
    if (token !== page.token) return;
    page.position = null;
    clear($("board"));
    showError(error);
    setStatus("This position cannot be shown: start a new game or fix the URL.", "bad");
    return;
  }
  if (token !== page.token) return;
  page.position = position;
  page.moves = position.moves;
  page.report = null;
  writeUrl(push);
  clearAnalysis();
  drawCurrent();
  if (position.over) {
    $("analysis-note").textContent = "the game is over";
    $("ai-note").textContent = page.aiNote || "";
    page.aiNote = "";
    setStatus(gameOverText(position), position.winner === null ? "draw" : page.human === "both" || position.winner === page.human ? "win" : "loss");
    return;
  }
  if (aiToMove(position)) {
    setStatus("The AI is thinking…", "busy");
    try {
      const reply = await get("/api/move", { ...where(position.moves), opponent: page.opponent });
      if (token !== page.token) return;
      if (isChess(position)) {
        const report = reply.report;
        const thought = report ? ` (${chessScore(report.score)} for it, depth ${report.depth}, ${report.seconds.toFixed(1)} s)` : "";
        page.aiNote = `The AI played ${reply.label}${thought}${reply.note ? `: ${reply.note}` : ""}.`;
      } else {
        page.aiNote = reply.note ? `The AI played ${reply.move}: ${reply.note}.` : "";
      }
      page.moves = [...position.moves, reply.move];
      await load(false);
    } catch (error) {
      if (token !== page.token) return;
      showError(error);
      setStatus("The AI could not move.", "bad");
    }
    return;
  }
  const check = isChess(position) && position.board.check ? " (check)" : "";
  setStatus(page.human === "both" ? `${playerName(position.to_move, position)} to move${check}` : `Your move${check}`, "turn");
  $("ai-note").textContent = page.aiNote || "";
  page.aiNote = "";
  await analyse(token);
}

async function analyse(token) {
  $("analysis-note").textContent = "searching…";
  try {
    const report = await get("/api/analyze", where(page.position.moves));
    if (token !== page.token) return;
    page.report = report;
    showAnalysis(report);
    drawCurrent();
  } catch (error) {
    if (token !== page.token) return;
    $("analysis-note").textContent = error.message;
    if (error.status === 504) await analyseWithin(token, 2);
  }
}

// The exact analysis ran past the server's cap: a short time-limited one labels the moves
// instead (heuristic values, or the bounds a game's own solver proved, shown as such).
async function analyseWithin(token, seconds) {
  try {
    const report = await get("/api/analyze", { ...where(page.position.moves), time: seconds });
    if (token !== page.token) return;
    page.report = report;
    showAnalysis(report);
    $("analysis-note").textContent = `not solved within the server's cap: what a ${seconds} s search found`;
    drawCurrent();
  } catch (error) {
    if (token !== page.token) return;
    $("analysis-note").textContent = error.message;
  }
}

function undo() {
  if (!page.position || page.preview) return;
  let moves = [...page.position.moves];
  if (!moves.length) return;
  moves.pop();
  const now = page.position.moves.length;
  const other = page.position.to_move === "first" ? "second" : "first";
  const toMove = (count) => ((now - count) % 2 === 0 ? page.position.to_move : other);
  // take back the AI's reply too, so that it is your turn again (alternating games)
  while (moves.length && page.human !== "both" && toMove(moves.length) !== page.human) moves.pop();
  page.moves = moves;
  load(true);
}

// --- the analysis panel ---------------------------------------------------------------------

function clearAnalysis() {
  $("ai-note").textContent = "";
  clear(document.querySelector("#scores tbody"));
  clear($("pv"));
  clear($("lines"));
  $("lines").hidden = true;
  clear($("figures"));
  $("analysis-note").textContent = "";
  $("pv-play").disabled = true;
}

function showAnalysis(report) {
  const body = document.querySelector("#scores tbody");
  clear(body);
  const chess = isChess();
  const labels = report.labels || {};
  // chess: the best first (forty moves in legal order are hard to read)
  const entries = chess ? [...report.moves].sort((a, b) => b.value - a.value) : report.moves;
  for (const entry of entries) {
    const row = html("tr", { "data-move": entry.move, class: entry.best ? "best" : "" }, body);
    html("td", { title: entry.move }, row, labels[entry.move] || entry.move);
    html("td", { class: `score-text ${entry.kind}`, title: entry.text }, row, chess ? chessScore(entry) : entry.text);
    html("td", {}, row, entry.best ? "★ best" : "");
    row.addEventListener("click", () => {
      if (page.position && !aiToMove(page.position) && !page.preview) play(entry.move);
    });
  }
  $("pv").textContent = chess ? chessLine(page.position, report.pv_labels || report.pv) : report.pv.join(" ");
  $("pv").title = report.pv.join(" ");
  $("pv-play").disabled = !report.pv.length;
  // a game's own searcher's best lines (chess: up to three, each with its score)
  clear($("lines"));
  const lines = report.lines_labels || [];
  $("lines").hidden = !chess || !lines.length;
  lines.forEach((line, index) => {
    const item = html("li", {}, $("lines"), `${chessScore(report.lines[index].score)} ${chessLine(page.position, line)}`);
    item.title = report.lines[index].pv.join(" ");
  });
  if (chess) {
    const within = report.complete ? "" : ` within ${report.seconds.toFixed(1)} s`;
    $("analysis-note").textContent = `${colourName(report.to_move)} to move: ${chessScore(report.score)} (${report.exact ? "exact" : `pawns, depth ${report.depth}${within}`})`;
  } else {
    $("analysis-note").textContent = `${report.to_move} player to move: ${report.score.text}`;
  }
  const figures = $("figures");
  const add = (name, value) => {
    html("dt", {}, figures, name);
    html("dd", { "data-figure": name }, figures, String(value));
  };
  // a game's own solver counts its nodes only (as the command line shows it); cut short, what
  // it knows are bounds, not heuristic values
  const solver = report.algorithm === "solver";
  add("nodes", report.nodes.toLocaleString("en"));
  if (!solver) {
    add("cut-offs", report.cutoffs.toLocaleString("en"));
    add("table hits", report.table_hits.toLocaleString("en"));
    add("depth", report.depth);
  }
  add("time", `${(report.seconds * 1000).toFixed(1)} ms`);
  const kind = report.exact ? ", exact" : solver ? ", bounds" : ", heuristic";
  add("algorithm", report.algorithm + kind + (report.complete ? "" : ", stopped by its time limit"));
}

// --- the principal variation, step by step -----------------------------------------------

async function showPreview() {
  const { line, labels, step } = page.preview;
  $("preview").hidden = false;
  $("pv-step").textContent = String(step);
  $("pv-length").textContent = String(line.length);
  try {
    const position = await get("/api/position", where([...page.position.moves, ...line.slice(0, step)]));
    drawBoard($("board"), position, { scores: null, hint: false, onMove: null, flipped: flipped() });
    setStatus(step ? `After ${labels.slice(0, step).join(" ")}` : "The game position", "busy");
  } catch (error) {
    showError(error);
  }
}

function stepPreview(step) {
  if (!page.preview) {
    if (!page.report || !page.report.pv.length) return;
    page.preview = { line: page.report.pv, labels: page.report.pv_labels || page.report.pv, step: 0 };
  }
  page.preview.step = Math.max(0, Math.min(page.preview.line.length, step));
  showPreview();
}

function closePreview() {
  page.preview = null;
  $("preview").hidden = true;
  drawCurrent();
  if (page.position && !page.position.over) setStatus(aiToMove(page.position) ? "The AI is thinking…" : "Your move", "turn");
  else if (page.position) setStatus(gameOverText(page.position), "draw");
}

// --- the tree and parallel views ------------------------------------------------------------

function viewedMoves() {
  const line = page.preview ? page.preview.line.slice(0, page.preview.step) : [];
  return where([...(page.position ? page.position.moves : []), ...line]);
}

async function showTree(event) {
  event.preventDefault();
  $("tree-summary").textContent = "searching…";
  try {
    const data = await get("/api/tree", {
      ...viewedMoves(), depth: $("tree-depth").value,
      algorithm: $("tree-algorithm").value, hints: $("tree-hints").checked ? "1" : "",
      max_nodes: $("tree-max").value,
    });
    const tree = data.tree;
    $("tree-summary").textContent = `${tree.algorithm} to depth ${tree.depth}${tree.hints ? " with move hints" : ""}: ${tree.nodes} nodes searched, ${tree.pruned} pruned, ${tree.cutoffs} cut-offs; value ${tree.score} for the side to move`;
    $("tree-summary").dataset.nodes = String(tree.nodes);
    drawTree($("tree"), tree);
    const body = document.querySelector("#counts tbody");
    clear(body);
    for (const row of data.counts) {
      const tr = html("tr", {}, body);
      html("td", {}, tr, row.algorithm);
      html("td", { class: "number" }, tr, row.nodes === null ? row.note : row.nodes.toLocaleString("en"));
      html("td", { class: "number" }, tr, row.cutoffs === undefined ? "" : row.cutoffs.toLocaleString("en"));
      html("td", { class: "number" }, tr, row.table_hits === undefined ? "" : row.table_hits.toLocaleString("en"));
      html("td", {}, tr, row.score || "");
    }
    $("counts").hidden = false;
  } catch (error) {
    $("tree-summary").textContent = error.message;
    clear($("tree"));
  }
}

async function showParallel(event) {
  event.preventDefault();
  $("parallel-summary").textContent = "searching…";
  try {
    const data = await get("/api/parallel", {
      ...viewedMoves(), depth: $("parallel-depth").value, workers: $("parallel-workers").value,
    });
    const report = data.report;
    const best = report.best_moves.map((m) => (report.labels && report.labels[m]) || m).join(" ");
    const value = isChess() ? chessScore(report.score) : report.score.text;
    $("parallel-summary").textContent = `${data.workers} workers, ${data.tasks.length} tasks, ${report.nodes.toLocaleString("en")} nodes in ${(data.elapsed * 1000).toFixed(0)} ms, depth ${report.depth}${report.complete ? "" : " (stopped by its time limit)"}; value ${value}, best ${best}`;
    drawTimeline($("timeline"), data);
  } catch (error) {
    $("parallel-summary").textContent = error.message;
    clear($("timeline"));
  }
}

// --- wiring ---------------------------------------------------------------------------------

function wireSetup() {
  $("game").addEventListener("change", () => {
    drawParams();
  });
  $("opponent-kind").addEventListener("change", () => {
    const kind = $("opponent-kind").value;
    $("opponent-arg").hidden = !(kind === "depth" || kind === "time");
    $("opponent-arg").value = kind === "time" ? "1" : "3";
  });
  $("setup").addEventListener("submit", (event) => {
    event.preventDefault();
    page.spec = chosenSpec();
    page.opponent = chosenOpponent();
    page.human = $("human").value;
    page.fen = "";
    page.flipped = false;
    page.moves = [];
    page.preview = null;
    $("preview").hidden = true;
    load(true);
  });
  window.addEventListener("popstate", () => {
    readUrl();
    page.moves = null;
    showSetup();
    load(false);
  });
}

function wirePlay() {
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => {
    page.flipped = !page.flipped;
    if (!page.preview) drawCurrent();
    else showPreview();
  });
  $("hint").addEventListener("click", () => {
    page.hint = !page.hint;
    drawCurrent();
  });
  $("show-scores").addEventListener("change", drawCurrent);
  $("pv-play").addEventListener("click", () => stepPreview(1));
  $("pv-first").addEventListener("click", () => stepPreview(0));
  $("pv-back").addEventListener("click", () => stepPreview(page.preview.step - 1));
  $("pv-next").addEventListener("click", () => stepPreview(page.preview.step + 1));
  $("pv-last").addEventListener("click", () => stepPreview(page.preview.line.length));
  $("pv-close").addEventListener("click", closePreview);
}

function wireViews() {
  $("tree-form").addEventListener("submit", showTree);
  $("tree-expand").addEventListener("click", () => setAll($("tree"), true));
  $("tree-collapse").addEventListener("click", () => setAll($("tree"), false));
  $("parallel-form").addEventListener("submit", showParallel);
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.addEventListener("click", () => {
      for (const other of document.querySelectorAll(".tabs button")) {
        other.classList.toggle("active", other === tab);
        $(other.dataset.tab).hidden = other !== tab;
      }
    });
  }
}

async function start() {
  readUrl();
  try {
    const data = await get("/api/games");
    page.games = data.games;
    for (const game of data.games) {
      const text = game.available ? game.name : `${game.name} (not installed)`;
      const option = html("option", { value: game.name, title: game.available ? game.summary : game.error }, $("game"), text);
      option.dataset.board = game.board;
    }
  } catch (error) {
    showError(error);
    return;
  }
  showSetup();
  wireSetup();
  wirePlay();
  wireViews();
  page.moves = null;
  await load(false);
}

start();
