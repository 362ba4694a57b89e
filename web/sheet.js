// A player's 5x5 sheet as on paper (R1.2): columns are faces 1..5, rows are
// sizes 1..5 worth 1/2/3/5/8; row and column scores beside (R6).

export const ROW_VALUES = [1, 2, 3, 5, 8];

// "ooo.o/..o.x/..." -> rows[k][v] of '.', 'o', 'x' (R7.3).
export function parseSheet(text) {
  return text.split('/').map((row) => row.split(''));
}

export function sheetText(rows) {
  return rows.map((r) => r.join('')).join('/');
}

export const EMPTY_SHEET = '...../...../...../...../.....';

// The cells ("v:k") circled by a marking "3:4+5:2" (R7.4).
export function markingCells(marking) {
  if (!marking || marking.startsWith('fail:')) return [];
  return marking.split('+').map((g) => g.replace(/J$/, ''));
}

// Row k holds groups of k dice (the k of a marking v:k, R7.4) and is worth
// its points a cell (R6.1): both on the label, as phones show no tooltip.
export function rowLabel(k) {
  return `${k} ${k === 1 ? 'die' : 'dice'} · ${ROW_VALUES[k - 1]}`;
}

// Builds the table of one sheet. `player` is a state's player object (or a
// plain {sheet, crossings}); options: names (seat labels for PENK crossings),
// highlight (Set of "v:k" legal cells), selected (Set), onCell(v, k),
// closed (column numbers), compact.
export function renderSheet(player, options = {}) {
  const rows = parseSheet(player.sheet);
  const crossings = player.crossings ? parseSheet(player.crossings) : null;
  const table = document.createElement('table');
  table.className = 'sheet';
  const head = table.insertRow();
  head.insertCell().className = 'corner';
  for (let v = 1; v <= 5; v++) {
    const th = document.createElement('th');
    th.textContent = v;
    if ((player.closed_columns || []).includes(v)) {
      th.classList.add('closed');
      th.title = `column ${v} closed (R5.1)`;
    }
    head.appendChild(th);
  }
  const rs = document.createElement('th');
  rs.textContent = 'row';
  rs.className = 'score-head';
  head.appendChild(rs);
  for (let k = 1; k <= 5; k++) {
    const tr = table.insertRow();
    const label = document.createElement('th');
    label.className = 'row-label';
    label.textContent = rowLabel(k);
    label.title = `row ${k}: groups of ${k} dice (v:${k}), ${ROW_VALUES[k - 1]} points a cell`;
    tr.appendChild(label);
    for (let v = 1; v <= 5; v++) {
      const td = tr.insertCell();
      const c = rows[k - 1][v - 1];
      td.dataset.face = v;
      td.dataset.size = k;
      td.dataset.cell = c;
      td.className = c === 'o' ? 'cell circled' : c === 'x' ? 'cell crossed' : 'cell free';
      const by = crossings ? crossings[k - 1][v - 1] : '.';
      if (c === 'x' && by >= '0' && by <= '3') {
        td.classList.add('penk');
        const name = options.names ? options.names[Number(by)] : `P${Number(by) + 1}`;
        td.title = `crossed by the PENK of ${name} (R4.2)`;
        td.dataset.by = by;
        const tag = document.createElement('span');
        tag.className = 'by';
        tag.textContent = `P${Number(by) + 1}`;
        td.appendChild(tag);
      } else if (c === 'x' && by === 'f') {
        td.classList.add('failure');
        td.title = 'crossed by a failure (R3.5)';
      }
      const key = `${v}:${k}`;
      if (options.highlight && options.highlight.has(key)) td.classList.add('legal');
      if (options.selected && options.selected.has(key)) td.classList.add('selected');
      if (options.onCell) td.addEventListener('click', () => options.onCell(v, k, td));
    }
    const score = tr.insertCell();
    score.className = 'row-score';
    score.textContent = player.row_scores ? player.row_scores[k - 1] : '';
  }
  const foot = table.insertRow();
  const colLabel = document.createElement('th');
  colLabel.textContent = 'col';
  foot.appendChild(colLabel);
  for (let v = 1; v <= 5; v++) {
    const td = foot.insertCell();
    td.className = 'col-score';
    td.textContent = player.column_scores ? player.column_scores[v - 1] : '';
  }
  const total = foot.insertCell();
  total.className = 'total';
  total.textContent = player.score ?? '';
  total.title = 'score (R6.3)';
  return table;
}
