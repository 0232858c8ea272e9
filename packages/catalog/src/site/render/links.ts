import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { SiteLink } from "../model/site-links.js";

/** The page's way of naming site paths; every internal href and src is `link(sitePath)`. */
export const LinkContext = createContext<SiteLink>((sitePath) => sitePath);

export function useLink(): SiteLink {
  return useContext(LinkContext);
}
