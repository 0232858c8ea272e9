/** The catalog view's keyword rail is a disclosure: folded on a narrow screen, so the packages come
 *  first, and open on a wide one, where it is a side column; it follows the width as that changes. */
export function setupKeywordFold(): void {
  const fold = document.querySelector<HTMLDetailsElement>("[data-keyword-fold]");
  if (!fold) return;
  const narrow = matchMedia("(max-width: 48rem)");
  const sync = () => {
    fold.open = !narrow.matches;
  };
  sync();
  narrow.addEventListener("change", sync);
}
