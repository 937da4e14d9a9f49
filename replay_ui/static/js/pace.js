// Work that may be asked for many times a second but is worth doing only now and then.

/** `fn` paced to at most once every `ms` milliseconds. `soon()` runs it at once if it has not run for `ms`, else once
 *  when they have passed, however often it was asked meanwhile (so the last ask is never lost); `now()` runs it at
 *  once and drops an ask still waiting. */
export function paced(fn, ms) {
  let timer = null;
  let due = false;
  const soon = () => {
    if (timer !== null) { due = true; return; }
    fn();
    timer = setTimeout(() => {
      timer = null;
      if (due) { due = false; soon(); }
    }, ms);
  };
  const now = () => {
    clearTimeout(timer);
    timer = null;
    due = false;
    fn();
  };
  return { soon, now };
}
