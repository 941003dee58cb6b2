/** A section of a legal page (privacy policy, terms): numbered heading, paragraphs, optional list and link. */
export interface LegalSection {
  /** anchor id, stable across copy edits */
  id: string;
  title: string;
  paragraphs: string[];
  bullets?: string[];
  /** an in-site link shown after the paragraphs */
  link?: { to: string; label: string };
}
