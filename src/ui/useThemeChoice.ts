// The viewer's theme: the host's choice (a prop that may change), the viewer's toggle over it,
// and 'system' following the page's colour scheme.
import { useState } from 'react';
import { useSystemDark } from './useStore';

export type ThemeChoice = 'light' | 'dark' | 'system';

export function useThemeChoice(theme: ThemeChoice, onThemeChange?: (theme: 'light' | 'dark') => void): { dark: boolean; toggle: () => void } {
  const systemDark = useSystemDark();
  const [choice, setChoice] = useState<ThemeChoice>(theme);
  const [prevTheme, setPrevTheme] = useState(theme);
  if (prevTheme !== theme) {
    setPrevTheme(theme);
    setChoice(theme);
  }
  const dark = choice === 'dark' || (choice === 'system' && systemDark);
  const toggle = (): void => {
    const next = dark ? 'light' : 'dark';
    setChoice(next);
    onThemeChange?.(next);
  };
  return { dark, toggle };
}
