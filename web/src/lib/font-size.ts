/** Spec section 9: font sizes small, medium, large; anything else counts as medium. */
export const FONT_SIZES = ['small', 'medium', 'large'] as const;
export type FontSize = (typeof FONT_SIZES)[number];

export function toFontSize(value: unknown): FontSize {
  return (FONT_SIZES as readonly unknown[]).includes(value) ? (value as FontSize) : 'medium';
}

/** Puts one `font-<size>` class on <html>; styles.css shifts every size by the spec's rem step. */
export function setFontSize(value: unknown, root: HTMLElement = document.documentElement): FontSize {
  const size = toFontSize(value);
  for (const s of FONT_SIZES) root.classList.toggle(`font-${s}`, s === size);
  return size;
}
