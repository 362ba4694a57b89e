// The page: a new game, the sheets, the turn, AI seats step by step, the
// advisor and coach, undo, history, the result; and the analysis view. All
// game logic is the engine's (engine.js): the page only shows its state and
// sends the player's decisions.
import { connectEngine, describeError } from './engine.js';
import { renderSheet, markingCells } from './sheet.js';
import { dieElement, canonicalDice, normaliseDice } from './dice.js';
import { setupAnalysis } from './analysis.js';
import { saveGame, loadGame, clearGame } from './store.js';

const $ = (id) => document.getElementById(id);
const engine = connectEngine();

const app = {
  hello: null,
  seats: ['human', 'expert'],
  state: null,         // the engine's state of the game shown
  keep: [],            // indices of the dice clicked to keep
  selection: new Set(),// cells "v:k" clicked to circle
  hints: null,         // the advisor's answer for the position shown
  flagged: [],         // coach: decisions that lost more than the threshold
  coachNote: null,     // the coach's word on the last decision: {text, player, turns}
  busy: false,
  aiTimer: null,
  entry: '',           // physical dice typed or clicked so far
};
// For tests and curious players: the state the page shows, and the engine
// (a test closes its socket to see the page reconnect).
window.penk = app;
app.engine = engine;

export function showError(err) {
  $('error-text').textContent = describeError(err);
  $('error').hidden = false;
}
$('error-close').onclick = () => { $('error').hidden = true; };

function hideError() {
  $('error').hidden = true;
}

// ---- a lost connection ----

// The engine's session, and its games, end with the socket: the page
// connects again, waiting longer after each failure (0.5 s doubling up to
// 8 s), and restores the saved game in the new session.
const reconnect = { timer: null, delay: 500 };

engine.onclose = (why) => {
  stopAi();
  $('connection').textContent = 'disconnected — reconnecting…';
  $('connection').classList.add('bad');
  showError(new Error(`${why}; reconnecting…`));
  scheduleReconnect();
};

function scheduleReconnect() {
  if (reconnect.timer) return;
  reconnect.timer = setTimeout(async () => {
    reconnect.timer = null;
    try {
      await engine.reopen();
    } catch {
      reconnect.delay = Math.min(2 * reconnect.delay, 8000);
      scheduleReconnect();  // the socket's close may have come first
      return;
    }
    reconnect.delay = 500;
    if (!app.hello) {  // the first connection never came up: start afresh
      await start();
      return;
    }
    showConnected();
    hideError();
    if (app.state && app.state.phase !== 'over') await guard(restoreSaved);
  }, reconnect.delay);
}

// ---- new game ----

// The ladder's strength (hello's level_info: Elo against greedy = 0, from
// paired matches, docs/AI.md) beside the description, so a player can pick
// easy, medium or hard knowing how strong each is.
function levelLabel(info) {
  const elo = typeof info.elo === 'number'
    ? ` (Elo ${info.elo > 0 ? '+' : ''}${info.elo})` : '';
  return info.name + elo + (info.description ? ` — ${info.description}` : '');
}

function renderSeats() {
  const box = $('seats');
  box.replaceChildren();
  app.seats.forEach((seat, i) => {
    const label = document.createElement('label');
    label.className = 'seat';
    label.textContent = `Seat ${i + 1} `;
    const select = document.createElement('select');
    select.id = `seat-${i}`;
    const options = [{ name: 'human', description: 'a player at this screen' }]
      .concat(app.hello ? app.hello.level_info : []);
    for (const info of options) {
      const o = document.createElement('option');
      o.value = info.name;
      o.textContent = levelLabel(info);
      select.appendChild(o);
    }
    select.value = seat;
    select.onchange = () => { app.seats[i] = select.value; };
    label.appendChild(select);
    box.appendChild(label);
  });
  $('add-seat').disabled = app.seats.length >= 4;
  $('remove-seat').disabled = app.seats.length <= 1;
}
$('add-seat').onclick = () => { if (app.seats.length < 4) app.seats.push('greedy'); renderSeats(); };
$('remove-seat').onclick = () => { if (app.seats.length > 1) app.seats.pop(); renderSeats(); };

