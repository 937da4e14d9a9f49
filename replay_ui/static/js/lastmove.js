// The last move on the board: the pieces the last decision changed are highlighted and carry
// data-last-move="true". What changed is computed generically from the two states (before the
// decision, and the position shown), as paths of the state's JSON ("players.2.city.14"). A board
// renderer names which state field each piece draws with data-path="…" (several, space-separated);
// a piece is marked when anything at or under one of its paths changed. A board whose pieces are not
// addressed by a path (a house on a site is in a list of site ids) exports markLastMove(container,
// before, after) as its own hook, called after the generic marking.

/** Every path (dot-joined keys and indexes) where `before` and `after` differ, into `out`. */
export function changedPaths(before, after, path = "", out = []) {
  if (before === after) return out;
  const bothObjects = before && after && typeof before === "object" && typeof after === "object"
    && Array.isArray(before) === Array.isArray(after);
  if (!bothObjects) { out.push(path); return out; }
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) changedPaths(before[key], after[key], path ? `${path}.${key}` : key, out);
  return out;
}

/** Every path and each of its ancestors: a piece drawing a whole list is marked when one entry changed. */
function withAncestors(paths) {
  const all = new Set();
  for (const path of paths) {
    const parts = path.split(".");
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join("."));
  }
  return all;
}

/** Mark one piece as changed by the last move. */
export function markPiece(node) {
  node.dataset.lastMove = "true";
  node.classList.add("last-move");
}

/** Every piece of `container` drawing one of the changed paths `leaves` (with data-path; see the top). */
export function piecesAt(container, leaves) {
  const changed = withAncestors(leaves), replaced = new Set(leaves);
  // A piece is hit when something at or under its path changed, or a whole field above it was replaced.
  const hit = (path) => changed.has(path) || [...withAncestors([path])].some((up) => replaced.has(up));
  return [...container.querySelectorAll("[data-path]")].filter((node) => node.dataset.path.split(" ").some(hit));
}

/** Mark the pieces of `container` that the step from `before` to `after` changed; returns how many. */
export function markLastMove(container, before, after, board) {
  for (const node of container.querySelectorAll("[data-last-move]")) {
    delete node.dataset.lastMove;
    node.classList.remove("last-move");
  }
  if (!before || !after) return 0;
  for (const node of piecesAt(container, changedPaths(before, after))) markPiece(node);
  if (board && typeof board.markLastMove === "function") board.markLastMove(container, before, after);
  return container.querySelectorAll("[data-last-move='true']").length;
}
