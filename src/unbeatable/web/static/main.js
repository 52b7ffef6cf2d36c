// The page's controller: the game in the URL, who plays what, the AI's replies, the analysis,
// the game's moves with what each changed, errors a person recovers from, and the views.

import { ApiError, get } from "./api.js";
import { drawBoard } from "./board.js";
import { chessEnding, chessLine, chessScore, colourName } from "./chess.js";
import { clear, html } from "./svg.js";
import { showParallel } from "./timeline.js";
import { TreeView } from "./tree.js";

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
  preview: null, // { line: [moves], labels, step, what, base }
  token: 0, // each load() bumps it: a reply for an older position is dropped
  arrival: true, // the page was just opened (or went back in history): the AI waits to be asked
  reports: new Map(), // position (its moves, joined) -> the analysis of that position
  aiReports: new Map(), // position -> the report of the AI's search there (its move's value)
  lastAi: null, // the move the AI just played
  badMove: null, // { index, text, message }: the URL's move that could not be played
  notes: [], // what happened since a person last looked: entries of parts (a text, or { dice })
  shownNotes: [], // the notes under the status now
};

// --- errors and status ----------------------------------------------------------------------

let retryTimer = null;

// Shows ``error`` above the board (which stays as it was). A busy or unreachable server gets a
// Retry button (a 503 is retried by itself after its Retry-After).
function showError(error, retry = null) {
  const body = error instanceof ApiError ? error.body : {};
  let text = error.message + (body.text && !error.message.includes(body.text) ? ` (${body.parameter}: ${body.text})` : "");
  clearTimeout(retryTimer);
  const button = $("retry");
  button.hidden = true;
  if (retry && error instanceof ApiError && error.retryable) {
    button.hidden = false;
    button.onclick = () => {
      hideError();
      retry();
    };
    if (error.retryAfter) {
      let left = Math.ceil(error.retryAfter);
      const tick = () => {
        $("error-text").textContent = `${text}: trying again in ${left} s`;
        if (left <= 0) {
          hideError();
          retry();
          return;
        }
        left -= 1;
        retryTimer = setTimeout(tick, 1000);
      };
      text = text.replace(/;? ?try again in \d+ s/, "");
      $("error").hidden = false;
      tick();
      return;
    }
  }
  $("error-text").textContent = text;
  $("error").hidden = false;
}

function hideError() {
  clearTimeout(retryTimer);
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
  page.movesText = query.get("moves") || "";
  // a game too large to solve (chess): "perfect" thinks for the game's own time a move
  page.opponent = query.get("opponent") || "perfect";
  page.human = query.get("human") || "first";
  page.fen = query.get("fen") || "";
}

// The position's parameters of every API call: the game, its moves and (chess) its FEN.
function where(moves) {
  return { game: page.spec, fen: page.fen, moves: moves.join(",") };
}

function isChess(position = page.position) {
  return Boolean(position && position.board && position.board.kind === "chess");
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

// The moves of a URL's text, as the server splits them: on commas and spaces, else one move a
// character (the games whose moves are single characters run them together: 4453).
function splitMoves(text) {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (/[\s,]/.test(trimmed)) return trimmed.split(/[\s,]+/).filter(Boolean);
  return [...trimmed];
}

// --- who plays what ---------------------------------------------------------------------------

function gameInfo() {
  const name = page.spec.split(":")[0];
  return page.games.find((g) => g.name === name) || null;
}

// The sides of a game in order: a player is named by its ordinal ("first", "second", "third").
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];

// The sides people play: page.human is one side, several ("first,third"), "both" (every
// side) or "none" (the AIs play each other).
function humans(position) {
  if (page.human === "both") return ORDINALS.slice(0, position.players || 2);
  if (page.human === "none") return [];
  return page.human.split(",");
}

// The player who made each move of the position (null for a roll of the dice), as the server
// says it (movers: a player's index, or null).
function moverOf(position, index) {
  const movers = position.movers || [];
  const mover = movers[index];
  return mover === null || mover === undefined ? null : ORDINALS[mover];
}

// A player as the page names it: X and O (and V, W, ... for more players), the two colours of
// Connect Four, White and Black.
function sideName(player, position = page.position) {
  const kind = position && position.board ? position.board.kind : "";
  if (kind === "chess") return colourName(player);
  if (kind === "grid" && position.board.marks) return (position.board.marks[ORDINALS.indexOf(player)] || player).toUpperCase();
  if (kind === "grid") return player === "first" ? "X" : "O";
  if (kind === "columns") return player === "first" ? "red" : "yellow";
  return `the ${player} player`;
}

