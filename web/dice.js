// The six dice (R1.1): faces 1-5 drawn with pips, the jolly J as the "!" of
// the real dice.

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[25, 25], [50, 50], [75, 75]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
};

export function dieElement(face, { kept = false, onClick = null } = {}) {
  const el = document.createElement(onClick ? 'button' : 'span');
  el.className = 'die' + (kept ? ' kept' : '') + (face === 'J' ? ' jolly' : '');
  el.dataset.face = face;
  el.setAttribute('aria-label', face === 'J' ? 'jolly' : `die ${face}`);
  if (face === 'J') {
    el.innerHTML = '<svg viewBox="0 0 100 100" aria-hidden="true"><text x="50" y="74" text-anchor="middle" font-size="70" font-weight="bold">!</text></svg>';
  } else {
    const dots = PIPS[face].map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9"/>`).join('');
    el.innerHTML = `<svg viewBox="0 0 100 100" aria-hidden="true">${dots}</svg>`;
  }
  if (onClick) {
    el.type = 'button';
    el.addEventListener('click', onClick);
  }
  return el;
}

// Canonical dice text (R7.1): sorted, J last.
export function canonicalDice(text) {
  return text.split('').sort((a, b) => (a === 'J') - (b === 'J') || a.localeCompare(b)).join('');
}

// Keyboard input of physical dice: digits 1-5, J/j/!/6 for the jolly (R1.1);
// separators ignored.
export function normaliseDice(text) {
  return text.replace(/[\s,]/g, '').replace(/[j!6]/g, 'J');
}
