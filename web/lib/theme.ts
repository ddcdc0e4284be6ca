import { useSyncExternalStore } from "react";

// Dark mode (issue 13): follows the system's prefers-color-scheme unless the owner picked Light or
// Dark in the user menu; the choice is kept in this browser's localStorage. The `dark` class on
// <html> switches the CSS variables of web/tokens.css.

export type ThemeChoice = "system" | "light" | "dark";
export const THEME_KEY = "theme";
const listeners = new Set<() => void>();
const darkQuery = () => window.matchMedia("(prefers-color-scheme: dark)");

export function getThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(THEME_KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

function applyTheme() {
  const choice = getThemeChoice();
  const dark = choice === "dark" || (choice === "system" && darkQuery().matches);
  document.documentElement.classList.toggle("dark", dark);
}

export function setThemeChoice(choice: ThemeChoice) {
  try {
    if (choice === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
  applyTheme();
  for (const listener of listeners) listener();
}

/** Applies the theme now and follows the system's changes; called once before the first render. */
export function startTheme() {
  applyTheme();
  darkQuery().addEventListener("change", applyTheme);
  window.addEventListener("storage", (event) => {
    if (event.key === THEME_KEY || event.key === null) setThemeChoice(getThemeChoice());
  });
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getThemeChoice,
    () => "system",
  );
}
