// The running game kept in the browser (localStorage), so that a reload or a
// lost connection does not lose it: the engine's record of the game (export,
// docs/PROTOCOL.md "The game record") and what only the page knows besides
// (its settings, the coach's flags). One game is kept: a new game replaces
// it, a finished game clears it.

const KEY = 'penk.game';

// {record, undo_steps, settings, flagged}; undo_steps says which step the
// record is at (the number of its steps), for whoever checks it.
export function saveGame(saved) {
  try {
    localStorage.setItem(KEY, JSON.stringify(saved));
  } catch {
    // Storage full or refused (private browsing): the game goes on unsaved.
  }
}

export function loadGame() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY));
    return saved && saved.record ? saved : null;
  } catch {
    return null;
  }
}

export function clearGame() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
