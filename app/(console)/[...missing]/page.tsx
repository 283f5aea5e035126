import { notFound } from "next/navigation";

/**
 * Any address no console page has: answered 404 by `not-found.tsx` of the console's route group,
 * so the page stays inside the console's frame (navigation, language) instead of Next's default.
 */
export default function MissingPage(): never {
  notFound();
}
