// The page's controller: the game in the URL, the AI's replies, the analysis, the views.

import { ApiError, get } from "./api.js";
import { drawBoard } from "./board.js";
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
  page.opponent = query.get("opponent") || "perfect";
  page.human = query.get("human") || "first";
}

function writeUrl(push) {
  const query = new URLSearchParams();
  query.set("game", page.spec);
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

function drawCurrent() {
  const position = page.position;
  if (!position) return;
  const playable = !position.over && !aiToMove(position) && !page.preview;
  drawBoard($("board"), position, {
    scores: $("show-scores").checked || page.hint ? scoresMap(page.report) : null,
    hint: page.hint,
    onMove: playable ? (move) => play(move) : null,
  });
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
    position = await get("/api/position", { game: page.spec, moves });
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
    setStatus(`Game over: ${position.outcome}.`, position.winner === null ? "draw" : position.winner === page.human ? "win" : "loss");
    return;
  }
  if (aiToMove(position)) {
    setStatus("The AI is thinking…", "busy");
    try {
      const reply = await get("/api/move", { game: page.spec, moves: movesParam(position.moves), opponent: page.opponent });
      if (token !== page.token) return;
      page.aiNote = reply.note ? `The AI played ${reply.move}: ${reply.note}.` : "";
      page.moves = [...position.moves, reply.move];
      await load(false);
    } catch (error) {
      if (token !== page.token) return;
      showError(error);
      setStatus("The AI could not move.", "bad");
    }
    return;
  }
  setStatus(page.human === "both" ? `${position.to_move} player to move` : "Your move", "turn");
  $("ai-note").textContent = page.aiNote || "";
  page.aiNote = "";
  await analyse(token);
}

async function analyse(token) {
  $("analysis-note").textContent = "searching…";
  try {
    const report = await get("/api/analyze", { game: page.spec, moves: movesParam(page.position.moves) });
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
// instead (heuristic values, shown as such).
async function analyseWithin(token, seconds) {
  try {
    const report = await get("/api/analyze", { game: page.spec, moves: movesParam(page.position.moves), time: seconds });
    if (token !== page.token) return;
    page.report = report;
    showAnalysis(report);
    $("analysis-note").textContent = `not solved within the server's cap: values of a ${seconds} s search`;
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
  const toMove = (count) => (count % 2 === 0 ? "first" : "second");
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
  clear($("figures"));
  $("analysis-note").textContent = "";
  $("pv-play").disabled = true;
}

function showAnalysis(report) {
  const body = document.querySelector("#scores tbody");
  clear(body);
  for (const entry of report.moves) {
    const row = html("tr", { "data-move": entry.move, class: entry.best ? "best" : "" }, body);
    html("td", {}, row, entry.move);
    html("td", { class: `score-text ${entry.kind}` }, row, entry.text);
    html("td", {}, row, entry.best ? "★ best" : "");
    row.addEventListener("click", () => {
      if (page.position && !aiToMove(page.position) && !page.preview) play(entry.move);
    });
  }
  $("pv").textContent = report.pv.join(" ");
  $("pv-play").disabled = !report.pv.length;
  $("analysis-note").textContent = `${report.to_move} player to move: ${report.score.text}`;
  const figures = $("figures");
  const add = (name, value) => {
    html("dt", {}, figures, name);
    html("dd", { "data-figure": name }, figures, String(value));
  };
  add("nodes", report.nodes.toLocaleString("en"));
  add("cut-offs", report.cutoffs.toLocaleString("en"));
  add("table hits", report.table_hits.toLocaleString("en"));
  add("depth", report.depth);
  add("time", `${(report.seconds * 1000).toFixed(1)} ms`);
  add("algorithm", report.algorithm + (report.exact ? ", exact" : ", heuristic") + (report.complete ? "" : ", stopped by its time limit"));
}

// --- the principal variation, step by step -----------------------------------------------

async function showPreview() {
  const { line, step } = page.preview;
  $("preview").hidden = false;
  $("pv-step").textContent = String(step);
  $("pv-length").textContent = String(line.length);
  try {
    const position = await get("/api/position", { game: page.spec, moves: movesParam([...page.position.moves, ...line.slice(0, step)]) });
    drawBoard($("board"), position, { scores: null, hint: false, onMove: null });
    setStatus(step ? `After ${line.slice(0, step).join(" ")}` : "The game position", "busy");
  } catch (error) {
    showError(error);
  }
}

function stepPreview(step) {
  if (!page.preview) {
    if (!page.report || !page.report.pv.length) return;
    page.preview = { line: page.report.pv, step: 0 };
  }
  page.preview.step = Math.max(0, Math.min(page.preview.line.length, step));
  showPreview();
}

function closePreview() {
  page.preview = null;
  $("preview").hidden = true;
  drawCurrent();
  if (page.position && !page.position.over) setStatus(aiToMove(page.position) ? "The AI is thinking…" : "Your move", "turn");
}

// --- the tree and parallel views ------------------------------------------------------------

function viewedMoves() {
  const line = page.preview ? page.preview.line.slice(0, page.preview.step) : [];
  return movesParam([...(page.position ? page.position.moves : []), ...line]);
}

async function showTree(event) {
  event.preventDefault();
  $("tree-summary").textContent = "searching…";
  try {
    const data = await get("/api/tree", {
      game: page.spec, moves: viewedMoves(), depth: $("tree-depth").value,
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
      game: page.spec, moves: viewedMoves(), depth: $("parallel-depth").value, workers: $("parallel-workers").value,
    });
    const report = data.report;
    $("parallel-summary").textContent = `${data.workers} workers, ${data.tasks.length} tasks, ${report.nodes.toLocaleString("en")} nodes in ${(data.elapsed * 1000).toFixed(0)} ms; value ${report.score.text}, best ${report.best_moves.join(" ")}`;
    drawTimeline($("timeline"), data);
  } catch (error) {
    $("parallel-summary").textContent = error.message;
    clear($("timeline"));
  }
}

// --- wiring ---------------------------------------------------------------------------------

function wireSetup() {
  $("game").addEventListener("change", () => drawParams());
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
      const option = html("option", { value: game.name, title: game.summary }, $("game"), game.name);
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
