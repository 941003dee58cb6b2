import { buttonTones } from './button.css';

/** A button's tone: primary (filled, the default), secondary (outlined) or quiet (underlined text). */
export type ButtonTone = keyof typeof buttonTones;

/**
 * The class names of a button or button-styled link (src/styles/button.css.ts).
 * @param options - `tone`, `primary` when left out
 * @returns the element's `className`
 */
export function button({ tone = 'primary' }: { tone?: ButtonTone } = {}): string {
  return buttonTones[tone];
}