function sideLong(player, position = page.position) {
  const kind = position && position.board ? position.board.kind : "";
  if (kind === "grid" || kind === "columns") return `${sideName(player, position)} (the ${player} player)`;
  return sideName(player, position);
}

function numbers(spec) {
  const rest = spec.split(":")[1] || "";
  const values = {};
  rest.split(",").filter(Boolean).forEach((part, index) => {
    const [key, value] = part.includes("=") ? part.split("=") : [String(index), part];
    values[key.trim()] = Number(value);
  });
  return values;
}

// The rules of the game in a line.
function rulesText(position) {
  const board = position.board;
  const given = numbers(page.spec);
  if (board.kind === "grid") {
    const k = given.k || given[2] || (board.rows === 3 && board.cols === 3 ? 3 : null);
    const line = k ? `${k} in a row` : "a row";
    const marks = (board.marks || ["x", "o"]).map((mark) => mark.toUpperCase());
    const names = marks.length > 2 ? `${marks.slice(0, -1).join(", ")} and ${marks[marks.length - 1]}` : "X and O";
    return `Rules: ${names} take turns to fill a cell of the ${board.rows} × ${board.cols} board; ${line} (across, down or diagonally) wins; a full board is a draw. X moves first.`;
  }
  if (board.kind === "columns") {
    return `Rules: red and yellow take turns to drop a disc into a column of the ${board.cols} × ${board.rows} board; four in a row (across, down or diagonally) wins; a full board is a draw. Red moves first.`;
  }
  if (board.kind === "pile") {
    return `Rules: the players take turns to take 1 to ${board.take} tokens from the pile; whoever takes the last token wins.`;
  }
  if (board.kind === "chess") return "Rules: chess; checkmate wins; stalemate, threefold repetition, the fifty-move rule and insufficient material draw.";
  const game = gameInfo();
  return game && game.summary ? `Rules: ${game.summary}.` : "";
}

function roleText(position) {
  const count = position.players || 2;
  const people = humans(position);
  const ais = ORDINALS.slice(0, count).filter((side) => !people.includes(side));
  const and = (names) => (names.length > 2 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names.join(" and "));
  const dice = position.chance ? " The dice: press Roll the dice, or click the roll your own dice show." : "";
  if (!ais.length) return `You play ${count === 2 ? "both sides" : "every side"}.${dice}`;
  const opponent = page.opponent === "perfect" ? (isChess(position) ? "the strongest it can find in its time" : position.move_time ? (position.too_large ? `too large to solve: the strongest it finds in ${position.move_time} s a move` : `slow to solve: perfect where ${position.move_time} s a move proves it, else the strongest it finds`) : "perfect play") : page.opponent;
  const them = and(ais.map((side) => sideName(side, position)));
  if (!people.length) return `The AI plays every side (${opponent}).`;
  return `You play ${and(people.map((side) => sideLong(side, position)))}; the AI plays ${them} (${opponent}).${dice}`;
}

function showRules(position) {
  $("rules").textContent = `${roleText(position)} ${rulesText(position)}`;
}

// --- the game picker ------------------------------------------------------------------------

function specParts(spec) {
  // a game of your own is named module:attribute as a whole (no parameters)
  if (page.games.some((g) => g.name === spec)) return { name: spec, values: {} };
  const [name, rest = ""] = spec.split(":");
  const values = {};
  const game = page.games.find((g) => g.name === name) || page.games.find((g) => g.spec === name);
  if (game && textParam(game)) {
    // a game given as one text (a typed tree): the whole rest is its parameter
    const param = game.params[0].name;
    values[param] = rest.startsWith(`${param}=`) ? rest.slice(param.length + 1) : rest;
    return { name: game.name, values };
  }
  rest.split(",").filter(Boolean).forEach((part, index) => {
    const [key, value] = part.includes("=") ? part.split("=") : [game && game.params[index] ? game.params[index].name : String(index), part];
    values[key.trim()] = value.trim();
  });
  return { name: game ? game.name : name, values };
}