function rulesText() {
  const parts = [];
  const lineMin = $('line-min').value;
  const lines = $('penk-lines').value;
  if (lineMin) parts.push(`line-min=${lineMin}`);
  if (lines) parts.push(`penk-lines=${lines}`);
  return parts.join(',');
}

$('new-game').onclick = () => guard(async () => {
  const fields = { players: app.seats, rules: rulesText(), dice: $('dice-source').value };
  const seed = $('seed').value.trim();
  if (seed !== '') {
    if (!/^\d+$/.test(seed)) throw new Error(`seed "${seed}" is not a whole number >= 0`);
    fields.seed = seed;  // as digits: seeds from 2^53 on stay exact (PROTOCOL.md)
  }
  if (app.state) await engine.request('close_game', { game: app.state.game }).catch(() => {});
  app.flagged = [];
  app.coachNote = null;
  const state = await engine.request('new_game', fields);
  showPlay();
  show(state);
});

function showPlay() {
  $('setup').hidden = true;
  $('play').hidden = false;
}

$('leave').onclick = () => {
  stopAi();
  $('seed').value = nextSeed();
  $('setup').hidden = false;
  $('play').hidden = true;
};

$('same-seed').onchange = () => { if ($('same-seed').checked) $('seed').value = nextSeed(); };

// A new game is a new deal unless the player asks for the same one again
// (to replay it, or to play the dice a friend had).
function nextSeed() {
  if (!$('same-seed').checked || !app.state) return '';
  return String(app.state.seed);
}

// ---- the game kept in the browser (store.js) ----

// The page's own settings, saved with the game and put back with it.
const SETTINGS = { checked: ['pause', 'advisor-on', 'coach-on'], value: ['speed', 'coach-threshold'] };

function settings() {
  const out = {};
  for (const id of SETTINGS.checked) out[id] = $(id).checked;
  for (const id of SETTINGS.value) out[id] = $(id).value;
  return out;
}

function applySettings(saved) {
  for (const id of SETTINGS.checked) if (id in saved) $(id).checked = saved[id];
  for (const id of SETTINGS.value) if (id in saved) $(id).value = saved[id];
}

// After every step: the engine's record of the game, saved; a finished game
// is not kept. Replies come in order (protocol 2), so the last saved is the
// last step's.
function keepGame(state) {
  if (state.phase === 'over') {
    clearGame();
    return;
  }
  app.saving = engine.request('export', { game: state.game }).then(({ record }) => {
    if (app.state === state)
      saveGame({ record, undo_steps: state.undo_steps, settings: settings(), flagged: app.flagged });
  }).catch(() => {});  // a lost connection: the last record saved stays
}

// A setting changed between steps is kept too.
for (const id of [...SETTINGS.checked, ...SETTINGS.value]) {
  $(id).addEventListener('change', () => {
    const saved = loadGame();
    if (saved && app.state && app.state.phase !== 'over') saveGame({ ...saved, settings: settings() });
  });
}

// The saved game, made again in this session: same dice, phase and undo.
async function restoreSaved() {
  const saved = loadGame();
  if (!saved) return false;
  const state = await engine.request('new_game', { record: saved.record });
  applySettings(saved.settings || {});
  app.flagged = saved.flagged || [];
  app.seats = saved.record.players.slice();  // the set-up offers the same seats next
  renderSeats();
  showPlay();
  show(state);
  return true;
}

// ---- showing a state ----

const isHuman = (state, p) => state.players[p].seat === 'human';
const names = (state) => state.players.map((p, i) => `P${i + 1} ${p.seat}`);

