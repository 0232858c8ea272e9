/** What the browser says about its platform: the client hint where there is one, else the old field. */
function platformName(): string {
  const hints = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  return hints?.platform || navigator.platform || "";
}

/** Apple keyboards name the palette's shortcut ⌘K; every other platform's Ctrl K. The hint itself
 *  is hidden by the stylesheet where there is no keyboard to speak of (touch, no hover). */
export function setupKeyboardHint(): void {
  if (!/mac|iphone|ipad|ipod|ios/i.test(platformName())) return;
  for (const hint of document.querySelectorAll<HTMLElement>("[data-palette-open] kbd"))
    hint.textContent = "⌘K";
}
