import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { CompiledMessage, CompiledPart } from "./icu";

/**
 * An ICU MessageFormat message (`{count, plural, one {# row} other {# rows}}`, `{name}`, `{kind,
 * select, …}`) parsed by @formatjs/icu-messageformat-parser into the compact form icu.ts renders.
 * Server code (and tests): the browser receives dictionaries already compiled. A message that does
 * not parse, or uses a format the console does not render (date, time, number styles, tags), throws
 * naming the message, so a broken translation fails the build's tests rather than a page.
 */
export function compileMessage(text: string): CompiledMessage {
  let elements: MessageFormatElement[];
  try {
    elements = parse(text, { ignoreTag: true, requiresOtherClause: true });
  } catch (error) {
    throw new Error(`not an ICU message: ${JSON.stringify(text)} (${(error as Error).message})`);
  }
  return compileElements(elements, text);
}

function compileElements(elements: MessageFormatElement[], text: string): CompiledMessage {
  const parts: CompiledPart[] = [];
  for (const element of elements) {
    switch (element.type) {
      case TYPE.literal:
        if (typeof parts.at(-1) === "string") parts[parts.length - 1] += element.value;
        else parts.push(element.value);
        break;
      case TYPE.argument:
        parts.push([element.value]);
        break;
      case TYPE.pound:
        parts.push(["#"]);
        break;
      case TYPE.number:
        // `{count, number}`: the number in the language's digits (grouping); styles are not rendered.
        if (element.style) throw new Error(`unsupported number style in ${JSON.stringify(text)}`);
        parts.push([element.value, "n"]);
        break;
      case TYPE.plural:
        parts.push([element.value, element.pluralType === "ordinal" ? "o" : "p", compileCases(element.options, text), element.offset]);
        break;
      case TYPE.select:
        parts.push([element.value, "s", compileCases(element.options, text)]);
        break;
      default:
        throw new Error(`unsupported ICU element (type ${element.type}) in ${JSON.stringify(text)}`);
    }
  }
  if (parts.length === 0) return "";
  if (parts.length === 1 && typeof parts[0] === "string") return parts[0];
  return parts;
}

function compileCases(options: Record<string, { value: MessageFormatElement[] }>, text: string): Record<string, CompiledMessage> {
  return Object.fromEntries(Object.entries(options).map(([selector, option]) => [selector, compileElements(option.value, text)]));
}

/** Every message of a dictionary compiled; an error names the key. */
export function compileDictionary<K extends string>(dictionary: Record<K, string>): Record<K, CompiledMessage> {
  const compiled = {} as Record<K, CompiledMessage>;
  for (const key of Object.keys(dictionary) as K[]) {
    try {
      compiled[key] = compileMessage(dictionary[key]);
    } catch (error) {
      throw new Error(`${key}: ${(error as Error).message}`);
    }
  }
  return compiled;
}

/** The argument names a message uses (plural and select included), sorted: both languages must agree. */
export function messageArguments(text: string): string[] {
  const names = new Set<string>();
  const visit = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.pound || element.type === TYPE.literal) continue;
      names.add(element.value);
      if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) visit(option.value);
    }
  };
  visit(parse(text, { ignoreTag: true }));
  return [...names].sort();
}