function show(state) {
  app.state = state;
  app.keep = [];
  app.selection = new Set();
  app.hints = null;
  // A step done: an earlier refusal or lost connection is no longer true.
  hideError();
  forgetStaleCoachNote(state);
  keepGame(state);
  renderBoard();
  renderTurn();
  renderHistory();
  renderResult();
  refreshAdvice();
  scheduleAi();
}

function legalCells(state) {
  const cells = new Set();
  if (state.phase !== 'mark') return cells;
  for (const a of state.legal_actions) for (const c of markingCells(a)) cells.add(c);
  return cells;
}

function renderBoard() {
  const s = app.state;
  const box = $('sheets');
  box.replaceChildren();
  const banner = $('banner');
  banner.hidden = !s.last_round || s.phase === 'over';
  banner.textContent = 'Last round: the game ends when this round is over (R5.2)';
  const humanMarking = s.current !== null && s.phase === 'mark' && isHuman(s, s.current);
  s.players.forEach((p, i) => {
    const card = document.createElement('div');
    card.className = 'player' + (i === s.current ? ' current' : '');
    card.id = `player-${i}`;
    const title = document.createElement('h3');
    const won = s.winners && s.winners.includes(i);
    title.textContent = `P${i + 1} ${p.seat}` + (i === s.current ? ' — to move' : '') + (won ? ' — winner' : '');
    card.appendChild(title);
    const mine = humanMarking && i === s.current;
    card.appendChild(renderSheet(p, {
      names: names(s),
      highlight: mine ? legalCells(s) : null,
      selected: mine ? app.selection : null,
      onCell: mine ? clickCell : null,
    }));
    box.appendChild(card);
  });
}

function renderTurn() {
  const s = app.state;
  const over = s.phase === 'over';
  $('turn').hidden = false;
  const mover = over ? null : s.players[s.current];
  const human = !over && mover.seat === 'human';
  $('turn-title').textContent = over ? 'Game over'
    : `Round ${s.round}: P${s.current + 1} ${mover.seat}` + (s.phase === 'roll' ? ' — roll the dice' : '');
  // dice
  const dice = $('dice');
  dice.replaceChildren();
  if (s.dice) {
    s.dice.split('').forEach((face, i) => {
      const kept = app.keep.includes(i);
      const onClick = human && s.phase === 'keep' ? () => toggleKeep(i) : null;
      dice.appendChild(dieElement(face, { kept, onClick }));
    });
  }
  $('rerolls').textContent = s.phase === 'keep' ? `Rerolls left: ${s.rerolls_left}` + (human ? ' — click dice to keep them' : '') : '';
  $('keep-buttons').hidden = !(human && s.phase === 'keep');
  $('reroll').textContent = app.keep.length ? 'Reroll the others' : 'Reroll all';
  // physical dice: every seat's dice are rolled at the table
  $('dice-entry').hidden = s.phase !== 'roll';
  if (s.phase === 'roll') renderDiceEntry();
  // marking
  $('mark-panel').hidden = !(human && s.phase === 'mark');
  if (human && s.phase === 'mark') renderMarkPanel();
  renderCoachNote();
  $('ai-note').textContent = !over && !human && s.phase !== 'roll' ? `${mover.seat} is thinking…` : '';
  $('undo').disabled = !s.undo_steps;
}

function toggleKeep(i) {
  const at = app.keep.indexOf(i);
  if (at >= 0) app.keep.splice(at, 1); else app.keep.push(i);
  renderTurn();
  renderAdvice();
}

function keptText() {
  const dice = app.state.dice;
  return app.keep.length ? canonicalDice(app.keep.map((i) => dice[i]).join('')) : '-';
}

$('reroll').onclick = () => decide(keptText());
$('stop').onclick = () => decide('stop');

function selectionText() {
  return [...app.selection].map((c) => c.split(':').map(Number))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([v, k]) => `${v}:${k}`).join('+');
}

