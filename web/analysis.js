// The analysis view: any sheet, roll, rerolls left and opponents' sheets, and
// the advisor's ranked options (the stateless `hint`); the opening table ranks
// every one of the 462 rolls of the sheet (docs/OPENING_BOOK.md).
import { renderSheet, parseSheet, sheetText, EMPTY_SHEET } from './sheet.js';
import { normaliseDice } from './dice.js';

const $ = (id) => document.getElementById(id);
const CYCLE = { '.': 'o', o: 'x', x: '.' };

// Every roll of six dice, canonical (R7.1): 462 of them.
function allRolls() {
  const faces = '12345J';
  const out = [];
  const walk = (start, prefix) => {
    if (prefix.length === 6) { out.push(prefix); return; }
    for (let i = start; i < 6; i++) walk(i, prefix + faces[i]);
  };
  walk(0, '');
  return out;
}

export function setupAnalysis(engine, showError) {
  const view = { sheet: EMPTY_SHEET, opponents: [], running: 0 };

  function sheetEditor(box, get, set, label) {
    const draw = () => {
      box.replaceChildren();
      if (label) {
        const h = document.createElement('h3');
        h.textContent = label;
        box.appendChild(h);
      }
      box.appendChild(renderSheet({ sheet: get() }, {
        onCell: (v, k) => {
          const rows = parseSheet(get());
          rows[k - 1][v - 1] = CYCLE[rows[k - 1][v - 1]];
          set(sheetText(rows));
          draw();
        },
      }));
    };
    draw();
    return draw;
  }

  const drawMain = sheetEditor($('an-sheet'), () => view.sheet, (t) => { view.sheet = t; $('an-sheet-text').value = t; });
  $('an-sheet-text').value = view.sheet;
  $('an-sheet-text').onchange = () => {
    const t = $('an-sheet-text').value.trim();
    if (t === '') return;  // being retyped
    if (!/^[.ox]{5}(\/[.ox]{5}){4}$/.test(t)) {
      showError(new Error(`sheet "${t}" is not five rows of five . o x separated by / (R7.3)`));
      return;
    }
    view.sheet = t;
    drawMain();
  };
  $('an-empty').onclick = () => { view.sheet = EMPTY_SHEET; $('an-sheet-text').value = EMPTY_SHEET; drawMain(); };

  function drawOpponents() {
    const box = $('an-opponents');
    box.replaceChildren();
    view.opponents.forEach((_, i) => {
      const div = document.createElement('div');
      div.className = 'opponent';
      box.appendChild(div);
      sheetEditor(div, () => view.opponents[i], (t) => { view.opponents[i] = t; }, `Opponent ${i + 1}`);
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.onclick = () => { view.opponents.splice(i, 1); drawOpponents(); };
      div.appendChild(remove);
    });
    $('an-add-opponent').disabled = view.opponents.length >= 3;
    drawSeats();
  }

  // The mover's seat among 1 + opponents players (the hint's `seat`).
  function drawSeats() {
    const select = $('an-seat');
    const was = Number(select.value) || 1;
    select.replaceChildren();
    for (let n = 1; n <= view.opponents.length + 1; n++) select.add(new Option(n, n, false, n === was));
    $('an-game-fields').hidden = view.opponents.length === 0;
  }
  $('an-add-opponent').onclick = () => { view.opponents.push(EMPTY_SHEET); drawOpponents(); };
  drawOpponents();

  function fields() {
    const f = { sheet: view.sheet, rerolls: Number($('an-rerolls').value) };
    const rules = $('an-rules').value.trim();
    if (rules) f.rules = rules;
    if (view.opponents.length) {
      f.opponents = view.opponents;
      f.last_round = $('an-last-round').checked;
      f.seat = Number($('an-seat').value) || 1;
      const turns = $('an-turns').value.trim();
      if (turns !== '') f.turns = Number(turns);
    }
    return f;
  }

  // The sheets in seat order: the mover at its seat, the opponents in turn
  // order after it (as the hint reads them).
  function seatOrder(f) {
    const order = [f.sheet, ...(f.opponents || [])];
    const seat = (f.seat || 1) - 1;
    return order.map((_, i) => order[(i - seat + order.length) % order.length]);
  }

  // Every sheet's score, the engine's (R6): the position set up as a game,
  // read, and closed again.
  async function sheetScores(f) {
    const sheets = seatOrder(f);
    const current = (f.seat || 1) - 1;
    const position = { sheets, current };
    if (f.turns !== undefined) position.turns = sheets.map((_, i) => f.turns + (i < current ? 1 : 0));
    const game = await engine.request('new_game', {
      players: sheets.map(() => 'human'), position, ...(f.rules ? { rules: f.rules } : {}) });
    engine.request('close_game', { game: game.game }).catch(() => {});
    return game.players.map((p) => p.score);
  }

  function drawScores(scores, f) {
    const current = (f.seat || 1) - 1;
    const ul = $('an-scores');
    ul.replaceChildren();
    scores.forEach((score, i) => {
      const li = document.createElement('li');
      li.dataset.seat = i + 1;
      li.textContent = `Seat ${i + 1}${i === current ? ' (to move)' : ''}: ${score}`;
      ul.appendChild(li);
    });
  }

  function header(table, names) {
    table.replaceChildren();
    const tr = table.insertRow();
    for (const n of names) {
      const th = document.createElement('th');
      th.textContent = n;
      tr.appendChild(th);
    }
  }

  $('an-rank').onclick = async () => {
    const run = ++view.running;
    try {
      const roll = normaliseDice($('an-roll').value);
      const f = { ...fields(), roll };
      const [hint, value, scores] = await Promise.all([
        engine.request('hint', f),
        engine.request('value', { sheet: f.sheet, ...(f.rules ? { rules: f.rules } : {}) }),
        sheetScores(f),
      ]);
      if (run !== view.running) return;
      drawScores(scores, f);
      $('an-value').textContent = `Value of the sheet at the start of a turn: ${value.value.toFixed(2)}`;
      const table = $('an-table');
      const withWin = hint.actions.length && hint.actions[0].win !== undefined;
      header(table, withWin ? ['#', 'option', 'win chance', 'score in this game', 'solitaire value']
                            : ['#', 'option', 'expected score']);
      hint.actions.forEach((a, i) => {
        const tr = table.insertRow();
        if (i === 0) tr.className = 'best';
        tr.dataset.action = a.action;
        tr.insertCell().textContent = withWin && a.tied ? '=' : i + 1;
        tr.insertCell().textContent = a.action;
        if (withWin) {
          tr.insertCell().textContent = `${(100 * a.win).toFixed(2)}%`;
          tr.insertCell().textContent = a.score !== undefined ? a.score.toFixed(2) : '-';
        }
        tr.insertCell().textContent = a.value.toFixed(4);
      });
    } catch (err) {
      showError(err);
    }
  };

  // The best choice for each roll of this sheet, filled in as answers come.
  $('an-opening').onclick = async () => {
    const run = ++view.running;
    const f = fields();
    delete f.opponents;
    delete f.last_round;
    const table = $('an-table');
    header(table, ['roll', 'best', 'value', 'second', 'margin']);
    $('an-value').textContent = `Opening table of ${f.sheet}, ${f.rerolls} rerolls left`;
    try {
      for (const roll of allRolls()) {
        const h = await engine.request('hint', { ...f, roll, top: 2 });
        if (run !== view.running) return;
        const [best, second] = h.actions;
        const tr = table.insertRow();
        tr.insertCell().textContent = roll;
        tr.insertCell().textContent = best ? best.action : '';
        tr.insertCell().textContent = best ? best.value.toFixed(4) : '';
        tr.insertCell().textContent = second ? second.action : '';
        tr.insertCell().textContent = second ? (best.value - second.value).toFixed(4) : '';
      }
    } catch (err) {
      showError(err);
    }
  };
}
