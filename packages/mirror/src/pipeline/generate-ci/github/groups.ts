import { type SpecSlot, slotSuffix } from "../slot.js";

/**
 * Concurrency groups. The publish group is one literal shared by the mirror workflow and the
 * cascade repair of the same spec (a queued run of either waits for, or is replaced by, the
 * other); describe, patch and the catch-up announce have their own.
 */
export const publishGroup = (slot: Pick<SpecSlot, "dir">) => `pkg-mirror-publish${slotSuffix(slot.dir)}`;
export const ownGroup = (stem: string, slot: Pick<SpecSlot, "dir">) =>
  `pkg-mirror-${stem}${slotSuffix(slot.dir)}`;