function clickCell(v, k) {
  const key = `${v}:${k}`;
  if (!legalCells(app.state).has(key)) {
    showError(new Error(`cell ${key} cannot be circled with these dice (R3.2-R3.3)`));
    return;
  }
  if (app.selection.has(key)) app.selection.delete(key); else app.selection.add(key);
  renderBoard();
  renderMarkPanel();
}

function renderMarkPanel() {
  const s = app.state;
  const text = selectionText();
  const legal = s.legal_actions.includes(text);
  $('selection').textContent = text ? `Circle ${text}` + (legal ? '' : ' (not a legal marking yet)') : 'Click cells to circle, or choose below';
  $('mark').disabled = !legal;
  const failures = s.legal_actions.filter((a) => a.startsWith('fail:'));
  const list = $('legal');
  list.replaceChildren();
  for (const a of s.legal_actions.filter((x) => !x.startsWith('fail:'))) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = a;
    b.dataset.action = a;
    b.onclick = () => decide(a);
    list.appendChild(b);
  }
  $('legal-details').hidden = failures.length > 0;
  const fail = $('failure');
  fail.replaceChildren();
  if (failures.length) {
    const p = document.createElement('span');
    p.textContent = 'No group can be formed: cross a column (R3.5) ';
    fail.appendChild(p);
    for (const a of failures) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `column ${a.slice(5)}`;
      b.dataset.action = a;
      b.onclick = () => decide(a);
      fail.appendChild(b);
    }
  }
}
$('mark').onclick = () => decide(selectionText());

// ---- physical dice ----

function renderDiceEntry() {
  const kept = app.state.kept && app.state.kept !== '-' ? app.state.kept : '';
  if (!app.entry.startsWith(kept) && kept) app.entry = kept;
  $('dice-input').value = app.entry;
  $('dice-kept').textContent = kept ? `Kept dice that must be among them: ${kept}` : 'Type the six dice on the table (J, j, ! or 6 for the jolly) or click the faces.';
  const faces = $('face-buttons');
  faces.replaceChildren();
  for (const f of ['1', '2', '3', '4', '5', 'J']) {
    faces.appendChild(dieElement(f, { onClick: () => {
      app.entry = normaliseDice($('dice-input').value);
      if (app.entry.length < 6) app.entry += f;
      $('dice-input').value = app.entry;
    } }));
  }
}
$('dice-input').oninput = () => { app.entry = normaliseDice($('dice-input').value); };
$('dice-input').onkeydown = (e) => { if (e.key === 'Enter') $('dice-submit').click(); };
$('dice-clear').onclick = () => { app.entry = ''; $('dice-input').value = ''; };
$('dice-submit').onclick = () => guard(async () => {
  const dice = normaliseDice($('dice-input').value);
  const state = await engine.request('roll', { game: app.state.game, dice });
  app.entry = '';
  show(state);
});

// ---- decisions ----

// Every engine call goes through here: errors are shown in words and the
// page stays usable.
async function guard(fn) {
  if (app.busy) return;
  app.busy = true;
  document.body.classList.add('busy');
  try {
    await fn();
  } catch (err) {
    showError(err);
  } finally {
    app.busy = false;
    document.body.classList.remove('busy');
  }
}

function decide(action) {
  return guard(async () => {
    const s = app.state;
    // The coach's failure (e.g. a table missing under --no-build) is shown
    // but never stops the player's decision.
    app.coachNote = null;
    if ($('coach-on').checked) await coach(s, action).catch((err) => noteCoach(s, `Coach unavailable: ${describeError(err)}`));
    show(await engine.request('apply', { game: s.game, action }));
  });
}

// ---- AI seats ----

function stopAi() {
  clearTimeout(app.aiTimer);
  app.aiTimer = null;
}

