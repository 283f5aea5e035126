import { focusRing } from "./button";

/**
 * The look of every text input and select. Its own module so that the shell's language switch can
 * use it without the fields (field.tsx) joining the JavaScript every console route loads first.
 */
export const inputClass = `w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 placeholder:text-slate-500 aria-[invalid=true]:border-red-700 ${focusRing}`;
