/**
 * A copy button for every install command (`pre.command`), added here so that a page without
 * script shows no dead button. It copies the command's text through the async clipboard, else
 * through a selected text area and the copy command (pages over plain http or from disk), and says
 * how it went in a live region; when neither works it selects the command for the reader to copy.
 */

/** How long the button reads "Copied" before it offers to copy again. */
const confirmMs = 2000;

function liveRegion(): HTMLElement {
  const region = document.createElement("p");
  region.className = "visually-hidden";
  region.setAttribute("role", "status");
  document.body.append(region);
  return region;
}

/** Copies through a selected, off-screen text area: works where the async clipboard is missing. */
function copyBySelection(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.readOnly = true;
  area.className = "copy-scratch";
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    // refused: the reader copies the selected command instead
  }
  area.remove();
  return copied;
}

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // denied (permissions policy, no focus): try the older way
  }
  return copyBySelection(text);
}

/** Selects the command's text, so the reader can copy it with the keyboard. */
function selectCommand(code: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(code);
  getSelection()?.removeAllRanges();
  getSelection()?.addRange(range);
}

export function setupCopyButtons(): void {
  const commands = document.querySelectorAll<HTMLElement>("pre.command");
  if (commands.length === 0) return;
  const region = liveRegion();
  commands.forEach((pre, i) => {
    pre.id ||= `command-${i + 1}`;
    const box = document.createElement("div");
    box.className = "command-box";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    // the name says what it does; the description says which command
    button.setAttribute("aria-describedby", pre.id);
    pre.replaceWith(box);
    box.append(pre, button);
    let timer: ReturnType<typeof setTimeout> | undefined;
    button.addEventListener("click", async () => {
      const text = (pre.textContent ?? "").trim();
      const copied = await copyText(text);
      if (!copied) selectCommand(pre);
      region.textContent = copied
        ? "Copied"
        : "Copying is blocked here: the command is selected for you to copy";
      if (copied) button.textContent = "Copied";
      clearTimeout(timer);
      timer = setTimeout(() => {
        button.textContent = "Copy";
        region.textContent = "";
      }, confirmMs);
    });
  });
}