function scheduleAi() {
  stopAi();
  const s = app.state;
  if (!s || s.phase === 'over' || s.phase === 'roll' || isHuman(s, s.current) || $('pause').checked) return;
  app.aiTimer = setTimeout(() => guard(async () => {
    if (app.state !== s) return;
    const r = await engine.request('best_action', { game: s.game, apply: true });
    const verb = s.phase === 'keep' ? (r.action.length === 6 || r.action === 'stop' ? 'stops'
                                       : r.action === '-' ? 'rerolls all' : `keeps ${r.action}`)
               : r.action.startsWith('fail:') ? `fails and crosses column ${r.action.slice(5)}`
               : `circles ${r.action}`;
    const line = `P${r.player + 1} ${r.level} ${verb}`;
    show(r.state);
    $('ai-note').textContent = line;
  }), Number($('speed').value));
}
$('pause').onchange = () => scheduleAi();

// ---- undo ----

// Back to the last decision of a human seat (an AI's moves would only be
// played again), or one step when every seat is an AI.
$('undo').onclick = () => guard(async () => {
  stopAi();
  let s = await engine.request('undo', { game: app.state.game });
  while (s.undo_steps > 0 && s.current !== null && !isHuman(s, s.current) && s.players.some((p) => p.seat === 'human'))
    s = await engine.request('undo', { game: s.game });
  app.flagged = app.flagged.filter((f) => f.undo < s.undo_steps);
  app.coachNote = null;  // its decision is taken back
  show(s);
});

// ---- advisor and coach ----

$('advisor-on').onchange = () => refreshAdvice();

async function fetchHints(s) {
  if (app.hints && app.hints.for === s) return app.hints.result;
  const result = await engine.request('hint', { game: s.game });
  app.hints = { for: s, result };
  return result;
}

function refreshAdvice() {
  const s = app.state;
  const on = $('advisor-on').checked && s && s.phase !== 'over' && s.phase !== 'roll' && isHuman(s, s.current);
  $('advisor').hidden = !on;
  if (!on) return;
  $('advisor-table').replaceChildren();
  fetchHints(s).then(() => { if (app.state === s) renderAdvice(); }).catch(showError);
}

// The advisor lists the best few options; every one on asking (a marking
// can have dozens, R8 E2b).
const FEW_OPTIONS = 12;
$('advisor-more').onclick = () => {
  app.showAllOptions = !app.showAllOptions;
  renderAdvice();
};

function renderAdvice() {
  if (!app.hints || app.hints.for !== app.state || $('advisor').hidden) return;
  const { actions } = app.hints.result;
  const table = $('advisor-table');
  table.replaceChildren();
  const withWin = actions.length && actions[0].win !== undefined;
  const head = table.insertRow();
  // With opponents: the win chance, the expected final score in this game,
  // and the solitaire figure under its own name; '=' marks a tie with the
  // row above (the same shown win and score), the order the header says.
  const columns = withWin ? ['#', 'option', 'win chance', 'score in this game', 'solitaire value']
                          : ['#', 'option', 'expected score'];
  for (const h of columns) {
    const th = document.createElement('th');
    th.textContent = h;
    head.appendChild(th);
  }
  const current = app.state.phase === 'keep' ? (app.keep.length === 6 ? app.state.dice : keptText()) : selectionText();
  const shown = app.showAllOptions ? actions : actions.slice(0, FEW_OPTIONS);
  shown.forEach((a, i) => {
    const tr = table.insertRow();
    tr.className = (i === 0 ? 'best' : '') + (a.action === current ? ' chosen' : '');
    tr.dataset.action = a.action;
    tr.insertCell().textContent = withWin && a.tied ? '=' : i + 1;
    tr.insertCell().textContent = actionWords(a.action, app.state);
    if (withWin) {
      tr.insertCell().textContent = `${(100 * a.win).toFixed(2)}%`;
      tr.insertCell().textContent = a.score !== undefined ? a.score.toFixed(2) : '-';
    }
    tr.insertCell().textContent = a.value.toFixed(2);
  });
  const more = $('advisor-more');
  more.hidden = actions.length <= FEW_OPTIONS;
  more.textContent = app.showAllOptions ? `show the best ${FEW_OPTIONS}` : `show all ${actions.length}`;
  $('advisor-note').textContent = withWin
    ? `Ranked by win chance, then score in this game, then solitaire value; "=" ties with the row above. Win: ${
        app.hints.result.estimate === 'exact' ? 'exact (last round)' : app.hints.result.estimate === 'neural' ? 'the neural net' : 'expert\'s calibrated estimate'}.`
    : 'Expected final score under solitaire-optimal play.';
}

