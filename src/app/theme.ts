// The page follows the viewer's theme toggle (and the system until it is used); the choice is kept
// for the next visit.
import { useCallback, useEffect, useState } from 'react';
import type { ThemeChoice } from '../embed';

/** The theme chosen, and how to choose another (kept in the browser's storage). */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [theme, setTheme] = useState<ThemeChoice>(savedTheme);
  useEffect(() => {
    document.documentElement.style.colorScheme = theme === 'system' ? '' : theme;
  }, [theme]);
  const chooseTheme = useCallback((choice: ThemeChoice) => {
    setTheme(choice);
    saveTheme(choice);
  }, []);
  return [theme, chooseTheme];
}

const THEME_KEY = 'loupe.theme';

/** The theme chosen on an earlier visit; the system's until one is chosen (or where storage is refused). */
function savedTheme(): ThemeChoice {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    return saved === 'light' || saved === 'dark' ? saved : 'system';
  } catch {
    return 'system';
  }
}

function saveTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (a private window's policy): the choice lasts for this visit.
  }
}