// A game whose one parameter is a text (leaves: the tree), not a number.
function textParam(game) {
  return game.params.length === 1 && typeof game.params[0].default === "string";
}

// The sides a game's "You play" offers: each player, every side (people only), none (watch).
function drawSides(game, players) {
  const chess = game.board === "chess";
  const count = Math.min(ORDINALS.length, Math.max(2, Number(players) || game.players || 2));
  const choices = ORDINALS.slice(0, count).map((name) => [name, chess ? colourName(name) : name]);
  choices.push(["both", count === 2 ? "both sides" : "every side"], ["none", "no side (watch)"]);
  if (page.human.includes(",")) choices.push([page.human, page.human.replaceAll(",", " and ")]);
  const select = $("human");
  clear(select);
  for (const [value, text] of choices) html("option", { value }, select, text);
}

function drawParams(values = {}) {
  const holder = $("params");
  clear(holder);
  const game = page.games.find((g) => g.name === $("game").value);
  if (!game) return;
  const chess = game.board === "chess";
  drawSides(game, values.players);
  $("flip").hidden = !chess;
  // a game too large to solve: its "perfect" opponent thinks for the game's own time a move
  $("opponent-kind").options[0].textContent =
    game.move_time ? `strongest in ${game.move_time} s a move` : "perfect";
  if (!game.available) html("span", { class: "unavailable" }, holder, game.error);
  for (const param of game.params) {
    const label = html("label", {}, holder, `${param.name} `);
    const text = typeof param.default === "string";
    const attrs = text ? { type: "text", size: "24", spellcheck: "false" } : { type: "number", min: "1" };
    const input = html("input", { ...attrs, name: param.name, value: values[param.name] ?? String(param.default ?? 2), class: "param", "data-param": param.name }, label);
    // a game's number of players sets the sides to choose from
    if (param.name === "players") input.addEventListener("input", () => drawSides(game, input.value));
  }
}

function chosenSpec() {
  const name = $("game").value;
  const game = page.games.find((g) => g.name === name);
  if (game && textParam(game)) {
    const input = $("params").querySelector("input.param");
    const value = input ? input.value.trim() : "";
    return value && value !== game.params[0].default ? `${name}:${value}` : name;
  }
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
  const [spec, option] = page.opponent.split(",");
  let [kind, arg] = spec.split(":");
  if (kind === "time" && option === "algorithm=pns") kind = "pns"; // df-pn for T seconds
  $("opponent-kind").value = ["perfect", "depth", "time", "random", "mcts", "pns"].includes(kind) ? kind : "perfect";
  $("opponent-arg").hidden = !arg;
  if (arg) $("opponent-arg").value = arg;
  $("human").value = page.human;
}

function chosenOpponent() {
  const kind = $("opponent-kind").value;
  const arg = $("opponent-arg").value.trim();
  if (kind === "depth" || kind === "time" || kind === "mcts") return `${kind}:${arg}`;
  if (kind === "pns") return `time:${arg},algorithm=pns`;
  return kind;
}

// --- play -----------------------------------------------------------------------------------

function aiToMove(position) {
  return !humans(position).includes(position.to_move);
}

// A roll as dice: "6-4" as two faces, anything else (a total) as it is.
function diceText(label) {
  const faces = "⚀⚁⚂⚃⚄⚅";
  const found = /^([1-6])-([1-6])$/.exec(label || "");
  return found ? `${faces[found[1] - 1]} ${faces[found[2] - 1]}` : label;
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
    last: position.moves.length ? position.moves[position.moves.length - 1] : null,
    lastByAi: page.lastAi !== null && position.moves[position.moves.length - 1] === page.lastAi,
  });
}

function key(moves) {
  return moves.join(",");
}

// The end of the game in words: "You lost", "You drew", "You won", or who won.
function gameOverText(position) {
  const you = humans(position).length === 1;
  if (isChess(position) && !you) return `Game over. ${chessEnding(position)}`;
  const ending = isChess(position) ? ` ${chessEnding(position)}` : "";
  if (position.winner === null) return you ? `Game over: you drew.${ending}` : `Game over: a draw.${ending}`;
  if (!you) return `Game over: ${sideName(position.winner, position)} won.${ending}`;
  return humans(position).includes(position.winner) ? `Game over: you won!${ending}` : `Game over: you lost.${ending}`;
}