export function actionWords(action, state) {
  if (action.startsWith('fail:')) return `cross column ${action.slice(5)}`;
  if (state && state.phase === 'keep') {
    if (action === '-') return 'reroll all';
    if (action.length === 6) return 'stop';
    return `keep ${action}`;
  }
  return action;
}

// The coach compares the decision with the advisor's best: by the win chance
// with opponents (in points of percentage), else by the expected score.
async function coach(s, action) {
  if (s.phase !== 'keep' && s.phase !== 'mark') return;
  const { actions } = await fetchHints(s);
  if (!actions.length) return;
  const canonical = action === 'stop' ? s.dice : action;
  const chosen = actions.find((a) => a.action === canonical);
  if (!chosen) return;
  const best = actions[0];
  const byWin = best.win !== undefined;
  const loss = byWin ? 100 * (best.win - chosen.win) : best.value - chosen.value;
  const threshold = Number($('coach-threshold').value) || 0;
  if (loss > threshold) {
    app.flagged.push({ round: s.round, player: s.current, dice: s.dice, action: actionWords(canonical, s),
                       best: actionWords(best.action, s), loss, byWin, undo: s.undo_steps });
    noteCoach(s, `Coach: ${actionWords(canonical, s)} loses ${loss.toFixed(2)} ${byWin ? 'points of win chance' : 'points'} against ${actionWords(best.action, s)}`);
  }
}

// The coach speaks of the decision just made in the position s.
function noteCoach(s, text) {
  app.coachNote = { text, player: s.current, turns: s.players[s.current].turns };
}

// The note judges one turn's decision: it stays while that turn and the
// other seats' turns after it are played, and goes when the same player's
// next turn begins (or the game ends: the result lists every flag).
function forgetStaleCoachNote(state) {
  const note = app.coachNote;
  if (!note) return;
  const later = state.current === note.player && state.players[note.player].turns > note.turns;
  if (state.phase === 'over' || later) app.coachNote = null;
}

function renderCoachNote() {
  $('coach-note').hidden = !app.coachNote;
  $('coach-note').textContent = app.coachNote ? app.coachNote.text : '';
}

// ---- history and result ----

function renderHistory() {
  const ol = $('history');
  ol.replaceChildren();
  for (const t of app.state.history) {
    const li = document.createElement('li');
    const who = `P${t.player + 1}`;
    if (t.passed) {
      li.textContent = `${who} passes (no free cell, R3.6)`;
    } else {
      const steps = t.rolls.map((r, i) => r + (t.keeps[i] !== undefined ? ` keep ${t.keeps[i]}` : '')).join(' → ');
      let end = '';
      if (t.marking) end = ` → circles ${t.marking}`;
      else if (t.failure !== undefined) end = ` → fails, crosses column ${t.failure}`;
      const penk = (t.penk_rows || []).map((r) => `row ${r}`).concat((t.penk_columns || []).map((c) => `column ${c}`));
      li.textContent = `${who}: ${steps}${t.stopped ? ' (stop)' : ''}${end}${penk.length ? ` — PENK on ${penk.join(', ')}` : ''}${t.last_round_started ? ' — last round begins' : ''}`;
    }
    ol.appendChild(li);
  }
}

function renderResult() {
  const s = app.state;
  $('result').hidden = s.phase !== 'over';
  if (s.phase !== 'over') return;
  const table = document.createElement('table');
  table.className = 'ranking';
  table.id = 'result-table';
  const head = table.insertRow();
  for (const h of ['player', 'rows 1/2/3/5/8', 'columns 1-5', 'score']) {
    const th = document.createElement('th');
    th.textContent = h;
    head.appendChild(th);
  }
  s.players.forEach((p, i) => {
    const tr = table.insertRow();
    if (s.winners.includes(i)) tr.className = 'best';
    tr.insertCell().textContent = `P${i + 1} ${p.seat}` + (s.winners.includes(i) ? ' (winner)' : '');
    tr.insertCell().textContent = p.row_scores.join(' + ');
    tr.insertCell().textContent = p.column_scores.join(' + ');
    tr.insertCell().textContent = p.score;
  });
  $('result-body').replaceChildren(table);
  const report = $('coach-report');
  report.replaceChildren();
  if ($('coach-on').checked) {
    const h = document.createElement('h3');
    h.textContent = app.flagged.length ? 'Decisions the coach flagged' : 'The coach flagged no decision';
    report.appendChild(h);
    const ul = document.createElement('ul');
    for (const f of app.flagged) {
      const li = document.createElement('li');
      li.textContent = `round ${f.round}, dice ${f.dice}: ${f.action} instead of ${f.best} (-${f.loss.toFixed(2)} ${f.byWin ? '% win chance' : 'points'})`;
      ul.appendChild(li);
    }
    report.appendChild(ul);
  }
}

// ---- the other players' sheets ----

// Hidden on asking, so that a phone shows the mover's sheet and the turn.
function setOthersHidden(hidden) {
  document.body.classList.toggle('others-hidden', hidden);
  $('others-toggle').textContent = hidden ? 'Show the other sheets' : 'Hide the other sheets';
}
$('others-toggle').onclick = () => setOthersHidden(!document.body.classList.contains('others-hidden'));

// On a phone the list of legal markings starts folded: cells are clicked
// on the sheet, and the list would push the advisor off the screen.
if (matchMedia('(max-width: 520px)').matches) $('legal-details').open = false;

// ---- tabs and start ----

function tab(name) {
  hideError();  // a message of the other view is not about this one
  $('view-game').hidden = name !== 'game';
  $('view-analysis').hidden = name !== 'analysis';
  $('tab-game').classList.toggle('active', name === 'game');
  $('tab-analysis').classList.toggle('active', name === 'analysis');
}
$('tab-game').onclick = () => tab('game');
$('tab-analysis').onclick = () => tab('analysis');

function showConnected() {
  $('connection').textContent = `engine ${app.hello.name} ${app.hello.version}`;
  $('connection').classList.remove('bad');
}

// Work the engine reports while it runs (the static site's engine builds a
// table on first use, several seconds): shown in place of the engine's name.
engine.onprogress = (p) => {
  if (!p) {
    if (app.hello) showConnected();
    return;
  }
  const share = p.total > 0 ? ` ${Math.floor((100 * p.done) / p.total)}%` : '';
  $('connection').textContent = `${p.what}${share}…`;
};
engine.onwarning = (text) => showError(new Error(text));

async function start() {
  try {
    app.hello = await engine.request('hello');
    showConnected();
    hideError();  // a failed first attempt, if this is a reconnection
    const v = app.hello.rules.variants;
    for (const n of v['line-min']) $('line-min').add(new Option(n, n === 3 ? '' : n, n === 3, n === 3));
    for (const n of v['penk-lines']) $('penk-lines').add(new Option(n === 'all' ? 'rows and columns' : 'columns only', n === 'all' ? '' : n));
    renderSeats();
    setupAnalysis(engine, showError);
    // A saved game the engine refuses (another version of penk) is dropped.
    await restoreSaved().catch((err) => { clearGame(); showError(err); });
    document.body.dataset.ready = '1';
  } catch (err) {
    showError(err);
  }
}
start();