async function play(move) {
  if (!page.position || page.preview) return;
  page.arrival = false;
  page.moves = [...page.position.moves, move];
  page.lastAi = null;
  page.hint = false;
  await load(true);
}

async function load(push = false) {
  const token = ++page.token;
  hideError();
  setStatus("…", "busy");
  const moves = page.moves ? key(page.moves) : page.movesText;
  let position;
  try {
    position = await get("/api/position", { game: page.spec, fen: page.fen, moves });
  } catch (error) {
    if (token !== page.token) return;
    await positionFailed(error, moves, push);
    return;
  }
  if (token !== page.token) return;
  page.position = position;
  page.moves = position.moves;
  page.report = null;
  writeUrl(push);
  clearAnalysis();
  showRules(position);
  drawCurrent();
  $("ai-move").hidden = true;
  $("roll").hidden = true;
  // a roll not announced yet (a link, a roll played by clicking its outcome): the dice shown
  if (position.rolled && !page.notes.some((entry) => entry.some((part) => part.dice))) page.notes.push(["The dice: ", { dice: position.rolled }]);
  if (!position.over && aiToMove(position) && !page.arrival) {
    // the AIs go on: their notes gather until a person is to play
    page.shownNotes = [...page.notes];
    renderNote();
  } else {
    showNote();
  }
  showMoveList();
  const bad = page.badMove;
  if (bad) {
    page.badMove = null;
    showError(new Error(`The link's move ${bad.index} (${JSON.stringify(bad.text)}) cannot be played: ${bad.message}. The game is shown up to move ${bad.index - 1}.`));
  }
  if (position.over) {
    $("analysis-note").textContent = "the game is over";
    setStatus(...statusOf(position));
    review(token);
    return;
  }
  if (position.chance && !aiToMove(position)) {
    // a person's roll: the Roll button rolls the dice (the server draws it); the outcomes
    // are the moves too, to play the dice on your own table
    setStatus(...statusOf(position));
    $("roll").hidden = false;
    await analyse(token);
    return;
  }
  if (aiToMove(position)) {
    if (page.arrival) {
      // a shared link, a reload or the history: the AI waits until asked
      setStatus(...statusOf(position));
      $("ai-move").hidden = false;
      await analyse(token);
      review(token);
      return;
    }
    await aiMove(token, position);
    return;
  }
  setStatus(...statusOf(position));
  await analyse(token);
  review(token);
}

// The note under the status: what the AIs did and the dice rolled since a person last looked,
// in order (``extra``: a sentence after them).
function renderNote(extra = "") {
  const note = $("ai-note");
  clear(note);
  page.shownNotes.forEach((entry, index) => {
    if (index) note.append(" ");
    for (const part of entry) {
      if (part.dice) html("span", { class: "dice", title: part.dice }, note, diceText(part.dice));
      else note.append(part);
    }
  });
  if (extra) note.append(`${page.shownNotes.length ? " " : ""}${extra}`);
}

function showNote() {
  page.shownNotes = page.notes;
  page.notes = [];
  renderNote();
}

// Who did something, in a note: "The AI", or "The AI (O)" when it plays several sides or
// people play several; "You", or the side's name when people share the keyboard.
function actor(position, side) {
  const people = humans(position);
  if (people.includes(side)) return people.length === 1 ? "You" : capital(sideName(side, position));
  const several = (position.players || 2) > 2 || people.length !== 1;
  return several ? `The AI (${sideName(side, position)})` : "The AI";
}

function capital(text) {
  return `${text[0].toUpperCase()}${text.slice(1)}`;
}

// A person's roll, drawn by the server.
async function rollDice() {
  const position = page.position;
  if (!position || !position.chance || page.preview) return;
  $("roll").hidden = true;
  try {
    const reply = await get("/api/move", { ...where(position.moves), opponent: page.opponent });
    page.notes.push([`${actor(position, position.to_move)} rolled `, { dice: reply.label || reply.move }, "."]);
    await play(reply.move);
  } catch (error) {
    showError(error, rollDice);
    $("roll").hidden = false;
  }
}

// The position in the URL cannot be shown: keep the board, name what is wrong, and show the
// game up to the move that cannot be played.
async function positionFailed(error, moves, push) {
  const body = error instanceof ApiError ? error.body : {};
  if (error instanceof ApiError && error.status === 400 && body.parameter === "moves") {
    const found = /\(move (\d+) of /.exec(error.message);
    const tokens = splitMoves(moves);
    if (found && Number(found[1]) >= 1 && Number(found[1]) <= tokens.length) {
      const index = Number(found[1]);
      const message = error.message.replace(/ \(move \d+ of .*\)$/, "");
      page.badMove = { index, text: tokens[index - 1], message };
      page.moves = tokens.slice(0, index - 1);
      await load(push);
      return;
    }
  }
  showError(error, () => load(push));
  if (page.position) {
    const again = error instanceof ApiError && error.retryable;
    setStatus(again ? "The board is as it was: try again (Retry)." : "The board is as it was: fix the choice above.", "bad");
    return;
  }
  if (error instanceof ApiError && error.status === 400 && page.spec !== "tictactoe") {
    // nothing to keep: show the default game's board beside the message
    const message = error.message;
    page.spec = "tictactoe";
    page.fen = "";
    page.moves = [];
    showSetup();
    await load(false);
    showError(new Error(`${message}. Showing tic-tac-toe instead.`));
    return;
  }
  setStatus("The position cannot be shown: fix the URL or start a new game.", "bad");
}

async function aiMove(token, position) {
  setStatus(position.chance ? `The AI (${sideName(position.to_move, position)}) rolls the dice…` : `The AI (${sideName(position.to_move, position)}) is thinking…`, "busy");
  let reply;
  try {
    reply = await get("/api/move", { ...where(position.moves), opponent: page.opponent });
  } catch (error) {
    if (token !== page.token) return;
    showError(error, () => aiMove(page.token, position));
    setStatus("The AI could not move: the board is as it was.", "bad");
    $("ai-move").hidden = false;
    return;
  }
  if (token !== page.token) return;
  if (reply.roll) {
    // the AI's roll, said in the note; its move follows
    page.notes.push([`${actor(position, position.to_move)} rolled `, { dice: reply.label || reply.move }, "."]);
    page.moves = [...position.moves, reply.move];
    await load(false);
    return;
  }
  const label = reply.label || reply.move;
  let said = `${actor(position, position.to_move)} played ${label}`;
  if (reply.report) {
    page.aiReports.set(key(position.moves), reply.report);
    const report = reply.report;
    if (isChess(position)) said += ` (${chessScore(report.score)} for it, depth ${report.depth}, ${report.seconds.toFixed(1)} s)`;
    // a proof search cut short knows no value yet ("unknown" bounds): said so, not as a score
    else said += report.score.text === "unknown" ? " (its value not proven yet)" : ` (${report.score.text} for it)`;
  }
  page.notes.push([`${said}${reply.note ? `: ${reply.note}` : ""}.`]);
  page.lastAi = reply.move;
  page.moves = [...position.moves, reply.move];
  await load(false);
}

async function analyse(token) {
  $("analysis-note").textContent = "searching…";
  try {
    const report = await get("/api/analyze", where(page.position.moves));
    if (token !== page.token) return;
    page.report = report;
    page.reports.set(key(page.position.moves), report);
    showAnalysis(report);
    drawCurrent();
    showMoveList();
  } catch (error) {
    if (token !== page.token) return;
    $("analysis-note").textContent = error.message;
    if (error.status === 504) await analyseWithin(token, 2);
    // a game no search reaches the end of (it goes round in circles, or is deeper than Python
    // recurses): what a search with a time limit finds, said as such
    else if (error.status === 400 && /depth or a time limit/.test(error.message)) await analyseWithin(token, 2, "no search reaches the end of this game");
    else if (error instanceof ApiError && error.retryable) showError(error, () => analyse(page.token));
  }
}

// The exact analysis ran past the server's cap: a short time-limited one labels the moves
// instead (heuristic values, or the bounds a game's own solver proved, shown as such).
async function analyseWithin(token, seconds, why = "not solved within the server's cap") {
  try {
    const report = await get("/api/analyze", { ...where(page.position.moves), time: seconds });
    if (token !== page.token) return;
    page.report = report;
    showAnalysis(report);
    $("analysis-note").textContent = `${why}: what a ${seconds} s search found`;
    drawCurrent();
  } catch (error) {
    if (token !== page.token) return;
    $("analysis-note").textContent = error.message;
  }
}

function undo() {
  if (!page.position || page.preview) return;
  const moves = [...page.position.moves];
  if (!moves.length) return;
  page.arrival = false;
  // back to before the last move a person made (rolls and the AI's moves go with it); who
  // made each move is the server's to say (movers)
  const people = humans(page.position);
  let index = moves.length - 1;
  while (index > 0 && !people.includes(moverOf(page.position, index))) index--;
  page.moves = moves.slice(0, Math.max(0, index));
  page.lastAi = null;
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
  $("eval-bar").hidden = true;
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
  if (chess) {
    const within = report.complete ? "" : ` within ${report.seconds.toFixed(1)} s`;
    $("analysis-note").textContent = `${colourName(report.to_move)} to move: ${chessScore(report.score)} (${report.exact ? "exact" : `pawns, depth ${report.depth}${within}`})`;
    showEvalBar(report);
    showLines(report);
  } else {
    const side = sideName(report.to_move);
    // more than two players: every player's value after the mover's
    const values = report.score.values && report.score.values.length > 2 ? ` (${report.score.values.map((value, index) => `${sideName(ORDINALS[index])} ${Number(value.toPrecision(4))}`).join(", ")})` : "";
    // a game's own solver stopped at the server's cap: what it proved, said as such
    const cut = !report.complete && report.algorithm === "solver" ? ` (not solved within ${report.seconds.toFixed(1)} s: the values and bounds proven so far)` : "";
    $("analysis-note").textContent = `${capital(side)} to ${report.chance ? "roll" : "move"}: ${report.score.text}${values}${cut}`;
  }
  const figures = $("figures");
  const add = (name, value) => {
    html("dt", {}, figures, name);
    html("dd", { "data-figure": name }, figures, String(value));
  };
  // a game's own solver counts its nodes only, its own searcher (chess) its nodes and depth (as
  // the command line shows them: their other counters read 0, not a count); cut short, what a
  // solver knows are bounds, not heuristic values
  const solver = report.algorithm === "solver";
  add("nodes", report.nodes.toLocaleString("en"));
  if (!solver && report.algorithm !== "searcher") {
    add("cut-offs", report.cutoffs.toLocaleString("en"));
    add("table hits", report.table_hits.toLocaleString("en"));
  }
  if (!solver) add("depth", report.depth);
  add("time", `${(report.seconds * 1000).toFixed(1)} ms`);
  const kind = report.exact ? ", exact" : solver || report.score.kind === "bounds" ? ", bounds" : ", heuristic";
  add("algorithm", report.algorithm + kind + (report.complete ? "" : ", stopped by its time limit"));
}

// Chess: the bar of the evaluation from White's side (a mate fills it), as lichess shows it.
function showEvalBar(report) {
  const score = report.score;
  const white = report.to_move === "first" ? 1 : -1;
  let share;
  if (score.kind === "win") share = white > 0 ? 1 : 0;
  else if (score.kind === "loss") share = white > 0 ? 0 : 1;
  else if (score.kind === "draw") share = 0.5;
  else share = 0.5 + 0.5 * Math.tanh((white * score.value) / 400);
  $("eval-fill").style.height = `${(share * 100).toFixed(1)}%`;
  const shown = score.kind === "heuristic" ? chessScore({ ...score, value: white * score.value }) : chessScore(score);
  $("eval-text").textContent = shown;
  $("eval-bar").title = `the evaluation, White's share of the bar: ${shown}${score.kind === "heuristic" ? " (White's view, in pawns)" : ` for ${colourName(report.to_move)}`}`;
  $("eval-bar").hidden = false;
}

// Chess: the three best moves and their scores (the analysis' line for the best).
function showLines(report) {
  const list = $("lines");
  clear(list);
  const labels = report.labels || {};
  // the engine's own order when it gave its lines (ties among the moves then read as its lines do)
  const own = (report.lines || []).slice(0, (report.lines_labels || []).length)
    .map((found) => report.moves.find((m) => m.move === found.pv[0])).filter(Boolean);
  const ranked = own.length ? own.slice(0, 3) : [...report.moves].sort((a, b) => b.value - a.value).slice(0, 3);
  ranked.forEach((entry, index) => {
    const item = html("li", { class: "line", "data-move": entry.move }, list);
    html("b", { class: `score-text ${entry.kind}` }, item, chessScore(entry));
    // the engine's own line for the move when it gave one (its MultiPV: lines_labels)
    const at = (report.lines || []).findIndex((found) => found.pv[0] === entry.move);
    const line = at >= 0 && at < (report.lines_labels || []).length
      ? chessLine(page.position, report.lines_labels[at])
      : index === 0 && report.pv.length ? chessLine(page.position, report.pv_labels || report.pv) : chessLine(page.position, [labels[entry.move] || entry.move]);
    item.append(` ${line}`);
  });
  list.hidden = !ranked.length;
}

// --- the game's moves, each with what it changed ------------------------------------------------

const RANK = { win: 2, draw: 1, loss: 0 };

// What the move ``index`` of the game did, from its mover's view: the value it kept (its score in
// the analysis of the position it was played in) beside the best there was.
function moveValue(index) {
  const before = page.position.moves.slice(0, index);
  const move = page.position.moves[index];
  const report = page.reports.get(key(before));
  if (report) {
    const entry = report.moves.find((m) => m.move === move);
    if (entry) return { entry, best: report.score, exact: report.exact };
  }
  const ai = page.aiReports.get(key(before));
  if (ai) return { entry: { ...ai.score, move }, best: ai.score, exact: ai.exact };
  return null;
}

function valueText(score) {
  return isChess() ? chessScore(score) : score.text;
}

// A move that made the result worse for its mover (a win or draw thrown away).
function turned(found) {
  if (!found || !found.exact) return false;
  const had = RANK[found.best.kind];
  const kept = RANK[found.entry.kind];
  return had !== undefined && kept !== undefined && kept < had;
}

function showMoveList() {
  const list = $("move-list");
  clear(list);
  const position = page.position;
  if (!position) return;
  const labels = position.labels || position.moves;
  let lastTurn = -1;
  position.moves.forEach((move, index) => {
    const found = moveValue(index);
    if (moverOf(position, index) !== null && turned(found)) lastTurn = index;
  });
  position.moves.forEach((move, index) => {
    const mover = moverOf(position, index);
    const item = html("li", { "data-ply": String(index + 1) }, list);
    const button = html("button", { type: "button", class: "move-item", title: "see the position after this move" }, item);
    html("span", { class: "who" }, button, mover === null ? "dice" : sideName(mover, position));
    html("b", {}, button, ` ${labels[index]}`);
    const found = moveValue(index);
    if (found && mover === null) {
      // a roll: nobody chose it, so it has no best to be measured against
      html("span", { class: `delta score-text ${found.entry.kind}` }, button, ` ${valueText(found.entry)}`);
    } else if (found) {
      const same = found.entry.value === found.best.value;
      const span = html("span", { class: `delta score-text ${found.entry.kind}` }, button, ` ${valueText(found.entry)}`);
      if (!same) span.append(html("small", {}, null, ` (best: ${valueText(found.best)})`));
      if (turned(found)) {
        item.classList.add("mistake");
        if (index === lastTurn && position.over) item.classList.add("turning");
        const turning = index === lastTurn && position.over;
        span.append(html("small", {}, null, turning ? " ✗ turned the game" : " ✗ a mistake"));
      }
    } else {
      html("span", { class: "delta muted" }, button, " ·");
    }
    button.addEventListener("click", () => viewMove(index + 1));
  });
  const people = humans(position);
  if (position.over && lastTurn >= 0 && people.length === 1) {
    const found = moveValue(lastTurn);
    const who = people.includes(moverOf(position, lastTurn)) ? "your" : "the AI's";
    renderNote(`The game turned on ${who} move ${lastTurn + 1} (${labels[lastTurn]}): it gave ${valueText(found.entry)} where ${valueText(found.best)} was possible.`);
  }
}

// Fills in, one position at a time, the analyses the move list still lacks (games that are
// quick to analyse; a game that thinks for its time a move, chess or Hex from 5 x 5, keeps the
// values its own searches gave: a review would search every position of the game again).
async function review(token) {
  if (!page.position || isChess() || page.position.move_time) return;
  for (let index = 0; index < page.position.moves.length; index++) {
    if (token !== page.token) return;
    const before = page.position.moves.slice(0, index);
    if (page.reports.has(key(before))) continue;
    try {
      const report = await get("/api/analyze", { ...where(before), timeout: 3 });
      if (token !== page.token) return;
      page.reports.set(key(before), report);
      showMoveList();
    } catch {
      return; // too slow or the server is gone: the list keeps its dots
    }
  }
}

// --- lines on the board, step by step: the principal variation or the game's moves -------------

async function showPreview() {
  const { line, labels, step, base, what } = page.preview;
  $("preview").hidden = false;
  $("preview-what").textContent = what;
  $("pv-step").textContent = String(step);
  $("pv-length").textContent = String(line.length);
  try {
    const position = await get("/api/position", where([...base, ...line.slice(0, step)]));
    drawBoard($("board"), position, { scores: null, hint: false, onMove: null, flipped: flipped(), last: step ? line[step - 1] : null });
    setStatus(step ? `After ${labels.slice(0, step).join(" ")}` : base.length ? "The game position" : "The start", "busy");
  } catch (error) {
    showError(error, showPreview);
  }
}

function stepPreview(step) {
  if (!page.preview) {
    if (!page.report || !page.report.pv.length) return;
    page.preview = { line: page.report.pv, labels: page.report.pv_labels || page.report.pv, step: 0, base: page.position.moves, what: "Principal variation" };
  }
  page.preview.step = Math.max(0, Math.min(page.preview.line.length, step));
  showPreview();
}

function viewMove(ply) {
  if (!page.position) return;
  page.preview = { line: page.position.moves, labels: page.position.labels || page.position.moves, step: ply, base: [], what: "The game's moves" };
  showPreview();
}

function closePreview() {
  page.preview = null;
  $("preview").hidden = true;
  drawCurrent();
  if (page.position) setStatus(...statusOf(page.position));
}

// The status line of the game's position: its end, whose turn it is.
function statusOf(position) {
  if (position.over) {
    const people = humans(position);
    const kind = position.winner === null ? "draw" : people.length !== 1 || people.includes(position.winner) ? "win" : "loss";
    return [gameOverText(position), kind];
  }
  if (aiToMove(position)) {
    return page.arrival ? [`It is the AI's turn (${sideName(position.to_move, position)}): press "Let the AI move".`, "turn"] : [`The AI (${sideName(position.to_move, position)}) is thinking…`, "busy"];
  }
  const check = isChess(position) && position.board.check ? " (check)" : "";
  const side = sideLong(position.to_move, position);
  const act = position.chance ? "roll" : "move";
  const mover = humans(position).length > 1 ? `${side[0].toUpperCase()}${side.slice(1)} to ${act}` : position.chance ? `Your roll, ${sideName(position.to_move, position)}` : `Your move, ${sideName(position.to_move, position)}`;
  return [`${mover}${check}`, "turn"];
}

// --- the tree and parallel views ------------------------------------------------------------

function viewedMoves() {
  const line = page.preview ? page.preview.line.slice(0, page.preview.step) : [];
  const base = page.preview ? page.preview.base : page.position ? page.position.moves : [];
  return where([...base, ...line]);
}

// --- wiring ---------------------------------------------------------------------------------

function wireSetup() {
  $("game").addEventListener("change", () => {
    drawParams();
  });
  $("opponent-kind").addEventListener("change", () => {
    const kind = $("opponent-kind").value;
    $("opponent-arg").hidden = !["depth", "time", "mcts", "pns"].includes(kind);
    $("opponent-arg").value = kind === "depth" ? "3" : "1";
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
    page.arrival = false;
    page.lastAi = null;
    page.notes = [];
    page.reports.clear();
    page.aiReports.clear();
    $("preview").hidden = true;
    load(true);
  });
  window.addEventListener("popstate", () => {
    readUrl();
    page.moves = null;
    page.arrival = true;
    page.notes = [];
    page.preview = null;
    $("preview").hidden = true;
    showSetup();
    load(false);
  });
}

function wirePlay() {
  $("roll").addEventListener("click", rollDice);
  $("undo").addEventListener("click", undo);
  $("ai-move").addEventListener("click", () => {
    page.arrival = false;
    $("ai-move").hidden = true;
    hideError();
    if (page.position && !page.position.over && aiToMove(page.position)) aiMove(page.token, page.position);
  });
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
  const tree = new TreeView({ where: viewedMoves, game: () => page.spec, showError });
  tree.wire();
  $("parallel-form").addEventListener("submit", (event) => {
    event.preventDefault();
    showParallel(viewedMoves(), { chess: isChess(), showError });
  });
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
    showError(error, () => window.location.reload());
    setStatus("The page cannot start without the server.", "bad");
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
